import {
  allScopePrefixes,
  exactlyInUnit,
  mayAct,
  type ResourceDef,
  stockInboundResource,
  stockOutboundResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { containsAny } from '../../platform/db/like.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { optionQueryFields, REMOTE_OPTIONS_LIMIT } from '../../platform/resource/options.ts';
import { pickerOf, type StockKind } from './sources.ts';

/**
 * The order pickers of the inbound and outbound forms (采购入库 choosing its 采购订单, 委外发料
 * its 委外订单…): the orders a document of a type can be made against, and what is open on each
 * of an order's lines, ready to become the document's lines. Whoever may write documents of the
 * type reads them — a 仓管员 receiving against purchase orders needs no read permission on them —
 * and sees no price.
 */

const KINDS: { kind: StockKind; def: ResourceDef }[] = [
  { kind: 'inbound', def: stockInboundResource },
  { kind: 'outbound', def: stockOutboundResource },
];

const type = z.string({ error: '请指定出入库类型' }).trim().min(1, '请指定出入库类型').max(30);

const ordersQuery = z.strictObject({
  type,
  keyword: optionQueryFields.keyword,
  ids: optionQueryFields.ids,
  /** The party (supplier) the form has chosen. */
  partyId: zx.id.optional(),
});

/** The picker of `type`, once the user may add or edit documents of that type. */
function pickerFor(def: ResourceDef, kind: StockKind, type: string, user: AuthUser) {
  const found = pickerOf(kind, type);
  const typeLabel = def.fields.find((f) => f.name === 'type')?.options?.find((o) => o.value === type)?.label;
  if (!found || !typeLabel) {
    throw badRequest(`${typeLabel ?? type}不按订单收发，没有可选的订单`, [
      { field: 'type', message: '该出入库类型没有可选的订单' },
    ]);
  }
  const has = (p: string) => can(user, p);
  if (!mayAct(has, def, 'add', type) && !mayAct(has, def, 'edit', type)) throw forbidden();
  return { ...found, typeLabel };
}

/** An order as a picker option: `label` is its number and party. */
interface SourceOrder {
  id: number;
  value: number;
  label: string;
  docNo: string;
  status: string;
  orderDate: string;
  partyId: number;
  partyName: string;
}

async function sourceOrders(
  db: Db,
  found: NonNullable<ReturnType<typeof pickerOf>>,
  q: z.infer<typeof ordersQuery>,
): Promise<SourceOrder[]> {
  const { picker, rule } = found;
  const product = picker.productColumn;
  const where = q.ids
    ? sql`o.id = ANY(${sql.val(q.ids)}::bigint[])`
    : sql.join(
        [
          sql`o.status IN (${sql.join(rule.states.map((s) => sql`${s}`))})`,
          sql`EXISTS (SELECT 1 FROM ${sql.table(picker.lineTable)} l
                       WHERE ${sql.ref(`l.${picker.parentColumn}`)} = o.id AND (${rule.open}) > 0)`,
          q.partyId ? sql`${sql.ref(`o.${picker.party.column}`)} = ${q.partyId}` : sql`true`,
          q.keyword
            ? containsAny(['o.doc_no', 'p.name', ...(product ? ['pm.code', 'pm.name'] : [])], q.keyword)
            : sql`true`,
        ],
        sql` AND `,
      );
  const date = sql.ref(`o.${picker.dateColumn ?? 'order_date'}`);
  const r = await sql<Omit<SourceOrder, 'value' | 'label'> & { productName?: string }>`
    SELECT o.id, o.doc_no, o.status, to_char(${date}, 'YYYY-MM-DD') AS order_date,
           ${sql.ref(`o.${picker.party.column}`)} AS party_id, p.name AS party_name
           ${product ? sql`, concat_ws(' ', pm.name, pm.spec) AS product_name` : sql``}
      FROM ${sql.table(picker.table)} o
      LEFT JOIN ${sql.table(picker.party.table)} p ON p.id = ${sql.ref(`o.${picker.party.column}`)}
      ${product ? sql`LEFT JOIN material pm ON pm.id = ${sql.ref(`o.${product}`)}` : sql``}
     WHERE ${where}
     ORDER BY ${date} DESC, o.id DESC
     LIMIT ${REMOTE_OPTIONS_LIMIT}`.execute(db);
  return r.rows.map(({ productName, ...o }) => {
    const name = productName ? `${o.docNo} ${productName}` : o.docNo;
    return { ...o, value: Number(o.id), label: o.partyName ? `${name}（${o.partyName}）` : name };
  });
}

/** One open order line as a document line: the order's unit where the open quantity is whole in it (fits its precision), else the base unit. */
interface SourceLine {
  sourceLineId: number;
  lineNo: number;
  materialId: number;
  materialName: string;
  materialCode: string;
  unitId: number | null;
  unitName: string | null;
  /** The open quantity in `unitId`. */
  quantity: string;
  /** The open quantity in the base unit. */
  baseQuantity: string;
}

async function sourceLines(
  db: Db,
  found: ReturnType<typeof pickerFor>,
  orderId: number,
): Promise<Omit<SourceOrder, 'value' | 'label'> & { lines: SourceLine[] }> {
  const { source, picker, rule, typeLabel } = found;
  const head = await sql<Omit<SourceOrder, 'value' | 'label'>>`
    SELECT o.id, o.doc_no, o.status, to_char(${sql.ref(`o.${picker.dateColumn ?? 'order_date'}`)}, 'YYYY-MM-DD') AS order_date,
           ${sql.ref(`o.${picker.party.column}`)} AS party_id, p.name AS party_name
      FROM ${sql.table(picker.table)} o
      LEFT JOIN ${sql.table(picker.party.table)} p ON p.id = ${sql.ref(`o.${picker.party.column}`)}
     WHERE o.id = ${orderId}`.execute(db);
  const order = head.rows[0];
  if (!order) throw notFound(`${source.label}不存在或已被删除`);
  if (!rule.states.includes(order.status)) {
    const state = picker.lifecycle.states.find((s) => s.value === order.status)?.label ?? order.status;
    throw conflict(`${source.label} ${order.docNo} ${state}，不能做${typeLabel}`);
  }
  const r = await sql<{
    sourceLineId: number;
    lineNo: number;
    materialId: number;
    materialName: string;
    materialCode: string;
    unitId: number | null;
    unitName: string | null;
    unitPrecision: number | null;
    baseUnitId: number | null;
    baseUnitName: string | null;
    unitQuantity: string | null;
    baseQuantity: string | null;
    open: string;
  }>`
    SELECT l.id AS source_line_id, l.line_no, l.material_id, m.name AS material_name, m.code AS material_code,
           l.unit_id, u.name AS unit_name, u.precision AS unit_precision, m.unit_id AS base_unit_id,
           bu.name AS base_unit_name, c.unit_quantity::text AS unit_quantity, c.base_quantity::text AS base_quantity,
           (${rule.open})::text AS open
      FROM ${sql.table(picker.lineTable)} l
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = l.unit_id
      LEFT JOIN material_unit bu ON bu.id = m.unit_id
      LEFT JOIN material_unit_conversion c ON c.material_id = l.material_id AND c.unit_id = l.unit_id
     WHERE ${sql.ref(`l.${picker.parentColumn}`)} = ${orderId} AND (${rule.open}) > 0
     ORDER BY l.line_no, l.id`.execute(db);
  const lines = r.rows.map((l) => {
    const open = new Decimal(l.open);
    const base = {
      sourceLineId: Number(l.sourceLineId),
      lineNo: l.lineNo,
      materialId: Number(l.materialId),
      materialName: l.materialName,
      materialCode: l.materialCode,
      baseQuantity: open.toFixed(4),
    };
    // In the order's unit when the open quantity is an exact quantity of it that fits the unit's
    // precision (0.75 箱 open is proposed as 75 kg: the line would not save), by the exact ratio.
    if (
      l.unitId != null &&
      Number(l.unitId) !== Number(l.baseUnitId) &&
      l.unitQuantity != null &&
      l.baseQuantity != null
    ) {
      const ratio = { unitQuantity: l.unitQuantity, baseQuantity: l.baseQuantity };
      const inUnit = exactlyInUnit(open, ratio, l.unitPrecision ?? 4);
      if (inUnit !== null) {
        return {
          ...base,
          unitId: Number(l.unitId),
          unitName: l.unitName,
          quantity: new Decimal(inUnit).toFixed(4),
        };
      }
    }
    return {
      ...base,
      unitId: l.baseUnitId == null ? null : Number(l.baseUnitId),
      unitName: l.baseUnitName,
      quantity: open.toFixed(4),
    };
  });
  return { ...order, lines };
}

const sourceOrderAnswer = {
  id: z.number().int(),
  docNo: z.string(),
  status: z.string(),
  orderDate: z.string().nullable(),
  partyId: z.number().int().nullable(),
  partyName: z.string().nullable(),
};
const sourceOrdersAnswer = z.array(
  z.object({ ...sourceOrderAnswer, value: z.number().int(), label: z.string() }),
);
const sourceLinesAnswer = z.object({
  ...sourceOrderAnswer,
  lines: z.array(
    z.object({
      sourceLineId: z.number().int(),
      lineNo: z.number().int(),
      materialId: z.number().int(),
      materialName: z.string(),
      materialCode: z.string(),
      unitId: z.number().int().nullable(),
      unitName: z.string().nullable(),
      quantity: z.string(),
      baseQuantity: z.string(),
    }),
  ),
});

export function sourcePickerRoutes(app: App) {
  for (const { kind, def } of KINDS) {
    const writers = [def.permission, ...allScopePrefixes(def)].flatMap((p) => [
      `${p}:add` as Permission,
      `${p}:edit` as Permission,
    ]);
    const gate = { permission: writers[0], alsoAllowedBy: [...new Set(writers.slice(1))] };
    route(app, {
      method: 'GET',
      url: `/api/v1/${def.name}/source-orders`,
      ...gate,
      query: ordersQuery,
      response: sourceOrdersAnswer,
      handler: ({ query, user, app: { db } }) =>
        sourceOrders(db, pickerFor(def, kind, query.type, user), query),
    });
    route(app, {
      method: 'GET',
      url: `/api/v1/${def.name}/source-lines/:id`,
      ...gate,
      params: idParams,
      query: z.strictObject({ type }),
      response: sourceLinesAnswer,
      handler: ({ params, query, user, app: { db } }) =>
        sourceLines(db, pickerFor(def, kind, query.type, user), params.id),
    });
  }
}
