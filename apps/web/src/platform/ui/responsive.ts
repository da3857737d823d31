import { Grid } from 'antd';

/** Below 992 px: phones and tablets (the shell's mobile layout, spec section 9). */
export function useNarrow(): boolean {
  return Grid.useBreakpoint().lg === false;
}

interface FittableColumn {
  key?: unknown;
  dataIndex?: unknown;
  fixed?: unknown;
  width?: unknown;
}

/**
 * The columns a screen shows. Wide screens get them all; below 992 px only the priority columns
 * (the record's code, its status, 操作 …), none fixed and none of a set width, so the table lays
 * out in the screen's width: a phone sees the rows instead of a 1,500 px table behind a scroll bar.
 * Details are one tap away on the record's page.
 */
export function fitColumns<C extends FittableColumn>(
  columns: readonly C[],
  narrow: boolean,
  priority: readonly string[],
): C[] {
  if (!narrow) return [...columns];
  return columns
    .filter((c) => priority.includes(String(c.key ?? c.dataIndex)))
    .map((c) => ({ ...c, fixed: undefined, width: undefined }));
}
