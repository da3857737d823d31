import {
  allPermissions,
  FLOW_CARD_LIFECYCLE,
  flowCardResource,
  MENU_TREE,
  PRODUCTION_ORDER_LIFECYCLE,
  stateLabel,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { containsAny } from '../../platform/db/like.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { badRequest, conflict, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { nextDocNoOf } from '../../platform/numbering.ts';
import { getRecord } from '../../platform/resource/crud.ts';
import type { TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { alsoReadBy } from '../../platform/resource/options.ts';
import { assertPrecision } from '../../platform/resource/precision.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { qty } from '../orders/order-lines.ts';
import { drawingFileRoute, drawingLinkFor } from '../technology/technical-document.ts';
import { heatsOf, linkAssembly } from './assembly-link.ts';
import { recountSaleOrderCards, refreshFlowCardSummary, saleOrdersOfCards } from './report-rollup.ts';

/**
 * 流转卡 (process flow cards) `LZ…`: one batch of a production order travelling its frozen route,
 * one `flow_card_step` row per order step.
 *  - 开卡 cuts the order's uncovered quantity into batches (the last takes the remainder);
 *  - 拆分 ends a card as `split` and gives its pieces to new cards (200 → 120 + 80);
 *  - 合并 ends cards of one order waiting at the same step as `merged` in one new card.
 * Split and merge need the current step not started (no 进站, nothing reported, nothing sent out),
 * and copy the remaining steps (the current one and after) to the new cards; the finished steps
 * stay on the ancestors, which the genealogy graph (`flow_card_link`) reaches.
 * Report posting (a later module) reads and locks a card's step through `lockCardStep`.
 */

/** At most this many cards from one 开卡. */
export const MAX_CARDS_PER_OPEN = 500;
/** Deeper than this the genealogy is cut off (a real one is a handful of generations). */
const MAX_DEPTH = 100;

/**
 * Who may read cards: the planners (production order list), the card reports, every workshop's
 * task, operator and report pages (an operator scans a card at the machine), the inspection
 * pages (an inspector names the card he inspects) and measurement entry (a subgroup names the
 * card of its rings). Their options too.
 */
export const FLOW_CARD_READERS: Permission[] = allPermissions(MENU_TREE).filter(
  (p) =>
    p === 'production:flowCard:query' ||
    /^production:\w+(Task|OperatorTask|Report|Semi):list$/.test(p) ||
    /^quality:\w+:list$/.test(p) ||
    /^measure:\w+:(list|add)$/.test(p),
) as Permission[];
alsoReadBy('flow-card', FLOW_CARD_READERS);

const OPEN_ORDER_STATES = ['released', 'producing'];

export interface OpenOptions {
  user?: AuthUser;
  heatNo?: string | null;
  partName?: string | null;
  /** The instant the cards are numbered by (the demo dates them by the order's release). */
  at?: Date;
  requestId?: string;
}

interface NewCard {
  orderId: number;
  productId: number;
  partName: string | null;
  quantity: string;
  heatNo: string | null;
  currentSeq: number;
  origin: 'open' | 'split' | 'merge';
  remark: string | null;
}

async function insertCard(db: Db, user: AuthUser | undefined, c: NewCard, at?: Date) {
  const docNo = await nextDocNoOf(db, flowCardResource, at);
  const r = await sql<{ id: number }>`
    INSERT INTO flow_card (doc_no, status, production_order_id, product_id, part_name, quantity, heat_no,
                           current_seq, origin, remark, created_by, updated_by)
    VALUES (${docNo}, 'open', ${c.orderId}, ${c.productId}, ${c.partName}, ${c.quantity}, ${c.heatNo},
            ${c.currentSeq}, ${c.origin}, ${c.remark}, ${user?.id ?? null}, ${user?.id ?? null})
    RETURNING id`.execute(db);
  return { id: Number(r.rows[0].id), docNo, quantity: qty(c.quantity) };
}

/** A card's step rows from seq `fromSeq` on, copied from card `source` (or fresh from the order's route). */
async function insertSteps(
  db: Db,
  cardId: number,
  from: { orderId: number } | { cardId: number },
  fromSeq: number,
  input: string,
) {
  if ('orderId' in from) {
    await sql`
      INSERT INTO flow_card_step (flow_card_id, line_no, order_step_id, seq, process_id, workshop_id, outsourced,
                                  inspection_required, input_quantity)
      SELECT ${cardId}, row_number() OVER (ORDER BY s.seq), s.id, s.seq, s.process_id, s.workshop_id, s.outsourced,
             s.inspection_required, CASE WHEN s.seq = ${fromSeq} THEN ${input}::numeric ELSE 0 END
        FROM production_order_step s
       WHERE s.production_order_id = ${from.orderId} AND s.seq >= ${fromSeq}`.execute(db);
    await refreshFlowCardSummary(db, [cardId]);
    return;
  }
  await sql`
    INSERT INTO flow_card_step (flow_card_id, line_no, order_step_id, seq, process_id, workshop_id, outsourced,
                                inspection_required, in_time, out_time, input_quantity, good_quantity,
                                work_scrap_quantity, material_scrap_quantity, rework_quantity, operator_id,
                                equipment_id, inspection_result, sent_quantity, sent_weight, supplier_id,
                                returned_quantity, hardness_hrc)
    SELECT ${cardId}, row_number() OVER (ORDER BY s.seq), s.order_step_id, s.seq, s.process_id, s.workshop_id,
           s.outsourced, s.inspection_required, s.in_time, s.out_time,
           CASE WHEN s.seq = ${fromSeq} THEN ${input}::numeric ELSE s.input_quantity END, s.good_quantity,
           s.work_scrap_quantity, s.material_scrap_quantity, s.rework_quantity, s.operator_id, s.equipment_id,
           s.inspection_result, s.sent_quantity, s.sent_weight, s.supplier_id, s.returned_quantity, s.hardness_hrc
      FROM flow_card_step s
     WHERE s.flow_card_id = ${from.cardId} AND s.seq >= ${fromSeq}`.execute(db);
  await refreshFlowCardSummary(db, [cardId]);
}

// ------------------------------------------------------------------ 开卡

/**
 * 开卡: cards for what of a released (or producing) order no card covers yet, `batchSize` each and
 * the last with the remainder, each with one step row per order step and the first step's input
 * equal to the card's quantity. The order row is locked, so two planners opening at once never
 * cover the order twice. Closed cards no longer cover their quantity.
 */
export async function openFlowCards(
  db: Db,
  orderId: number,
  batchSize: Decimal.Value,
  opts: OpenOptions = {},
) {
  const batch = new Decimal(batchSize);
  if (!batch.isFinite() || batch.lte(0)) throw fieldError('batchSize', '每卡数量必须大于 0');
  const o = (
    await sql<{ id: number; docNo: string; status: string; productId: number; quantity: string }>`
      SELECT id, doc_no, status, product_id, quantity::text AS quantity
        FROM production_order WHERE id = ${orderId} FOR UPDATE`.execute(db)
  ).rows[0];
  if (!o) throw notFound('生产订单不存在或已被删除');
  // A card counts pieces of the product: 100.5 套 a card is refused (the last card takes the
  // remainder, whole when the order's quantity is).
  await assertPrecision(db, [
    { field: 'batchSize', label: '每卡数量', quantity: batch.toString(), materialId: Number(o.productId) },
  ]);
  if (!OPEN_ORDER_STATES.includes(o.status)) {
    throw badRequest(
      `生产订单 ${o.docNo} 当前为「${stateLabel(PRODUCTION_ORDER_LIFECYCLE, o.status)}」，只有已下达或生产中的订单可以开卡`,
    );
  }
  const covered = (
    await sql<{ q: string }>`
      SELECT COALESCE(sum(quantity), 0)::text AS q FROM flow_card
       WHERE production_order_id = ${orderId} AND origin = 'open' AND status <> 'closed'`.execute(db)
  ).rows[0].q;
  const remaining = new Decimal(o.quantity).minus(covered);
  if (remaining.lte(0)) {
    throw badRequest(`生产订单 ${o.docNo} 的流转卡已覆盖订单数量 ${qty(o.quantity)}，不能再开卡`);
  }
  const count = remaining.div(batch).ceil().toNumber();
  if (count > MAX_CARDS_PER_OPEN) {
    throw fieldError(
      'batchSize',
      `每卡数量过小：待开卡数量 ${qty(remaining)} 将开 ${count} 张卡，一次最多 ${MAX_CARDS_PER_OPEN} 张`,
    );
  }
  const first = (
    await sql<{ seq: number | null }>`
      SELECT min(seq) AS seq FROM production_order_step WHERE production_order_id = ${orderId}`.execute(db)
  ).rows[0]?.seq;
  if (first == null) throw badRequest(`生产订单 ${o.docNo} 没有冻结的工艺路线，不能开卡`);
  const cards: { id: number; docNo: string; quantity: string }[] = [];
  for (let i = 0; i < count; i++) {
    const quantity = Decimal.min(batch, remaining.minus(batch.times(i))).toString();
    const card = await insertCard(
      db,
      opts.user,
      {
        orderId,
        productId: Number(o.productId),
        partName: opts.partName ?? null,
        quantity,
        heatNo: opts.heatNo ?? null,
        currentSeq: Number(first),
        origin: 'open',
        remark: null,
      },
      opts.at,
    );
    await insertSteps(db, card.id, { orderId }, Number(first), quantity);
    cards.push(card);
  }
  // Rings issued before the cards were opened are theirs now (装配领用).
  await linkAssembly(db, orderId);
  await audit(
    db,
    opts.user,
    {
      entity: 'production-order',
      entityId: orderId,
      action: 'open-flow-cards',
      after: { batchSize: batch.toString(), heatNo: opts.heatNo ?? null, cards: cards.map((c) => c.docNo) },
    },
    opts.requestId,
  );
  return { orderId, docNo: o.docNo, cards };
}

// ------------------------------------------------------------------ card and step reads

interface CardRow {
  id: number;
  docNo: string;
  status: string;
  productionOrderId: number;
  productId: number;
  partName: string | null;
  quantity: string;
  heatNo: string | null;
  currentSeq: number | null;
  /** 质量暂扣 (检验不合格, SPC 失控): the card's pieces move nowhere until released. */
  held: boolean;
  holdReason: string | null;
}

export interface CardStep {
  id: number;
  flowCardId: number;
  orderStepId: number;
  seq: number;
  processId: number;
  workshopId: number | null;
  outsourced: boolean;
  inspectionRequired: boolean;
  inTime: Date | null;
  outTime: Date | null;
  inputQuantity: string;
  goodQuantity: string;
  workScrapQuantity: string;
  materialScrapQuantity: string;
  reworkQuantity: string;
  operatorId: number | null;
  equipmentId: number | null;
  inspectionResult: string | null;
  sentQuantity: string | null;
  sentWeight: string | null;
  supplierId: number | null;
  returnedQuantity: string | null;
  hardnessHrc: string | null;
}

async function lockCards(db: Db, ids: number[]): Promise<CardRow[]> {
  const r = await prepared(sql<CardRow>`
    SELECT id, doc_no, status, production_order_id, product_id, part_name, quantity::text AS quantity, heat_no,
           current_seq, held, hold_reason
      FROM flow_card WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY id FOR UPDATE`).execute(db);
  return r.rows.map((c) => ({ ...c, id: Number(c.id) }));
}

/** A card step's columns as read (`stepSelect`; `cardStepLock` answers them as `s_…`). */
const STEP_COLUMNS = [
  'id',
  'flow_card_id',
  'order_step_id',
  'seq',
  'process_id',
  'workshop_id',
  'outsourced',
  'inspection_required',
  'in_time',
  'out_time',
  'input_quantity',
  'good_quantity',
  'work_scrap_quantity',
  'material_scrap_quantity',
  'rework_quantity',
  'operator_id',
  'equipment_id',
  'inspection_result',
  'sent_quantity',
  'sent_weight',
  'supplier_id',
  'returned_quantity',
  'hardness_hrc',
];
/** Its numeric columns, read as text (exact decimals). */
const STEP_DECIMALS = new Set([
  'input_quantity',
  'good_quantity',
  'work_scrap_quantity',
  'material_scrap_quantity',
  'rework_quantity',
  'sent_quantity',
  'sent_weight',
  'returned_quantity',
  'hardness_hrc',
]);

/** The step's columns from `s` as `s_…` (`cardStepLock`). */
const STEP_AS_S = sql.raw(STEP_COLUMNS.map((k) => `s.${k} AS s_${k}`).join(', '));

const stepSelect = sql`
  SELECT ${sql.raw(STEP_COLUMNS.map((k) => (STEP_DECIMALS.has(k) ? `${k}::text AS ${k}` : k)).join(', '))}
    FROM flow_card_step`;

/**
 * The one hold guard (409): a held card (质量暂扣) takes no report, no 提交 or 入账 of one, and is
 * neither split nor merged until a passed inspection releases it. Called on the locked card row,
 * so a hold set at the same time waits for (or is seen by) the move.
 */
export function assertNotHeld(card: Pick<CardRow, 'docNo' | 'held' | 'holdReason'>, action = '转入下道工序') {
  if (card.held) {
    throw conflict(
      `流转卡 ${card.docNo} 已质量暂扣（${card.holdReason ?? '检验不合格'}），不能${action}；请返工后复检合格再流转`,
    );
  }
}

/**
 * The SELECT that locks card `cardId` (a value or a column of an enclosing query), then its step
 * row (`where`, over the step's columns and the card's `c.`), and answers one row: the card's
 * columns as `c_…`, the step's as `s_…` (`cardStepOf` reads it). `also`, a select expression, is
 * evaluated once both are locked (the posting's wage close lock).
 */
export function cardStepLock(cardId: unknown, where: RawBuilder<unknown>, also?: RawBuilder<unknown>) {
  return sql<Record<string, any>>`
    SELECT c.id AS c_id, c.doc_no AS c_doc_no, c.status AS c_status, c.production_order_id AS c_production_order_id,
           c.product_id AS c_product_id, c.part_name AS c_part_name, c.quantity::text AS c_quantity,
           c.heat_no AS c_heat_no, c.current_seq AS c_current_seq, c.held AS c_held, c.hold_reason AS c_hold_reason,
           ${also ?? sql`NULL`} AS lock_also, ${STEP_AS_S}
      FROM (SELECT * FROM flow_card WHERE id = ${cardId} FOR UPDATE) c
      LEFT JOIN LATERAL (${stepSelect} WHERE flow_card_id = c.id AND ${where} FOR UPDATE) s ON true`;
}

/** `key` without its one-letter prefix: cDocNo → docNo. */
const unprefixed = (key: string) => key.charAt(1).toLowerCase() + key.slice(2);

/**
 * The card and step of a `cardStepLock` row (camel-cased, maybe within a wider row). 404 when the
 * card or the step is not there; 409 unless the card is 在制 (a split, merged, closed or completed
 * card takes no reports) and not held (`assertNotHeld`).
 */
export function cardStepOf(row: Record<string, any> | undefined): { card: CardRow; step: CardStep } {
  if (row?.cId == null) throw notFound('流转卡不存在或已被删除');
  const part = (prefix: string) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([k]) => k.length > 1 && k[0] === prefix && k[1] >= 'A' && k[1] <= 'Z')
        .map(([k, v]) => [unprefixed(k), v]),
    );
  const card = { ...part('c'), id: Number(row.cId) } as CardRow;
  if (card.status !== 'open') {
    throw conflict(
      `流转卡 ${card.docNo} 当前为「${stateLabel(FLOW_CARD_LIFECYCLE, card.status)}」，不能报工`,
    );
  }
  if (row.sId == null) throw notFound(`流转卡 ${card.docNo} 没有该工序`);
  const step = part('s') as unknown as CardStep;
  assertNotHeld(card);
  return { card, step };
}

