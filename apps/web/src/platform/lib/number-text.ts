/**
 * How the pages write a number the server sends (a decimal string such as "3000.0000", or a
 * number): zh-CN thousands separators, at least `min` and at most `max` decimal places, `empty`
 * for a missing value. The one formatter behind the quantities, amounts and prices of reports,
 * prints and documents; the kit's lists format declared fields exactly (`formatNumber`).
 */
export function numberText(
  value: unknown,
  { min = 0, max = 4, empty = '' }: { min?: number; max?: number; empty?: string } = {},
): string {
  if (value === null || value === undefined || value === '') return empty;
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return n.toLocaleString('zh-CN', { minimumFractionDigits: min, maximumFractionDigits: max });
}

/** The places of a quantity and of an amount. */
export const QUANTITY = { max: 4 } as const;
export const MONEY = { min: 2, max: 2 } as const;

/** A quantity: up to 4 places, trailing zeros dropped (3,000, 12.5). One argument: a table's `render`. */
export const quantityText = (value: unknown) => numberText(value, QUANTITY);

/** An amount in 元: always 2 places (1,234.50). One argument: a table's `render`. */
export const moneyText = (value: unknown) => numberText(value, MONEY);
