import type { EnumOption, FieldDef } from './types.ts';

/**
 * A document's lifecycle, declared once: its states and the transitions between them. The server
 * runs every transition through one endpoint shape (`POST /api/v1/<resource>/<name>/{id}`); the
 * list, detail and buttons of the web read the same declaration. What a transition checks and
 * does beyond moving the state (a credit check, shipped quantities…) is the resource's guard and
 * effect, ordinary functions on the server.
 */
export interface TransitionDef {
  /** API segment and the permission's action: `approve` → `POST …/approve/{id}`, `sale:order:approve`. */
  name: string;
  /** Button label, e.g. 审核. */
  label: string;
  /** States the transition starts from. */
  from: string[];
  /** The state it leaves the document in. */
  to: string;
  /** A reason must be given (closing, un-approving): stored on the audit row and in `statusReason`. */
  reason?: boolean;
  /**
   * Values the transition takes beyond the reason (派工的维修人, 维修内容): asked for in its
   * dialog, checked by the server (required ones refused with 400 when missing) and handed to the
   * handlers as `ctx.input`; the resource's effect stores them.
   */
  input?: FieldDef[];
  /** Ask before running it (the button's confirmation text). */
  confirm?: string;
  /** Ant Design button look: `primary` for the forward path, `danger` for closing. */
  tone?: 'primary' | 'danger' | 'default';
  /**
   * The permission action it needs when not its own name: an operator's 暂停 / 继续 / 完工 go with
   * 开工 (`start`), since the menu grants one button for running a dispatch.
   */
  action?: string;
  /**
   * Offered only for documents whose `field` holds one of `in` (plain data, no expression): a
   * receivable written by stock posting is never 反审核'd by hand. The web hides the button, the
   * server refuses the call with `message` (409).
   */
  when?: { field: string; in: (string | number | boolean | null)[]; message: string };
}

/** The permission action of a transition: `${permission}:${action}`. */
export const transitionAction = (t: TransitionDef) => t.action ?? t.name;

export interface LifecycleDef {
  /** The states, in the order of the normal path; `value` is stored in the `status` column. */
  states: EnumOption[];
  /** State of a new document. */
  initial: string;
  /** States in which the document may be edited and deleted through the generic calls. */
  editable: string[];
  transitions: TransitionDef[];
}

/** Whether a document's values let the transition be offered (its `when`). */
export function transitionApplies(t: TransitionDef, record: Record<string, unknown>): boolean {
  return !t.when || t.when.in.includes((record[t.when.field] ?? null) as string | number | boolean | null);
}

/** The transitions that may start from `state` (and, given the document, whose `when` it meets). */
export function transitionsFrom(
  lifecycle: LifecycleDef,
  state: string,
  record?: Record<string, unknown>,
): TransitionDef[] {
  return lifecycle.transitions.filter(
    (t) => t.from.includes(state) && (!record || transitionApplies(t, record)),
  );
}

/** The Chinese label of a state (the value itself when unknown). */
export function stateLabel(lifecycle: LifecycleDef, state: string): string {
  return lifecycle.states.find((s) => s.value === state)?.label ?? state;
}
