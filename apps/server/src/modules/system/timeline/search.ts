import {
  columnOf,
  type FieldDef,
  RESOURCES,
  type ResourceDef,
  recordLink,
  stateLabel,
} from '@ringmes/domain';
import { type Expression, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../../platform/auth/sessions.ts';
import type { Db } from '../../../platform/db/db.ts';
import { caseless, contains } from '../../../platform/db/like.ts';
import { type App, route } from '../../../platform/http/route.ts';
import { refTarget, targetOfResource } from '../../../platform/resource/refs.ts';
import { inScope } from '../../../platform/resource/scope.ts';
import { mayList } from './access.ts';

/**
 * 全局搜索 (Ctrl+K, issue 41 §2): documents by number and master records by code or name, across
 * every declared resource the user may read, as he types. One statement: per resource a
 * contains-match on its number/code (and name) limited to its newest few, served by the trigram
 * indexes of migrations 0032 and 0073, kept to the user's scope and owner rules (`inScope`, as
 * its list is), glued by UNION ALL; exact and prefix matches rank first. Menu pages are searched
 * in the browser, from the user's own menu.
 */

/** How many hits per resource, and in all. */
const PER_RESOURCE = 5;
const MAX_HITS = 20;
/** The palette asks from two characters on. */
const MIN_FRAGMENT = 2;
/** A document number fragment shorter than this finds no trigram and would scan every document. */
const MIN_NUMBER_FRAGMENT = 3;

interface Target {
  def: ResourceDef;
  /** The number or code column. */
  code?: string;
  /** The name column, when it is text and not the code. */
  name?: string;
  /** Numbered documents: searched from three characters on. */
  numbered: boolean;
  /** A document's first required reference (its customer, supplier, material) shown as its name. */
  summary?: FieldDef;
}

const isText = (def: ResourceDef, name: string | undefined) =>
  !!name && def.fields.some((f) => f.name === name && (f.kind === 'text' || f.kind === 'textarea'));

/** The resources searched: those with a list page and a number, code or name. */
const TARGETS: Target[] = RESOURCES.flatMap((def): Target[] => {
  if (!def.route) return [];
  const t = targetOfResource(def);
  const codeField = def.codeField ?? (def.fields.some((f) => f.name === 'code') ? 'code' : undefined);
  const labelField = def.labelField ?? 'name';
  const code = isText(def, codeField) ? t.code : undefined;
  const name = labelField !== codeField && isText(def, labelField) ? t.label : undefined;
  if (!code && !name) return [];
  const numbered = Boolean(def.numbering) || codeField === 'docNo' || codeField === 'taskNo';
  const summary = numbered
    ? def.fields.find((f) => f.kind === 'ref' && f.required && f.ref !== 'user' && f.ref !== 'dept')
    : undefined;
  return [{ def, code, name, numbered, summary }];
});

const CJK = /[\u3400-\u9fff]/;
/** A fragment typed like a document number: printable ASCII, no space. */
const NUMBER_LIKE = /^[\x21-\x7e]+$/;

/** `column` starts with `text`, case-insensitively where it has case. */
function startsWith(column: Expression<unknown>, text: string): RawBuilder<boolean> {
  const pattern = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return caseless(text) ? sql<boolean>`${column} LIKE ${pattern}` : sql<boolean>`${column} ILIKE ${pattern}`;
}

export interface SearchHit {
  resource: string;
  resourceLabel: string;
  id: number;
  code: string | null;
  name: string | null;
  state: string | null;
  link: string | null;
}

const hitSchema = z.object({
  resource: z.string(),
  resourceLabel: z.string().describe('单据或档案类型：销售订单、物料…'),
  id: z.number().int(),
  code: z.string().nullable().describe('单号或编码'),
  name: z.string().nullable().describe('名称（单据为其客户、供应商或物料）'),
  state: z.string().nullable().describe('单据状态'),
  link: z.string().nullable().describe('在系统中打开它的页面地址'),
});

/** The hits for a fragment, best first: an exact number or code, then one that starts with it, then the rest, newest first. */
export async function searchRecords(db: Db, user: AuthUser, text: string): Promise<SearchHit[]> {
  const q = text.trim();
  // One character finds too much to mean anything, and costs a scan of the big master tables.
  if ([...q].length < MIN_FRAGMENT) return [];
  const short = [...q].length < MIN_NUMBER_FRAGMENT;
  const branches: RawBuilder<unknown>[] = [];
  const used: Target[] = [];
  for (const target of TARGETS) {
    if (!mayList(user, target.def)) continue;
    // A short fragment searches names and codes, not document numbers.
    const skipCode = target.numbered && short;
    const columns = [skipCode ? undefined : target.code, target.name].filter((c): c is string => Boolean(c));
    if (!columns.length) continue;
    const i = used.length;
    used.push(target);
    const { def } = target;
    const s = target.summary && refTarget(target.summary);
    const base = db.selectFrom(`${def.table} as t`).select([
      sql<number>`${sql.lit(i)}::int`.as('target'),
      't.id',
      (target.code ? sql`${sql.ref(`t.${target.code}`)}::text` : sql`NULL::text`).as('code'),
      (target.name
        ? sql`${sql.ref(`t.${target.name}`)}::text`
        : s && target.summary
          ? sql`(SELECT ${sql.ref(`s.${s.label}`)}::text FROM ${sql.table(s.table)} s
                    WHERE s.id = ${sql.ref(`t.${columnOf(target.summary.name)}`)})`
          : sql`NULL::text`
      ).as('name'),
      (def.lifecycle ? sql`t.status::text` : sql`NULL::text`).as('status'),
    ]);
    const matches = sql<boolean>`(${sql.join(
      columns.map((c) =>
        // Two characters hold no trigram: codes, and names typed in letters, by their start
        // (the trigram index serves a prefix), Chinese names anywhere in them.
        short && (c === target.code || !CJK.test(q))
          ? startsWith(sql.ref(`t.${c}`), q)
          : contains(sql.ref(`t.${c}`), q),
      ),
      sql` OR `,
    )})`;
    // A number typed from its start (SC2024…) may match a hundred thousand documents, and their
    // newest five by contains-match read them all. Its prefix is read from the number's own
    // C-collated index instead (migration 0076), highest numbers first; other contains-matches
    // are added only when fewer than five numbers start with it (counted without the user's
    // scope: a scoped user may then see fewer than five).
    if (target.numbered && target.code && !short && NUMBER_LIKE.test(q)) {
      const codeC = sql`${sql.ref(`t.${target.code}`)} COLLATE "C"`;
      const pattern = `${q.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const starts = sql<boolean>`${codeC} LIKE ${pattern}`;
      const first = inScope(base.where(starts), user, def, 'list').orderBy(codeC, 'desc').limit(PER_RESOURCE);
      const few = sql<boolean>`(SELECT count(*) FROM (SELECT 1 FROM ${sql.table(def.table)} p
                   WHERE p.${sql.ref(target.code)} COLLATE "C" LIKE ${pattern} LIMIT ${PER_RESOURCE}) x) < ${PER_RESOURCE}`;
      const others = inScope(
        base.where(matches).where(sql<boolean>`NOT (${starts})`).where(few),
        user,
        def,
        'list',
      )
        .orderBy('t.id', 'desc')
        .limit(PER_RESOURCE);
      branches.push(
        sql`SELECT * FROM (SELECT * FROM ((${first}) UNION ALL (${others})) AS u LIMIT ${PER_RESOURCE}) AS ${sql.ref(`b${i}`)}`,
      );
      continue;
    }
    const query = inScope(base.where(matches), user, def, 'list');
    branches.push(
      sql`SELECT * FROM ${query.orderBy('t.id', 'desc').limit(PER_RESOURCE)} AS ${sql.ref(`b${i}`)}`,
    );
  }
  if (!branches.length) return [];
  const rows = (
    await sql<{
      target: number;
      id: number;
      code: string | null;
      name: string | null;
      status: string | null;
    }>`
      ${sql.join(branches, sql` UNION ALL `)}`.execute(db)
  ).rows;
  const lower = q.toLowerCase();
  const rank = (r: { code: string | null; name: string | null }) => {
    const values = [r.code, r.name].map((v) => (v ?? '').toLowerCase());
    if (values.includes(lower)) return 0;
    if (values.some((v) => v.startsWith(lower))) return 1;
    return 2;
  };
  return rows
    .map((r, order) => ({ r, order, rank: rank(r) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, MAX_HITS)
    .map(({ r }) => {
      const { def } = used[Number(r.target)];
      const id = Number(r.id);
      return {
        resource: def.name,
        resourceLabel: def.label,
        id,
        code: r.code,
        name: r.name,
        state: def.lifecycle && r.status ? stateLabel(def.lifecycle, r.status) : null,
        link: recordLink(def, id, r.code ?? r.name) ?? null,
      };
    });
}

export function searchRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/search',
    permission: 'authenticated',
    query: z.strictObject({
      q: z
        .string({ error: '请输入要搜索的内容' })
        .trim()
        .min(1, '请输入要搜索的内容')
        .max(50, '搜索内容不能超过 50 个字符'),
    }),
    response: z.object({ hits: z.array(hitSchema) }),
    async handler({ query, user, app: { db } }) {
      return { hits: await searchRecords(db, user, query.q) };
    },
  });
}
