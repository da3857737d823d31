/** A LIKE/ILIKE pattern matching `text` anywhere, with `\`, `%` and `_` in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
