import { filterFieldsOf, type ResourceDef } from '@ringmes/domain';
import dayjs from 'dayjs';
import type { Filters } from './search-bar.tsx';

/**
 * A list's filters from the page address (`?status=draft&deliveryDateTo=2026-11-24`), so a link
 * (the 首页 cockpit cards, messages) opens the list already filtered: the query parameters the
 * page API takes (declared filters, `<field>From`/`<field>To` for ranges, `keyword`), and the
 * search bar's form values showing them. Unknown parameters are ignored.
 */
export function filtersFromUrl(
  def: ResourceDef,
  search: URLSearchParams,
  hidden: readonly string[] = [],
): { filters: Filters; values: Record<string, unknown>; key: string } {
  const filters: Filters = {};
  const values: Record<string, unknown> = {};
  const keyword = search.get('keyword')?.trim();
  if (keyword) {
    filters.keyword = keyword;
    values.keyword = keyword;
  }
  for (const f of filterFieldsOf(def)) {
    if (hidden.includes(f.name)) continue;
    if (f.filter === 'range') {
      const from = search.get(`${f.name}From`) || undefined;
      const to = search.get(`${f.name}To`) || undefined;
      if (!from && !to) continue;
      if (from) filters[`${f.name}From`] = from;
      if (to) filters[`${f.name}To`] = to;
      if (f.kind === 'date' || f.kind === 'datetime') {
        values[f.name] = [from ? dayjs(from) : null, to ? dayjs(to) : null];
      } else {
        if (from) values[`${f.name}From`] = Number(from);
        if (to) values[`${f.name}To`] = Number(to);
      }
      continue;
    }
    const v = search.get(f.name);
    if (v === null || v === '') continue;
    filters[f.name] = v;
    values[f.name] = f.kind === 'ref' || f.kind === 'refs' ? Number(v) : v;
  }
  return { filters, values, key: JSON.stringify(filters) };
}
