/**
 * A hook a lower module owns and a higher one listens on (docs/architecture.md, import rule 5):
 * the lower module calls `emit` where the event happens, inside its transaction; each listener
 * runs in turn, in the order registered, and a refusal (an `AppError`) rolls the whole back.
 * Listeners register once, at module load (a second registration of the same function is ignored).
 */
export interface Hook<A extends unknown[]> {
  on(listener: (...args: A) => Promise<unknown>): void;
  emit(...args: A): Promise<void>;
}

export function hook<A extends unknown[]>(): Hook<A> {
  const listeners: ((...args: A) => Promise<unknown>)[] = [];
  return {
    on(listener) {
      if (!listeners.includes(listener)) listeners.push(listener);
    },
    async emit(...args) {
      for (const l of listeners) await l(...args);
    },
  };
}

/**
 * A question a lower module asks and one higher module answers (the same rule 5, for a value
 * rather than an event): the higher module `provide`s the answer at module load; asking before
 * that is a wiring fault and throws.
 */
export interface Port<A extends unknown[], R> {
  provide(answer: (...args: A) => R): void;
  ask(...args: A): R;
}

export function port<A extends unknown[], R>(name: string): Port<A, R> {
  let answer: ((...args: A) => R) | undefined;
  return {
    provide(a) {
      answer = a;
    },
    ask(...args) {
      if (!answer) throw new Error(`${name}: no module provides it (the composition root did not load it)`);
      return answer(...args);
    },
  };
}