/**
 * For report posting: locks a card (then its step row) and answers both (`cardStepOf`). The step
 * is the card's current one unless `seq` or `orderStepId` names another.
 */
export async function lockCardStep(
  db: Db,
  cardId: number,
  which: { seq?: number; orderStepId?: number } = {},
): Promise<{ card: CardRow; step: CardStep }> {
  const where =
    which.orderStepId != null
      ? sql`order_step_id = ${which.orderStepId}`
      : sql`seq = COALESCE(${which.seq ?? null}::int, c.current_seq)`;
  const r = await prepared(cardStepLock(cardId, where)).execute(db);
  return cardStepOf(r.rows[0]);
}

/** Has the step begun: 进站, anything reported, or pieces sent to the supplier. */
const started = (s: CardStep) =>
  s.inTime != null ||
  [s.goodQuantity, s.workScrapQuantity, s.materialScrapQuantity, s.reworkQuantity, s.sentQuantity ?? 0].some(
    (q) => new Decimal(q).gt(0),
  );

/** A card that may be split or merged: 在制, its current step there and not begun. Answers that step. */
async function waitingStep(db: Db, card: CardRow, action: string): Promise<CardStep> {
  if (card.status !== 'open') {
    throw conflict(
      `流转卡 ${card.docNo} 当前为「${stateLabel(FLOW_CARD_LIFECYCLE, card.status)}」，不能${action}`,
    );
  }
  assertNotHeld(card, action);
  const step = (
    await sql<CardStep>`${stepSelect} WHERE flow_card_id = ${card.id} AND seq = ${card.currentSeq}`.execute(
      db,
    )
  ).rows[0];
  if (!step) throw conflict(`流转卡 ${card.docNo} 没有当前工序，不能${action}`);
  if (started(step)) throw conflict(`流转卡 ${card.docNo} 第 ${step.seq} 道工序已开工，不能${action}`);
  return step;
}

