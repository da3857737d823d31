import { type FieldDef, maySeeField, type ResourceDef, refLabelKey, stateLabel } from '@ringmes/domain';
import { sql } from 'kysely';
import { type AuthUser, can } from '../../../platform/auth/sessions.ts';
import type { Db } from '../../../platform/db/db.ts';
import { refTarget } from '../../../platform/resource/refs.ts';
import type { RecordHead } from './access.ts';

/**
 * A record's history from the audit log, in the declaration's words: who, when, what (创建, 修改,
 * a transition's label such as 审核 or 关闭), the fields changed from → to with their Chinese labels
 * and values as users see them (an option's label, a reference's name, 是/否), a state change with
 * its reason and the transition's inputs.
 */

export interface FieldChange {
  field: string;
  label: string;
  from: string;
  to: string;
}

export interface HistoryEntry {
  kind: 'history';
  id: number;
  at: Date;
  userId: number | null;
  userName: string | null;
  action: string;
  actionLabel: string;
  changes: FieldChange[];
  fromState: string | null;
  toState: string | null;
  reason: string | null;
}

/** Actions written by the kit and commands that are not transitions of the declaration. */
const ACTION_LABELS: Record<string, string> = {
  create: '创建',
  update: '修改',
  delete: '删除',
  import: '导入',
  post: '过账',
  reverse: '冲销',
  release: '下达',
  dispatch: '派单',
  split: '拆分',
  close: '关闭',
};

/** At most this many audit rows per record, the newest (a busy record's timeline stays one page). */
export const HISTORY_LIMIT = 200;

interface AuditRow {
  id: number;
  action: string;
  beforeData: Record<string, unknown> | null;
  afterData: Record<string, unknown> | null;
  userId: number | null;
  userName: string | null;
  at: Date;
}

export async function historyOf(
  db: Db,
  user: AuthUser,
  def: ResourceDef,
  head: RecordHead,
  timeZone: string,
): Promise<HistoryEntry[]> {
  const rows = (
    await sql<AuditRow>`
      SELECT a.id, a.action, a.before_data, a.after_data, a.user_id,
             coalesce(nullif(u.first_name, ''), a.user_name) AS user_name, a.at
        FROM audit_log a LEFT JOIN app_user u ON u.id = a.user_id
       WHERE a.entity = ${def.name} AND a.entity_id = ${String(head.id)}
       ORDER BY a.at DESC, a.id DESC
       LIMIT ${HISTORY_LIMIT}`.execute(db)
  ).rows;
  const has = (p: string) => can(user, p);
  const visible = def.fields.filter((f) => !f.hidden && maySeeField(has, user.id, def, f, head));
  const names = await referenceNames(db, visible, rows);
  const format = valueFormatter(names, timeZone);
  return rows.map((r) => {
    const before = r.beforeData ?? {};
    const after = r.afterData ?? {};
    const transition = def.lifecycle?.transitions.find((t) => t.name === r.action);
    const changes: FieldChange[] = [];
    if (r.action === 'update') {
      for (const f of visible) {
        if (!(f.name in after) || f.name === 'status') continue;
        const from = format(f, before[f.name], before[refLabelKey(f)]);
        const to = format(f, after[f.name]);
        if (!same(f, before[f.name], after[f.name]) && (from !== to || f.kind === 'json'))
          changes.push({ field: f.name, label: f.label, from, to });
      }
      for (const line of def.lines ?? []) {
        const next = after[line.name];
        if (!Array.isArray(next)) continue;
        const prev = Array.isArray(before[line.name]) ? (before[line.name] as unknown[]).length : 0;
        changes.push({ field: line.name, label: line.label, from: `${prev} 行`, to: `${next.length} 行` });
      }
    }
    for (const f of transition?.input ?? []) {
      if (after[f.name] === undefined || after[f.name] === null) continue;
      changes.push({ field: f.name, label: f.label, from: '', to: format(f, after[f.name]) });
    }
    const lifecycle = def.lifecycle;
    const fromStatus = typeof before.status === 'string' ? before.status : null;
    const toStatus = typeof after.status === 'string' ? after.status : null;
    const moved = lifecycle && toStatus && (transition || fromStatus !== toStatus);
    return {
      kind: 'history' as const,
      id: Number(r.id),
      at: r.at,
      userId: r.userId === null ? null : Number(r.userId),
      userName: r.userName,
      action: r.action,
      actionLabel: transition?.label ?? ACTION_LABELS[r.action] ?? r.action,
      changes,
      fromState: moved && fromStatus ? stateLabel(lifecycle, fromStatus) : null,
      toState: moved ? stateLabel(lifecycle, toStatus) : null,
      reason: typeof after.reason === 'string' && after.reason ? after.reason : null,
    };
  });
}

