import { openDatabase } from './src/platform/db/db.ts';
import { migrate } from './src/platform/db/migrate.ts';
import { seed } from './src/seed/index.ts';

const t0 = Date.now();
const database = await openDatabase({ dataDir: process.env.DD ?? 'memory://', template: process.env.TPL });
await migrate(database.db);
console.log('migrated', Date.now() - t0);
const last = Date.now();
await seed(database.db, { seed: 'demo' } as any, () => {});
console.log('total', Date.now() - t0);
const S = [...((globalThis as any).SQLSTAT as Map<string, any>).entries()].sort((a, b) => b[1].ms - a[1].ms);
let n = 0,
  ms = 0;
for (const [, v] of S) {
  n += v.n;
  ms += v.ms;
}
console.log('statements', n, 'ms', ms.toFixed(0));
for (const [k, v] of S.slice(0, 45)) console.log(v.n, v.ms.toFixed(0), k);
process.exit(0);
