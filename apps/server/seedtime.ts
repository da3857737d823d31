import { openDatabase } from './src/platform/db/db.ts';
import { migrate } from './src/platform/db/migrate.ts';
import { seed } from './src/seed/index.ts';
const G = globalThis as any;
const t0 = Date.now();
const database = await openDatabase({ dataDir: process.env.DD ?? 'memory://', template: process.env.TPL });
await migrate(database.db);
console.log('migrated', Date.now() - t0);
await seed(database.db, { seed: 'demo' } as any, (m) => { G.STEP = m.slice(9, 12); });
console.log('total', Date.now() - t0);
const S = [...(G.SQLSTAT as Map<string, any>).entries()];
const by = new Map<string, { n: number; ms: number }>();
for (const [k, v] of S) { const s = k.split(' | ')[0]; const e = by.get(s) ?? { n: 0, ms: 0 }; e.n += v.n; e.ms += v.ms; by.set(s, e); }
for (const [s, v] of [...by].sort((a, b) => b[1].ms - a[1].ms)) console.log('op', s, v.n, v.ms.toFixed(0));
process.exit(0);