/** Two stored values of a field equal as the user sees them (`10` and `"10.0000"`). */
function same(f: FieldDef, a: unknown, b: unknown): boolean {
  if ((a ?? '') === '' && (b ?? '') === '') return true;
  if (['int', 'decimal', 'quantity', 'money', 'price'].includes(f.kind))
    return a !== null && b !== null && a !== undefined && b !== undefined && Number(a) === Number(b);
  if (f.kind === 'refs' || f.kind === 'json') return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return String(a ?? '') === String(b ?? '');
}

type Names = Map<string, Map<number, string>>;

/** The names of every record the history's reference fields point at, one query per target. */
async function referenceNames(db: Db, fields: FieldDef[], rows: AuditRow[]): Promise<Names> {
  const names: Names = new Map();
  for (const f of fields) {
    if (f.kind !== 'ref' && f.kind !== 'refs') continue;
    const ids = new Set<number>();
    for (const r of rows)
      for (const side of [r.beforeData, r.afterData]) {
        const v = side?.[f.name];
        for (const id of Array.isArray(v) ? v : [v])
          if (Number.isSafeInteger(Number(id)) && id !== null) ids.add(Number(id));
      }
    if (!ids.size) continue;
    const t = refTarget(f);
    const key = `${t.table}.${t.label}`;
    const known = names.get(key) ?? new Map<number, string>();
    const found = await sql<{ id: number; label: string | null }>`
      SELECT id, ${sql.ref(t.label)}::text AS label FROM ${sql.table(t.table)}
       WHERE id = ANY(${sql.val([...ids])}::bigint[])`.execute(db);
    for (const r of found.rows) known.set(Number(r.id), r.label ?? `#${r.id}`);
    names.set(key, known);
  }
  return names;
}

/** A stored value as the user reads it on the record's detail. */
function valueFormatter(names: Names, timeZone: string) {
  const time = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const nameOf = (f: FieldDef, id: unknown) => {
    const t = refTarget(f);
    return names.get(`${t.table}.${t.label}`)?.get(Number(id)) ?? `#${id}`;
  };
  return (f: FieldDef, v: unknown, storedLabel?: unknown): string => {
    if (v === null || v === undefined || v === '') return '';
    switch (f.kind) {
      case 'enum':
        return f.options?.find((o) => o.value === String(v))?.label ?? String(v);
      case 'boolean':
        return v === true || v === 'true' || v === 1 ? '是' : '否';
      case 'ref':
        return typeof storedLabel === 'string' && storedLabel ? storedLabel : nameOf(f, v);
      case 'refs':
        return Array.isArray(v) ? v.map((id) => nameOf(f, id)).join('、') : String(v);
      case 'datetime': {
        const d = new Date(String(v));
        return Number.isNaN(d.getTime()) ? String(v) : time.format(d);
      }
      case 'json':
        return '（已修改）';
      case 'int':
      case 'decimal':
      case 'quantity':
      case 'money':
      case 'price': {
        const n = String(v);
        return n.includes('.') ? n.replace(/\.?0+$/, '') : n;
      }
      default:
        return String(v);
    }
  };
}
