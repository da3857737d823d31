import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** db.ts's `Db`, written out so that db.ts (which makes the connection) and this file do not import each other. */
type Db = Kysely<any>;

/**
 * A connection of its own beside the request pool, for the few statements that must commit at
 * once whatever transaction asked for them: a document number's counter (platform/numbering.ts).
 * Carried as a plugin that changes nothing, because a plugin travels with the database into every
 * transaction made from it, so a function handed a transaction still finds the connections of
 * the same database (tests run several databases in one process).
 */
export class AutonomousConnection implements KyselyPlugin {
  constructor(readonly db: Db) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * The autonomous connection of `db`'s database (PostgreSQL), or undefined (PGlite: one
 * connection, transactions one after the other, so there is nothing to wait for).
 */
export function autonomousOf(db: Db): Db | undefined {
  // getExecutor is marked internal in Kysely's typings; its plugins are the ones db was made with.
  for (const p of db.getExecutor().plugins) if (p instanceof AutonomousConnection) return p.db;
  return undefined;
}
