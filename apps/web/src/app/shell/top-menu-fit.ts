/** Spec section 9: each top-level entry takes about 150 px. */
export const TOP_MENU_ITEM_WIDTH = 150;

/**
 * How many top-level entries show in a menu `width` px wide; when not all fit, the rest go
 * under 更多菜单, which takes one slot itself.
 */
export function visibleCount(total: number, width: number, itemWidth = TOP_MENU_ITEM_WIDTH): number {
  const slots = Math.max(1, Math.floor(width / itemWidth));
  if (total <= slots) return total;
  return Math.max(0, slots - 1);
}
