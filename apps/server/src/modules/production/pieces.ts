import { sql } from 'kysely';

/**
 * What a work report (or a card step) takes from the pieces that arrived at its step: good + 工废
 * + 料废; rework stays at the step. The one SQL spelling of the rule, over the columns of `alias`
 * (a name written in the code) or unqualified, in parentheses.
 */
export function taken(alias?: string) {
  const a = alias ? `${alias}.` : '';
  return sql.raw(`(${a}good_quantity + ${a}work_scrap_quantity + ${a}material_scrap_quantity)`);
}
