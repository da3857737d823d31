import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/platform/db/db.ts';

/**
 * PGlite runs statements synchronously in WebAssembly. Queued statements must let the event loop
 * turn between them, or one burst of requests holds timers and sockets for the whole queue
 * (issue 10 §5). Only the embedded database is concerned: it is opened here whatever the suite runs on.
 */
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => database.close());

it('gives the event loop a turn between queued statements', async () => {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  const seen: number[] = [];
  await Promise.all(
    Array.from({ length: 20 }, () =>
      sql`SELECT count(*) FROM generate_series(1, 20000)`.execute(database.db).then(() => seen.push(turns)),
    ),
  );
  spinning = false;
  // Each statement finished at a later turn than the one before it.
  expect(new Set(seen).size).toBe(seen.length);
});
