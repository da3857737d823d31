import { RESOURCES } from '@ringmes/domain';
import { expect, it } from 'vitest';
import type { RefTarget } from './ref-targets.ts';

/** The source of `ref-targets.generated.ts`: every resource whose facts differ from the defaults. */
function generated(): string {
  const entries: [string, RefTarget][] = [];
  for (const def of [...RESOURCES].sort((a, b) => a.name.localeCompare(b.name))) {
    const t: RefTarget = {};
    if (def.parentField) t.tree = true;
    if (def.options?.remote) t.remote = true;
    if (def.activeField) t.active = { name: def.activeField.name, value: def.activeField.value };
    if (Object.keys(t).length) entries.push([def.name, t]);
  }
  const literal = (v: string | number) => (typeof v === 'number' ? String(v) : `'${v}'`);
  const lines = entries.map(([name, t]) => {
    const facts = [
      t.tree && 'tree: true',
      t.remote && 'remote: true',
      t.active && `active: { name: ${literal(t.active.name)}, value: ${literal(t.active.value)} }`,
    ].filter(Boolean);
    const key = /^[a-z]\w*$/i.test(name) ? name : `'${name}'`;
    return `  ${key}: { ${facts.join(', ')} },`;
  });
  return [
    '// generated from the resource registry of @ringmes/domain by ref-targets.test.ts — do not edit;',
    '// `npx vitest run apps/web/src/platform/resource/ref-targets.test.ts --update` rewrites it.',
    "import type { RefTarget } from './ref-targets.ts';",
    '',
    'export const REF_TARGETS: Record<string, RefTarget> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

it('ref-targets.generated.ts holds the tree, remote and active facts of every resource', async () => {
  await expect(generated()).toMatchFileSnapshot('./ref-targets.generated.ts');
});
