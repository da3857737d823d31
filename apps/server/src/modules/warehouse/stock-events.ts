import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import type { StockKind } from './sources.ts';

/**
 * What posting and reversing a stock document means to the modules above the warehouse: quality
 * opens 来料检验 on a 采购入库 and may hold a 销售出库 until it passed 出货检验; finance books
 * 应收/应付 of a document made against an order. The warehouse knows none of them: they register
 * here at start (as order sources do in `sources.ts`), and every listener runs inside the posting
 * transaction, in the order registered; a refusal (an `AppError`) rolls the posting back.
 */
export interface StockEvent {
  /** `stock-inbound` or `stock-outbound`: the documents made against orders. */
  docType: string;
  kind: StockKind;
  id: number;
  /** The document's 出入库类型 (`purchase`, `sales`, …). */
  type: string;
  user: AuthUser;
}

type Listener = (db: Db, e: StockEvent) => Promise<unknown>;

const BEFORE_POST: Listener[] = [];
const POSTED: Listener[] = [];
const REVERSED: Listener[] = [];

const add = (list: Listener[], l: Listener) => {
  if (!list.includes(l)) list.push(l);
};

/** Before an outbound document's stock moves: may refuse the posting. */
export const beforeStockPost = (l: Listener) => add(BEFORE_POST, l);
/** After an inbound or outbound document's stock moves and its order's quantities. */
export const onStockPosted = (l: Listener) => add(POSTED, l);
/** After the reversal of an inbound or outbound document: its stock moves and its order's quantities. */
export const onStockReversed = (l: Listener) => add(REVERSED, l);

async function emit(list: Listener[], db: Db, e: StockEvent) {
  for (const l of list) await l(db, e);
}

export const stockPostChecks = (db: Db, e: StockEvent) => emit(BEFORE_POST, db, e);
export const stockPosted = (db: Db, e: StockEvent) => emit(POSTED, db, e);
export const stockReversed = (db: Db, e: StockEvent) => emit(REVERSED, db, e);

/** An inbound line without a typed price, offered to the costers (`costInboundBy`). */
export interface InboundCostLine {
  id: number;
  materialId: number;
  /** Base-unit quantity the line brings in. */
  baseQuantity: string;
}

/** A line's cost as a coster fixes it: per base unit (6 places) and the line's exact amount. */
export interface InboundCost {
  unitCost: string;
  amount: string;
}

export interface InboundCostDoc {
  id: number;
  type: string;
  sourceNo: string | null;
}

type InboundCoster = (
  db: Db,
  doc: InboundCostDoc,
  lines: InboundCostLine[],
) => Promise<Map<number, InboundCost>>;
const COSTERS: InboundCoster[] = [];

/**
 * A module above the warehouse that knows what an inbound document's goods cost (production: a
 * 生产入库 at the order's actual cost) registers here; posting asks it, inside the posting
 * transaction, for the lines without a typed price. Lines no coster prices enter at the
 * warehouse's average, as before.
 */
export const costInboundBy = (c: InboundCoster) => {
  if (!COSTERS.includes(c)) COSTERS.push(c);
};

export async function inboundCosts(db: Db, doc: InboundCostDoc, lines: InboundCostLine[]) {
  const out = new Map<number, InboundCost>();
  if (!lines.length) return out;
  for (const c of COSTERS)
    for (const [id, cost] of await c(db, doc, lines)) if (!out.has(id)) out.set(id, cost);
  return out;
}
