// Writes a new SQL migration holding the tables of the named resources, generated from their
// declarations (packages/domain `resourceDdl`):
//
//   node --import tsx scripts/gen-migration.mjs 0004_sales sale-order [more resources…] [--extra file.sql]
//
// `--extra` appends hand-written statements (composite indexes, constraints across tables).
// The migration is committed and, like every applied migration, never edited afterwards: a
// later change to a declaration gets a new migration. schema-matches-definitions.test.ts checks
// the database against the declarations.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resourceByName, resourceDdl } from '@ringmes/domain';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const extraAt = args.indexOf('--extra');
const extra = extraAt >= 0 ? fs.readFileSync(args.splice(extraAt, 2)[1], 'utf8').trim() : '';
const [name, ...resources] = args;
if (!name || !/^\d{4}_[a-z0-9_]+$/.test(name) || !resources.length) {
  console.error(
    'usage: node --import tsx scripts/gen-migration.mjs NNNN_name resource [resource…] [--extra file.sql]',
  );
  process.exit(2);
}
const file = path.join(root, 'apps/server/migrations', `${name}.sql`);
if (fs.existsSync(file)) {
  console.error(`${file} exists: applied migrations are never rewritten; make a new one`);
  process.exit(2);
}
const parts = resources.map((r) => {
  const def = resourceByName(r);
  if (!def) throw new Error(`unknown resource ${r}`);
  return `-- ${def.label} (${def.name})\n${resourceDdl(def)}`;
});
const text = [
  `-- Generated from the resource declarations by scripts/gen-migration.mjs (${resources.join(', ')}).`,
  '-- Applied migrations are never edited: change the declaration and generate a new migration.',
  '',
  parts.join('\n\n'),
  ...(extra ? ['', '-- Hand-written', extra] : []),
  '',
].join('\n');
fs.writeFileSync(file, text);
console.log(`wrote ${path.relative(root, file)}`);
