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
