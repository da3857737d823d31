// `npm run build`: writes dist/pgdata-template, an embedded database with every migration applied,
// which a new data directory starts from (`OpenOptions.template`). Usage: node make-template.js DIR
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, pgliteVersion, type TemplateMarker } from './db.ts';
import { migrate } from './migrate.ts';

const out = path.resolve(process.argv[2] ?? 'pgdata-template');
const work = `${out}.making`;
fs.rmSync(work, { recursive: true, force: true });
const database = await openDatabase({ dataDir: work });
const migrations = await migrate(database.db);
await database.close();
const marker: TemplateMarker = { pglite: pgliteVersion(), migrations };
fs.writeFileSync(path.join(work, 'template.json'), `${JSON.stringify(marker, null, 2)}\n`);
fs.rmSync(out, { recursive: true, force: true });
fs.renameSync(work, out);
console.log(`database template: ${path.relative(process.cwd(), out)} (${migrations.length} migrations)`);