/** 反下达 of an order: refused while cards (not closed) travel its frozen route. */
export async function assertNoFlowCards(db: Db, orderId: number) {
  const r = await sql<{ docNo: string }>`
    SELECT doc_no FROM flow_card WHERE production_order_id = ${orderId} LIMIT 1`.execute(db);
  if (r.rows[0]) throw conflict(`订单已开流转卡（${r.rows[0].docNo}），不能反下达`);
}

// ------------------------------------------------------------------ 拆分 and 合并

async function endCards(db: Db, user: AuthUser, ids: number[], status: 'split' | 'merged') {
  await sql`
    UPDATE flow_card SET status = ${status}, updated_by = ${user.id}, updated_at = now(), version = version + 1
     WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  // Ended cards no longer count in their sales orders' 订单车间流转卡.
  await recountSaleOrderCards(db, saleOrdersOfCards(ids));
}

/** 拆分: the pieces waiting at the current step go to new cards, one per quantity; they must add up. */
export async function splitFlowCard(
  db: Db,
  user: AuthUser,
  cardId: number,
  quantities: string[],
  requestId?: string,
) {
  const [card] = await lockCards(db, [cardId]);
  if (!card) throw notFound('流转卡不存在或已被删除');
  await assertPrecision(
    db,
    quantities.map((q, i) => ({
      field: `quantities.${i}`,
      label: '拆分数量',
      quantity: q,
      materialId: card.productId,
    })),
  );
  const step = await waitingStep(db, card, '拆分');
  const total = quantities.reduce((s, q) => s.plus(q), new Decimal(0));
  if (!total.eq(step.inputQuantity)) {
    throw fieldError(
      'quantities',
      `拆分数量合计 ${qty(total)} 与卡上当前数量 ${qty(step.inputQuantity)} 不一致`,
    );
  }
  const children = [];
  for (const q of quantities) {
    const child = await insertCard(db, user, {
      orderId: card.productionOrderId,
      productId: card.productId,
      partName: card.partName,
      quantity: q,
      heatNo: card.heatNo,
      currentSeq: step.seq,
      origin: 'split',
      remark: `由 ${card.docNo} 拆分`,
    });
    await insertSteps(db, child.id, { cardId }, step.seq, q);
    await sql`INSERT INTO flow_card_link (parent_id, child_id, kind, quantity)
              VALUES (${cardId}, ${child.id}, 'split', ${q})`.execute(db);
    children.push(child);
  }
  await endCards(db, user, [cardId], 'split');
  await audit(
    db,
    user,
    {
      entity: 'flow-card',
      entityId: cardId,
      action: 'split',
      before: { status: 'open' },
      after: { status: 'split', children: children.map((c) => ({ docNo: c.docNo, quantity: c.quantity })) },
    },
    requestId,
  );
  return { parent: { id: cardId, docNo: card.docNo }, children };
}

/**
 * 合并: cards of one production order (so one product), all 在制 and waiting at the same step,
 * become one new card holding their pieces. Heat numbers are kept (distinct ones joined by '/').
 */
export async function mergeFlowCards(db: Db, user: AuthUser, ids: number[], requestId?: string) {
  const unique = [...new Set(ids)];
  if (unique.length < 2) throw fieldError('ids', '请选择至少两张流转卡合并');
  const cards = await lockCards(db, unique);
  if (cards.length !== unique.length) throw notFound('所选流转卡不存在或已被删除');
  const [head] = cards;
  for (const c of cards) {
    if (c.productionOrderId !== head.productionOrderId || c.productId !== head.productId) {
      throw conflict(`流转卡 ${c.docNo} 与 ${head.docNo} 不属于同一生产订单，不能合并`);
    }
    if (c.currentSeq !== head.currentSeq) {
      throw conflict(`流转卡 ${c.docNo} 与 ${head.docNo} 不在同一道工序，不能合并`);
    }
  }
  const steps = [];
  for (const c of cards) steps.push(await waitingStep(db, c, '合并'));
  const total = steps.reduce((s, x) => s.plus(x.inputQuantity), new Decimal(0));
  if (total.lte(0)) throw conflict('所选流转卡当前工序没有可合并的数量');
  const heats = [...new Set(cards.map((c) => c.heatNo).filter((h): h is string => Boolean(h)))];
  const heatNo = heats.join('/');
  if (heatNo.length > 100) throw conflict('所选流转卡的炉号过多，不能合并到一张卡');
  const merged = await insertCard(db, user, {
    orderId: head.productionOrderId,
    productId: head.productId,
    partName: head.partName,
    quantity: total.toString(),
    heatNo: heatNo || null,
    currentSeq: steps[0].seq,
    origin: 'merge',
    remark: `由 ${cards.map((c) => c.docNo).join('、')} 合并`,
  });
  await insertSteps(db, merged.id, { cardId: head.id }, steps[0].seq, total.toString());
  for (const [i, c] of cards.entries()) {
    await sql`INSERT INTO flow_card_link (parent_id, child_id, kind, quantity)
              VALUES (${c.id}, ${merged.id}, 'merge', ${steps[i].inputQuantity})`.execute(db);
  }
  await endCards(
    db,
    user,
    cards.map((c) => c.id),
    'merged',
  );
  for (const c of cards) {
    await audit(
      db,
      user,
      {
        entity: 'flow-card',
        entityId: c.id,
        action: 'merge',
        before: { status: 'open' },
        after: { status: 'merged', into: merged.docNo },
      },
      requestId,
    );
  }
  return { card: merged, parents: cards.map((c) => ({ id: c.id, docNo: c.docNo })) };
}

// ------------------------------------------------------------------ genealogy

export interface GenealogyNode {
  id: number;
  docNo: string;
  status: string;
  origin: string;
  quantity: string;
  heatNo: string | null;
  currentSeq: number | null;
  processName: string | null;
  productName: string;
  partName: string | null;
  /** Generations from the card asked about (0 for itself). */
  depth: number;
}

/**
 * Every ancestor (up the links, child → parent) and descendant (down, parent → child) of a card,
 * each at its nearest generation, with the links among them (拆分, 合并 and 装配领用 — a bearing
 * card's ring cards are its ancestors): two recursive CTEs over the graph.
 */
export async function genealogy(db: Db, cardId: number) {
  const r = await sql<GenealogyNode & { dir: 'self' | 'up' | 'down' }>`
    WITH RECURSIVE up AS (
      SELECT l.parent_id AS id, 1 AS depth FROM flow_card_link l WHERE l.child_id = ${cardId}
      UNION
      SELECT l.parent_id, up.depth + 1 FROM up JOIN flow_card_link l ON l.child_id = up.id
       WHERE up.depth < ${MAX_DEPTH}
    ), down AS (
      SELECT l.child_id AS id, 1 AS depth FROM flow_card_link l WHERE l.parent_id = ${cardId}
      UNION
      SELECT l.child_id, down.depth + 1 FROM down JOIN flow_card_link l ON l.parent_id = down.id
       WHERE down.depth < ${MAX_DEPTH}
    ), related AS (
      SELECT ${cardId}::bigint AS id, 'self' AS dir, 0 AS depth
      UNION ALL SELECT id, 'up', min(depth) FROM up GROUP BY id
      UNION ALL SELECT id, 'down', min(depth) FROM down GROUP BY id
    )
    SELECT c.id, c.doc_no, c.status, c.origin, c.quantity::text AS quantity, c.heat_no, c.current_seq,
           p.name AS process_name, m.name AS product_name, c.part_name, x.dir, x.depth
      FROM related x
      JOIN flow_card c ON c.id = x.id
      JOIN material m ON m.id = c.product_id
      LEFT JOIN flow_card_step s ON s.flow_card_id = c.id AND s.seq = c.current_seq
      LEFT JOIN process p ON p.id = s.process_id
     ORDER BY x.depth, c.id`.execute(db);
  const self = r.rows.find((x) => x.dir === 'self');
  if (!self) throw notFound('流转卡不存在或已被删除');
  const node = ({ dir: _d, ...n }: GenealogyNode & { dir: string }): GenealogyNode => ({
    ...n,
    id: Number(n.id),
    depth: Number(n.depth),
  });
  const ids = r.rows.map((x) => Number(x.id));
  const links = await sql<{ parentId: number; childId: number; kind: string; quantity: string }>`
    SELECT parent_id, child_id, kind, quantity::text AS quantity FROM flow_card_link
     WHERE parent_id = ANY(${sql.val(ids)}::bigint[]) AND child_id = ANY(${sql.val(ids)}::bigint[])
     ORDER BY parent_id, child_id`.execute(db);
  return {
    card: node(self),
    ancestors: r.rows.filter((x) => x.dir === 'up').map(node),
    descendants: r.rows.filter((x) => x.dir === 'down').map(node),
    links: links.rows.map((l) => ({ ...l, parentId: Number(l.parentId), childId: Number(l.childId) })),
  };
}

// ------------------------------------------------------------------ routes

const quantity = fieldSchema({
  name: 'quantity',
  label: '数量',
  kind: 'quantity',
  min: 0.0001,
}) as z.ZodType<string>;

export const openBody = z.strictObject({
  batchSize: fieldSchema({
    name: 'batchSize',
    label: '每卡数量',
    kind: 'quantity',
    min: 0.0001,
  }) as z.ZodType<string>,
  heatNo: zx.text(100).optional(),
  partName: zx.text(50).optional(),
});

export const splitBody = z.strictObject({
  quantities: z
    .array(quantity, { error: '请填写拆分后各卡的数量' })
    .min(2, '至少拆成两张卡')
    .max(50, '一次最多拆成 50 张卡'),
});

export const mergeBody = z.strictObject({
  ids: z
    .array(zx.id, { error: '请选择要合并的流转卡' })
    .min(2, '请选择至少两张流转卡合并')
    .max(100, '一次最多合并 100 张卡'),
});

const scanQuery = z.strictObject({ code: zx.required(200) });
const pickQuery = z.strictObject({ productId: zx.id, keyword: zx.text(50).optional() });

/**
 * A card with its steps and labels, as `info` answers it, the drawing in force for its product
 * (`drawing`, null without one; its files open through `/flow-card/drawing/:id/:fileId`) and the
 * heats of the card and its ancestors (`heats`); 404 when there is no card.
 */
async function cardInfo(db: Db, id: number) {
  const card = await getRecord(db, flowCardResource, id);
  return {
    ...card,
    drawing: await drawingLinkFor(db, Number(card.productId)),
    // The heats of the card and its ancestors: a bearing's are its rings' (装配领用).
    heats: await heatsOf(db, id),
  };
}

export const flowCardTransitions: Record<string, TransitionHandlers> = {
  // A closed card no longer counts in its sales order's 订单车间流转卡.
  close: { effect: ({ db, record }) => recountSaleOrderCards(db, saleOrdersOfCards([Number(record.id)])) },
};

export function flowCardRoutes(app: App) {
  const write = 'production:order:dispatch' as const;
  const read = { permission: 'production:order:list' as const, alsoAllowedBy: FLOW_CARD_READERS };
  route(app, {
    method: 'POST',
    url: '/api/v1/flow-card/open/:id',
    permission: write,
    params: idParams,
    body: openBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) =>
        openFlowCards(trx, params.id, body.batchSize, {
          user,
          heatNo: body.heatNo || null,
          partName: body.partName || null,
          requestId: req.id,
        }),
      ),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/flow-card/split/:id',
    permission: write,
    params: idParams,
    body: splitBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => splitFlowCard(trx, user, params.id, body.quantities, req.id)),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/flow-card/merge',
    permission: write,
    body: mergeBody,
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => mergeFlowCards(trx, user, body.ids, req.id)),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/card/:id',
    ...read,
    params: idParams,
    handler: ({ params, app: { db } }) => cardInfo(db, params.id),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/scan',
    ...read,
    query: scanQuery,
    async handler({ query, app: { db } }) {
      // A scanner types the QR content (the card number); tolerate case and stray spaces.
      const code = query.code.replace(/\s+/g, '').toUpperCase();
      const r = await sql<{ id: number }>`SELECT id FROM flow_card WHERE doc_no = ${code}`.execute(db);
      if (!r.rows[0]) throw notFound(`未找到流转卡 ${code}`);
      return cardInfo(db, Number(r.rows[0].id));
    },
  });
  // The cards of one product to pick from (测量记录's 流转卡): open ones first, newest first, with
  // heat, quantity and where each waits; `keyword` matches the number or the heat.
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/pick',
    ...read,
    query: pickQuery,
    async handler({ query, app: { db } }) {
      const r = await sql<Record<string, unknown>>`
        SELECT c.id, c.doc_no, c.status, c.quantity::text AS quantity, c.heat_no, c.part_name,
               o.doc_no AS order_no, c.current_seq, p.name AS process_name
          FROM flow_card c
          JOIN production_order o ON o.id = c.production_order_id
          LEFT JOIN flow_card_step s ON s.flow_card_id = c.id AND s.seq = c.current_seq
          LEFT JOIN process p ON p.id = s.process_id
         WHERE c.product_id = ${query.productId}
           ${query.keyword ? sql`AND ${containsAny(['c.doc_no', 'c.heat_no'], query.keyword)}` : sql``}
         ORDER BY (c.status = 'open') DESC, c.id DESC LIMIT 50`.execute(db);
      return r.rows.map((c) => ({ ...c, id: Number(c.id) }));
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/genealogy/:id',
    ...read,
    params: idParams,
    handler: ({ params, app: { db } }) => genealogy(db, params.id),
  });
  drawingFileRoute(app, {
    url: '/api/v1/flow-card/drawing',
    ...read,
    async productOf(db, id) {
      const r = await sql<{ productId: number }>`SELECT product_id FROM flow_card WHERE id = ${id}`.execute(
        db,
      );
      if (!r.rows[0]) throw notFound('流转卡不存在或已被删除');
      return Number(r.rows[0].productId);
    },
  });
}
