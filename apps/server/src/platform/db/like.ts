import { type Expression, type RawBuilder, sql } from 'kysely';

/** A LIKE/ILIKE pattern matching `text` anywhere, with `\`, `%` and `_` in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` contains `text`, case-insensitively (ILIKE). A fragment without a character that has
 * case (Chinese, digits, punctuation) matches the same rows by plain LIKE, which does not
 * lower-case every value it tests (bench master-list: the materials' contains-filter). The trigram
 * indexes serve both.
 */
export function contains(column: Expression<unknown>, text: string): RawBuilder<boolean> {
  const pattern = containsPattern(text);
  return caseless(text) ? sql<boolean>`${column} LIKE ${pattern}` : sql<boolean>`${column} ILIKE ${pattern}`;
}

/** Any of `columns` (references such as `t.name`) contains `text`: `(a LIKE p OR b LIKE p …)`. */
export function containsAny(columns: readonly string[], text: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(
    columns.map((c) => contains(sql.ref(c), text)),
    sql` OR `,
  )})`;
}

/**
 * No character of `text` changes under upper- or lower-casing, nor is a combining mark (which
 * lower-casing can produce: İ → i + U+0307).
 */
export function caseless(text: string): boolean {
  for (const c of text) {
    if (c.toLowerCase() !== c || c.toUpperCase() !== c || /\p{M}/u.test(c)) return false;
  }
  return true;
}
