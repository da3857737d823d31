import { sql } from 'kysely';
import { it } from 'vitest';
import { createTestApp } from './helpers.ts';
it('q', async () => {
  const t0 = Date.now();
  const t = await createTestApp({}, 'demo');
  console.log('seed ms', Date.now() - t0);
  for (const q of [
    sql`SELECT status, count(*) FROM work_report GROUP BY 1`,
    sql`SELECT status, count(*) FROM flow_card GROUP BY 1`,
    sql`SELECT workshop_type, status, count(*) FROM workshop_task GROUP BY 1,2 ORDER BY 1,2`,
    sql`SELECT count(*) FROM production_order`,
  ]) console.log(JSON.stringify((await q.execute(t.database.db)).rows));
  await t.close();
}, 600000);
