import fs from 'node:fs';
import path from 'node:path';
import { customerResource, RESOURCES, type ResourceDef, saleOrderResource } from '@ringmes/domain';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../src/modules/index.ts';
import { entriesByDef, type ServerArea } from '../src/platform/resource/area.ts';

const MODULES = path.resolve(import.meta.dirname, '../src/modules');

describe('server areas (modules/<area>/index.ts, listed in modules/index.ts)', () => {
  it('every module folder is one area, named after it, listed once', () => {
    const folders = fs
      .readdirSync(MODULES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(AREAS.map((a) => a.name).sort()).toEqual(folders);
    for (const f of folders) expect(fs.existsSync(path.join(MODULES, f, 'index.ts')), f).toBe(true);
  });

  it('each entry names a declared resource, once, with effects of declared transitions only', () => {
    const entries = entriesByDef(RESOURCES, AREAS);
    // Every document with a lifecycle and no effects of its own is served by the kit alone.
    for (const [def, e] of entries) {
      expect(RESOURCES).toContain(def);
      if (e.transitions) expect(def.lifecycle, def.name).toBeDefined();
    }
  });

  it('a wiring fault fails at start: an unknown resource, two entries, an undeclared transition', () => {
    const area = (resources: ServerArea['resources']): ServerArea => ({ name: 'x', resources });
    const stray: ResourceDef = { ...customerResource, name: 'stray' };
    expect(() => entriesByDef(RESOURCES, [area([{ def: stray }])])).toThrow(/stray is not in RESOURCES/);
    expect(() =>
      entriesByDef(RESOURCES, [area([{ def: customerResource }]), area([{ def: customerResource }])]),
    ).toThrow(/two entries/);
    expect(() =>
      entriesByDef(RESOURCES, [area([{ def: saleOrderResource, transitions: { ship: {} } }])]),
    ).toThrow(/declares no transition ship/);
  });
});
