import { describe, expect, it } from 'vitest';
import { builtPages, PLACEHOLDER_PAGES } from '../platform/menu/built-pages.ts';
import { tablePaths } from '../platform/resource/area-pages.ts';
import { PAGE_REGISTRY } from './page-registry.ts';

describe('built pages', () => {
  it('PLACEHOLDER_PAGES lists exactly the paths the page tables route without a page', async () => {
    const { routed, built } = await tablePaths();
    const placeholders = [...routed].filter((p) => !built.has(p)).sort();
    expect([...PLACEHOLDER_PAGES].sort(), 'update PLACEHOLDER_PAGES in built-pages.ts').toEqual(placeholders);
  });

  it('counts every page a table holds and every page registered outside the tables', async () => {
    const { routed, built } = await tablePaths();
    const expected = new Set([...built, ...Object.keys(PAGE_REGISTRY).filter((p) => !routed.has(p))]);
    expect([...builtPages()].sort()).toEqual([...expected].sort());
  });
});
