import { REF_TARGETS } from './ref-targets.generated.ts';

/** What a reference picker needs to know about the resource it points at. */
export interface RefTarget {
  /** A tree resource (its definition has a `parentField`): picked in a tree select. */
  tree?: boolean;
  /** A big table (`options.remote`): its picker searches on the server. */
  remote?: boolean;
  /** Records whose field holds this value are active; others show as disabled in a tree. */
  active?: { name: string; value: string | number };
}

/**
 * The facts of the resource `name` from its definition, without loading every definition: the
 * registry of `@ringmes/domain` weighs more, compressed, than a list page's own code. They
 * are read from `ref-targets.generated.ts`, which a test rebuilds from the registry.
 */
export function refTarget(name: string | undefined): RefTarget {
  return (name && REF_TARGETS[name]) || {};
}
