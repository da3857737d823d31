import Decimal from 'decimal.js';
import { isWorkday } from '../equipment/oee.ts';
import { SHIFT_MINUTES } from './workshop-task.resource.ts';

/**
 * MRP (物料需求计划), netted level by level as Orlicky describes it, without a database: the
 * server gathers the figures and this computes.
 *
 * 1. Low-level codes: every item's deepest level in any BOM path (a ring used in a bearing and
 *    sold as a spare is planned once, at its deepest level), so an item is netted only after
 *    every parent that needs it has been planned.
 * 2. Level by level, item by item, date by date: gross requirement − (on hand − allocated) −
 *    scheduled receipts − firm planned orders, keeping the safety stock → net requirement →
 *    planned order (lot size: at least the minimum, rounded up to the multiple, then to the
 *    unit's precision) → the next level's gross requirement from the planned order's quantity
 *    × quantity per × (1 + loss rate/100), dated at the planned order's start.
 * 3. Offsetting: a planned order is needed on its need date (the parent's start, or the
 *    demand's date) and starts its lead time earlier, counted in the factory calendar's working
 *    days (`addWorkdays`); one that should have started before today is late. Open orders due
 *    later than needed are brought in before anything new is planned (Orlicky's rescheduling
 *    assumption) and reported to be expedited (`rescheduled`).
 * 4. Pegging: each gross requirement is split into pieces, each naming the demand it serves
 *    (a sales order line, a 备货单 line, a production order) or stock (lot-size surplus, safety stock). Supply
 *    covers the pieces in order; a planned order carries the pieces it covers, and its
 *    components inherit them scaled. No division anywhere, so the pegs add up exactly.
 *
 * Quantities are decimal strings in the item's base unit; arithmetic is exact (decimal.js with
 * 60 significant digits: four levels of 4-decimal quantities and rates stay exact).
 */

const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });
type Dec = InstanceType<typeof D>;
const ZERO = new D(0);

export type MrpSource = 'make' | 'buy';

/** What a quantity serves: a demand document (sales order line, production order) or stock. */
export interface MrpPegRef {
  /** 'sale-order', 'production-order', … or 'stock' (lot-size surplus) / 'safety-stock'. */
  type: string;
  id: number;
  /** The document line, when the demand is one (a sales order line). */
  lineId?: number | null;
  /** What a person reads: the document number. */
  label: string;
}

export const STOCK_PEG: MrpPegRef = { type: 'stock', id: 0, label: '补充库存（批量余量）' };
export const SAFETY_PEG: MrpPegRef = { type: 'safety-stock', id: 0, label: '安全库存' };

export interface MrpItem {
  id: number;
  /** 'make': planned production orders, exploded through its BOM; 'buy': planned purchases. */
  source: MrpSource;
  /** 提前期 in days; when empty a made item's comes from its route (`leadDays`), a bought one's is 0. */
  leadTimeDays?: number | null;
  /** The active route's steps, for a made item without a lead time of its own. */
  routeSteps?: RouteStep[] | null;
  /** 最小批量: a planned order is at least this. */
  lotSizeMin?: string | null;
  /** 批量倍数: a planned order is a whole multiple of this. */
  lotSizeMultiple?: string | null;
  /** 安全库存: projected stock is kept at or above it. */
  safetyStock?: string | null;
  /** 小数位数 of the base unit: planned quantities are rounded up to it (9 balls, not 8.16). */
  precision?: number | null;
  /** 现有库存: qualified stock on hand, every warehouse. */
  onHand?: string | null;
  /** 已分配: what orders outside this run still hold of it (their requirements less issues). */
  allocated?: string | null;
}

export interface RouteStep {
  standardMinutes: string | null;
  outsourced: boolean;
}

/** One BOM line: `quantityPer` of the child (its base unit) per one parent, lost at `lossRate` %. */
export interface MrpBomLine {
  parentId: number;
  childId: number;
  quantityPer: string;
  lossRate?: string | null;
}

/** Independent demand: a sales order line, or a released order's open requirement. */
export interface MrpDemand {
  itemId: number;
  quantity: string;
  /** The date it is needed (YYYY-MM-DD). */
  date: string;
  peg: MrpPegRef;
}

/** Open supply on its way: a released production order, a purchase order, a requisition, 委外 in transit. */
export interface MrpReceipt {
  itemId: number;
  quantity: string;
  date: string;
  /** 'production-order', 'purchase-order', 'requisition', 'outsourcing', 'issued', … */
  kind: string;
  ref?: MrpPegRef;
  /**
   * Made or bought for this run's own demands (one order's requisition, its 自制件订单, what was
   * issued to it): in one order's run only those demands take it — never others' shortages or the
   * safety stock. A plan pools all supply.
   */
  dedicated?: boolean;
}

/**
 * An order already decided (the production order being released, a draft order): supply for its
 * item at its due date, never resized, and exploded into its components at its start.
 */
export interface MrpFirmOrder {
  itemId: number;
  quantity: string;
  startDate: string;
  dueDate: string;
  peg: MrpPegRef;
  /** Its own BOM (the one chosen on the order), else the item's. */
  bomLines?: MrpBomLine[];
}

export interface MrpInput {
  /** Today (YYYY-MM-DD): a planned order that should have started earlier is late. */
  today: string;
  /** The factory's working days: lead times are counted in them. Without one, every day works. */
  calendar?: MrpCalendar | null;
  items: MrpItem[];
  bom: MrpBomLine[];
  demands: MrpDemand[];
  receipts?: MrpReceipt[];
  firmOrders?: MrpFirmOrder[];
  /**
   * A whole plan (true): planned orders also restore the safety stock and cover what the
   * allocations lack. One order (false, the default): the run plans for its own demands only —
   * stock held by others and the safety stock are never taken, and others' shortages stay theirs.
   */
  coverShortfalls?: boolean;
}

export interface MrpPeg {
  ref: MrpPegRef;
  quantity: string;
}

export interface MrpPlannedOrder {
  itemId: number;
  level: number;
  source: MrpSource;
  /** A firm order of the input, not one this run proposes. */
  firm: boolean;
  /** The planned quantity after lot sizing and unit rounding. */
  quantity: string;
  /** The net requirement it covers (the rest is surplus to stock). */
  net: string;
  /** When it must be there: the parent's start, or the demand's date. */
  needDate: string;
  /** needDate − lead time. */
  startDate: string;
  leadTimeDays: number;
  /** Should have started before today. */
  late: boolean;
  pegs: MrpPeg[];
}

export interface MrpPeriod {
  date: string;
  gross: string;
  /** Scheduled receipts and firm orders arriving that day. */
  receipts: string;
  net: string;
  /** Planned order receipts (new planned orders needed that day). */
  planned: string;
  /** Projected available after the day. */
  projected: string;
}

export interface MrpRow {
  itemId: number;
  level: number;
  source: MrpSource;
  gross: string;
  onHand: string;
  allocated: string;
  /** Scheduled receipts (open supply), every date. */
  scheduled: string;
  /** Firm planned orders (the order being released, drafts). */
  firm: string;
  safetyStock: string;
  net: string;
  /** New planned orders, lot-sized. */
  planned: string;
  /** Projected available after the last date. */
  projected: string;
  late: boolean;
  periods: MrpPeriod[];
}

/** An open order due after it is needed, counted as if brought in: it must be expedited. */
export interface MrpReschedule {
  itemId: number;
  /** The receipt's kind ('purchase-order', …) or 'firm'. */
  kind: string;
  ref: MrpPegRef | null;
  quantity: string;
  /** When it is due now. */
  date: string;
  /** When it is needed. */
  needDate: string;
}

export interface MrpResult {
  rows: MrpRow[];
  plannedOrders: MrpPlannedOrder[];
  /** Open orders the netting brought in before their due date (to expedite). */
  rescheduled: MrpReschedule[];
}

/** A BOM cycle: the items on it, in order. */
export class MrpCycleError extends Error {
  constructor(readonly itemIds: number[]) {
    super(`BOM cycle through items ${itemIds.join(' → ')}`);
  }
}

// ------------------------------------------------------------------------------ lead times

/** Lead time of a made item without an active route with standard minutes (days). */
export const LEAD_DAYS = 10;
/** Days an outsourced step of the route (热处理) is away. */
export const OUTSOURCED_DAYS = 3;

/**
 * A made item's lead time in days from its active route. The batch moves on card by card, so the
 * steps overlap: the slowest in-house step's standard minutes × the quantity over one shift a day
 * (rounded up), plus a day for each further in-house step (the last card passing through) and
 * OUTSOURCED_DAYS for each outsourced one; at least one day; LEAD_DAYS without a route.
 */
export function leadDays(steps: RouteStep[] | null | undefined, quantity: Decimal.Value): number {
  if (!steps?.length) return LEAD_DAYS;
  const inHouse = steps.filter((s) => !s.outsourced);
  const slowest = inHouse.reduce((m, s) => D.max(m, s.standardMinutes ?? 0), ZERO);
  const bottleneck = slowest.times(quantity.toString()).dividedBy(SHIFT_MINUTES).ceil().toNumber();
  const away = (steps.length - inHouse.length) * OUTSOURCED_DAYS;
  return Math.max(bottleneck + Math.max(inHouse.length - 1, 0) + away, 1);
}

/** The item's lead time for a planned order of `quantity`. */
export function itemLeadDays(item: MrpItem, quantity: Decimal.Value): number {
  if (item.leadTimeDays != null) return item.leadTimeDays;
  return item.source === 'make' ? leadDays(item.routeSteps, quantity) : 0;
}

/** A calendar date `n` days from `day` (YYYY-MM-DD). */
export const shiftDate = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The factory's planning calendar (系统设置 › 生产日历): the weekdays it works (1 = Monday … 7 =
 * Sunday), holidays, and extra working days (调休, a Saturday worked before a holiday week). Lead
 * times are counted in its working days, as an MRP's shop calendar does.
 */
export interface MrpCalendar {
  weekdays: number[];
  holidays: string[];
  workdays: string[];
}

/** Whether the factory works on `day` (a listed 调休 day, else a weekday that is not a holiday); every day without a calendar. */
export const isPlanningDay = (day: string, calendar?: MrpCalendar | null) =>
  !calendar || isWorkday({ shifts: [], ...calendar }, day);

/** Ten years of days without a working one: the calendar is unusable. */
const CALENDAR_REACH = 3660;

/**
 * `day` moved by `n` working days (n < 0: earlier; 0: the day itself). Each step goes to the next
 * (or previous) working day, so a lead time of 3 days needed on a Monday starts the Thursday before
 * in a five-day week. Without a calendar these are calendar days.
 */
export function addWorkdays(day: string, n: number, calendar?: MrpCalendar | null): string {
  if (!calendar) return shiftDate(day, n);
  const step = n < 0 ? -1 : 1;
  let left = Math.abs(n);
  let d = day;
  for (let seen = 0; left > 0; seen++) {
    if (seen > CALENDAR_REACH) throw new Error('生产日历中没有工作日');
    d = shiftDate(d, step);
    if (isPlanningDay(d, calendar)) left--;
  }
  return d;
}

/** `day` itself when the factory works on it, else the next working day. */
export function workdayOnOrAfter(day: string, calendar?: MrpCalendar | null): string {
  return isPlanningDay(day, calendar) ? day : addWorkdays(day, 1, calendar);
}

/**
 * A production order's dates from a planned order of `days` working days: it finishes the working
 * day before it is needed and starts `days − 1` working days before that — never before today;
 * when that is too late, `late` says so and the dates are the earliest possible (from the first
 * working day from today on).
 */
export function orderDates(needDate: string, days: number, today: string, calendar?: MrpCalendar | null) {
  const finishBy = addWorkdays(needDate, -1, calendar);
  let start = addWorkdays(finishBy, -(days - 1), calendar);
  let due = finishBy;
  if (start < today) {
    start = workdayOnOrAfter(today, calendar);
    due = addWorkdays(start, Math.max(days - 1, 0), calendar);
  }
  return { plannedStartDate: start, dueDate: due < start ? start : due, late: due >= needDate };
}

// ------------------------------------------------------------------------------ lot sizing

/** A net requirement made a planned quantity: the minimum, then the multiple, then the unit. */
export function lotSize(
  net: Decimal.Value,
  item: Pick<MrpItem, 'lotSizeMin' | 'lotSizeMultiple' | 'precision'>,
) {
  let q = new D(net.toString());
  if (q.lte(0)) return ZERO;
  const min = item.lotSizeMin ? new D(item.lotSizeMin) : ZERO;
  if (q.lt(min)) q = min;
  const multiple = item.lotSizeMultiple ? new D(item.lotSizeMultiple) : ZERO;
  if (multiple.gt(0)) q = q.dividedBy(multiple).ceil().times(multiple);
  const places = Math.max(0, item.precision ?? 4);
  return q.toDecimalPlaces(places, Decimal.ROUND_UP);
}

// ------------------------------------------------------------------------------ low-level codes

/**
 * Every item's low-level code: 0 for an item no BOM uses, else one more than its deepest
 * parent's. A cycle throws `MrpCycleError`.
 */
export function lowLevelCodes(lines: Pick<MrpBomLine, 'parentId' | 'childId'>[], itemIds: number[] = []) {
  const children = new Map<number, Set<number>>();
  const indegree = new Map<number, number>();
  const touch = (id: number) => {
    if (!indegree.has(id)) indegree.set(id, 0);
  };
  for (const id of itemIds) touch(id);
  for (const l of lines) {
    touch(l.parentId);
    touch(l.childId);
    const set = children.get(l.parentId) ?? new Set<number>();
    children.set(l.parentId, set);
    if (!set.has(l.childId)) {
      set.add(l.childId);
      indegree.set(l.childId, (indegree.get(l.childId) ?? 0) + 1);
    }
  }
  const llc = new Map<number, number>();
  const queue = [...indegree].filter(([, n]) => n === 0).map(([id]) => id);
  for (const id of queue) llc.set(id, 0);
  const left = new Map(indegree);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i];
    for (const c of children.get(id) ?? []) {
      llc.set(c, Math.max(llc.get(c) ?? 0, (llc.get(id) ?? 0) + 1));
      const n = (left.get(c) ?? 0) - 1;
      left.set(c, n);
      if (n === 0) queue.push(c);
    }
  }
  if (queue.length < indegree.size) throw new MrpCycleError(cycleIn(children, left));
  return llc;
}

/** One cycle among the items a topological sort could not place. */
function cycleIn(children: Map<number, Set<number>>, left: Map<number, number>): number[] {
  const stuck = new Set([...left].filter(([, n]) => n > 0).map(([id]) => id));
  const start = Math.min(...stuck);
  const path: number[] = [];
  const seen = new Map<number, number>();
  let at = start;
  while (!seen.has(at)) {
    seen.set(at, path.length);
    path.push(at);
    at = [...(children.get(at) ?? [])].find((c) => stuck.has(c)) ?? start;
  }
  return [...path.slice(seen.get(at)), at];
}

// ------------------------------------------------------------------------------ the run

interface Piece {
  date: string;
  quantity: Dec;
  ref: MrpPegRef;
  /** Order in which supply covers pieces of one date: demands in input order, stock last. */
  rank: number;
}

const pegKey = (r: MrpPegRef) => `${r.type}:${r.id}:${r.lineId ?? ''}`;
const dec = (v: string | null | undefined) => (v == null || v === '' ? ZERO : new D(v));
const out = (v: Dec) => v.toFixed();

/** Pieces merged by date and peg, in covering order. */
function mergePieces(pieces: Piece[]): Piece[] {
  const by = new Map<string, Piece>();
  for (const p of pieces) {
    if (p.quantity.isZero()) continue;
    const k = `${p.date}|${pegKey(p.ref)}`;
    const had = by.get(k);
    if (had) had.quantity = had.quantity.plus(p.quantity);
    else by.set(k, { ...p });
  }
  return [...by.values()].sort((a, b) =>
    a.date < b.date
      ? -1
      : a.date > b.date
        ? 1
        : a.rank - b.rank || pegKey(a.ref).localeCompare(pegKey(b.ref)),
  );
}

function mergePegs(pieces: { ref: MrpPegRef; quantity: Dec }[]): MrpPeg[] {
  const by = new Map<string, { ref: MrpPegRef; quantity: Dec }>();
  for (const p of pieces) {
    if (p.quantity.isZero()) continue;
    const k = pegKey(p.ref);
    const had = by.get(k);
    if (had) had.quantity = had.quantity.plus(p.quantity);
    else by.set(k, { ref: p.ref, quantity: p.quantity });
  }
  return [...by.values()].map((p) => ({ ref: p.ref, quantity: out(p.quantity) }));
}

/**
 * The MRP run: every item the demands and firm orders reach, netted level by level. Rows come
 * by level, then by item id; planned orders by level, item and need date.
 */
export function runMrp(input: MrpInput): MrpResult {
  const cover = input.coverShortfalls ?? false;
  const items = new Map(input.items.map((i) => [i.id, i]));
  const item = (id: number): MrpItem => items.get(id) ?? { id, source: 'buy' };
  const linesOf = new Map<number, MrpBomLine[]>();
  for (const l of input.bom) {
    const list = linesOf.get(l.parentId) ?? [];
    list.push(l);
    linesOf.set(l.parentId, list);
  }
  const firm = input.firmOrders ?? [];
  const llc = lowLevelCodes(
    [...input.bom, ...firm.flatMap((f) => f.bomLines ?? [])],
    [...input.items.map((i) => i.id), ...input.demands.map((d) => d.itemId), ...firm.map((f) => f.itemId)],
  );

  const rank = new Map<string, number>();
  for (const r of [...input.demands.map((d) => d.peg), ...firm.map((f) => f.peg)]) {
    if (!rank.has(pegKey(r))) rank.set(pegKey(r), rank.size);
  }
  const rankOf = (r: MrpPegRef) => rank.get(pegKey(r)) ?? Number.MAX_SAFE_INTEGER;

  const pieces = new Map<number, Piece[]>();
  const addPiece = (itemId: number, p: Piece) => {
    const list = pieces.get(itemId) ?? [];
    list.push(p);
    pieces.set(itemId, list);
  };
  for (const d of input.demands) {
    addPiece(d.itemId, { date: d.date, quantity: new D(d.quantity), ref: d.peg, rank: rankOf(d.peg) });
  }
  const receiptsOf = new Map<number, MrpReceipt[]>();
  for (const r of input.receipts ?? []) {
    const list = receiptsOf.get(r.itemId) ?? [];
    list.push(r);
    receiptsOf.set(r.itemId, list);
  }
  const firmOf = new Map<number, MrpFirmOrder[]>();
  for (const f of firm) {
    const list = firmOf.get(f.itemId) ?? [];
    list.push(f);
    firmOf.set(f.itemId, list);
  }

  /** A planned (or firm) order's components: gross pieces at its start, pegs scaled. */
  const explode = (
    parent: MrpItem,
    lines: MrpBomLine[],
    start: string,
    pegs: { ref: MrpPegRef; quantity: Dec }[],
  ) => {
    if (parent.source !== 'make') return;
    for (const l of lines) {
      const per = new D(l.quantityPer).times(new D(1).plus(dec(l.lossRate).dividedBy(100)));
      for (const p of pegs) {
        addPiece(l.childId, {
          date: start,
          quantity: p.quantity.times(per),
          ref: p.ref,
          rank: rankOf(p.ref),
        });
      }
    }
  };

  const rows: MrpRow[] = [];
  const planned: MrpPlannedOrder[] = [];
  const rescheduled: MrpReschedule[] = [];
  const levels = [...new Set(llc.values())].sort((a, b) => a - b);
  for (const level of levels) {
    const ids = [...llc]
      .filter(([, l]) => l === level)
      .map(([id]) => id)
      .sort((a, b) => a - b);
    for (const id of ids) {
      const it = item(id);
      const own = mergePieces(pieces.get(id) ?? []);
      const firms = firmOf.get(id) ?? [];
      const receipts = receiptsOf.get(id) ?? [];
      if (!own.length && !firms.length) continue;

      // Firm orders: supply at their due date, and their own explosion.
      for (const f of firms) {
        planned.push({
          itemId: id,
          level,
          source: it.source,
          firm: true,
          quantity: out(new D(f.quantity)),
          net: '0',
          needDate: f.dueDate,
          startDate: f.startDate,
          leadTimeDays: 0,
          late: false,
          pegs: [{ ref: f.peg, quantity: out(new D(f.quantity)) }],
        });
        explode(it, f.bomLines ?? linesOf.get(id) ?? [], f.startDate, [
          { ref: f.peg, quantity: new D(f.quantity) },
        ]);
      }

      // Supply in date order: scheduled receipts and firm orders. One order's run keeps what was
      // made or bought for it (`dedicated`) for itself; a plan pools everything.
      const supplies = [
        ...receipts.map((r) => ({
          date: r.date,
          quantity: new D(r.quantity),
          kind: r.kind,
          ref: r.ref,
          dedicated: !cover && (r.dedicated ?? false),
        })),
        ...firms.map((f) => ({
          date: f.dueDate,
          quantity: new D(f.quantity),
          kind: 'firm',
          ref: f.peg,
          dedicated: false,
        })),
      ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const ownOn = new Map<string, Piece[]>();
      for (const p of own) {
        const list = ownOn.get(p.date) ?? [];
        list.push(p);
        ownOn.set(p.date, list);
      }
      const dates = [...new Set([...ownOn.keys(), ...supplies.map((x) => x.date)])].sort();

      const safety = dec(it.safetyStock);
      const onHand = dec(it.onHand);
      const allocated = dec(it.allocated);
      /** What anyone may take: on hand less what others hold, plus open supply (may be negative). */
      let pab = onHand.minus(allocated);
      /** What only this run's demands take. */
      let mine = ZERO;
      let gross = ZERO;
      let net = ZERO;
      let plannedTotal = ZERO;
      let late = false;
      let next = 0;
      const periods: MrpPeriod[] = [];
      const usable = () => pab.minus(safety);
      const available = () => mine.plus(cover ? usable() : D.max(usable(), 0));
      for (const date of dates) {
        let arriving = ZERO;
        const arrive = (x: (typeof supplies)[number]) => {
          arriving = arriving.plus(x.quantity);
          if (x.dedicated) mine = mine.plus(x.quantity);
          else pab = pab.plus(x.quantity);
        };
        for (; next < supplies.length && supplies[next].date <= date; next++) arrive(supplies[next]);
        const today = ownOn.get(date) ?? [];
        const g = today.reduce((s, p) => s.plus(p.quantity), ZERO);
        // The rescheduling assumption (Orlicky): an open order due later is brought in before a
        // new one is planned, and the sheet says it must be expedited.
        for (; g.gt(0) && available().lt(g) && next < supplies.length; next++) {
          const x = supplies[next];
          arrive(x);
          rescheduled.push({
            itemId: id,
            kind: x.kind,
            ref: x.ref ?? null,
            quantity: out(x.quantity),
            date: x.date,
            needDate: date,
          });
        }
        let need = ZERO;
        let made = ZERO;
        if (g.gt(0)) {
          // Supply covers the pieces in order, this run's own first; what it leaves is the net
          // requirement.
          let leftMine = mine;
          let left = D.max(usable(), 0);
          const netPieces: { ref: MrpPegRef; quantity: Dec }[] = [];
          for (const p of today) {
            const fromMine = D.min(leftMine, p.quantity);
            leftMine = leftMine.minus(fromMine);
            const covered = D.min(left, p.quantity.minus(fromMine));
            left = left.minus(covered);
            const rest = p.quantity.minus(fromMine).minus(covered);
            if (rest.gt(0)) netPieces.push({ ref: p.ref, quantity: rest });
          }
          const takenMine = mine.minus(leftMine);
          mine = leftMine;
          if (cover && usable().lt(0)) netPieces.push({ ref: SAFETY_PEG, quantity: usable().negated() });
          need = netPieces.reduce((s, p) => s.plus(p.quantity), ZERO);
          if (need.gt(0)) {
            made = lotSize(need, it);
            const surplus = made.minus(need);
            if (surplus.gt(0)) netPieces.push({ ref: STOCK_PEG, quantity: surplus });
            const lead = itemLeadDays(it, made);
            const start = addWorkdays(date, -lead, input.calendar);
            const isLate = start < input.today;
            late ||= isLate;
            planned.push({
              itemId: id,
              level,
              source: it.source,
              firm: false,
              quantity: out(made),
              net: out(need),
              needDate: date,
              startDate: start,
              leadTimeDays: lead,
              late: isLate,
              pegs: mergePegs(netPieces),
            });
            explode(it, linesOf.get(id) ?? [], start, netPieces);
            pab = pab.plus(made);
          }
          pab = pab.minus(g.minus(takenMine));
        }
        gross = gross.plus(g);
        net = net.plus(need);
        plannedTotal = plannedTotal.plus(made);
        if (g.isZero() && arriving.isZero()) continue;
        periods.push({
          date,
          gross: out(g),
          receipts: out(arriving),
          net: out(need),
          planned: out(made),
          projected: out(pab.plus(mine)),
        });
      }
      rows.push({
        itemId: id,
        level,
        source: it.source,
        gross: out(gross),
        onHand: out(onHand),
        allocated: out(allocated),
        scheduled: out(receipts.reduce((s, r) => s.plus(r.quantity), ZERO)),
        firm: out(firms.reduce((s, f) => s.plus(f.quantity), ZERO)),
        safetyStock: out(safety),
        net: out(net),
        planned: out(plannedTotal),
        projected: out(pab.plus(mine)),
        late,
        periods,
      });
    }
  }
  planned.sort(
    (a, b) =>
      a.level - b.level ||
      a.itemId - b.itemId ||
      (a.needDate < b.needDate ? -1 : a.needDate > b.needDate ? 1 : Number(b.firm) - Number(a.firm)),
  );
  return { rows, plannedOrders: planned, rescheduled };
}

// ------------------------------------------------------------------------------ one order's tree

/** A BOM line as a released order freezes it. */
export interface TreeLine {
  parentId: number;
  childId: number;
  quantityPer: string;
  lossRate: string;
  lineNo: number;
  bomId: number;
  processId: number | null;
}

export interface TreeRow {
  level: number;
  parentMaterialId: number;
  materialId: number;
  quantityPer: string;
  lossRate: string;
  /** The parent row's made quantity (or the order's) × quantity per × (1 + loss rate/100). */
  requiredQuantity: string;
  /** What the order makes of it itself; its children are exploded from this. */
  madeQuantity: string;
  processId: number | null;
  bomId: number;
  exploded: boolean;
}

/** Deeper than this is a BOM cycle or a data error (production_order_bom.level ≤ 20). */
export const MAX_TREE_LEVEL = 20;

/**
 * A released order's frozen BOM from its MRP run: every row's requirement comes from its
 * parent row's made quantity, and a made-in-house component's planned quantity (`made`, per
 * item) is shared among its rows in proportion to what each requires (4 decimals, the last row
 * taking the rounding), so a component covered by stock is not exploded at all. Rows in tree
 * order (each followed by its children, lines by line number).
 */
export function netBomTree(input: {
  rootQuantity: string;
  rootLines: TreeLine[];
  linesOf: Map<number, TreeLine[]>;
  /** Planned (new, lot-sized) quantity of each made item in this order's run. */
  made: Map<number, string>;
}): TreeRow[] {
  interface Node extends TreeRow {
    children: Node[];
  }
  const q4 = (v: Dec) => v.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  const rowsOf = new Map<number, Node[]>();
  const make = (line: TreeLine, level: number, parentMade: Dec): Node => {
    if (level > MAX_TREE_LEVEL) throw new MrpCycleError([line.parentId, line.childId]);
    const per = new D(line.quantityPer).times(new D(1).plus(dec(line.lossRate).dividedBy(100)));
    const node: Node = {
      level,
      parentMaterialId: line.parentId,
      materialId: line.childId,
      quantityPer: line.quantityPer,
      lossRate: line.lossRate,
      requiredQuantity: out(q4(parentMade.times(per))),
      madeQuantity: '0',
      processId: line.processId,
      bomId: line.bomId,
      exploded: false,
      children: [],
    };
    const list = rowsOf.get(line.childId) ?? [];
    list.push(node);
    rowsOf.set(line.childId, list);
    return node;
  };
  const byLineNo = (a: TreeLine, b: TreeLine) => a.lineNo - b.lineNo;
  const roots = [...input.rootLines].sort(byLineNo).map((l) => make(l, 1, new D(input.rootQuantity)));
  // Parents before children: an item's rows are all known once every row above it is shared out.
  const llc = lowLevelCodes([...input.rootLines, ...[...input.linesOf.values()].flat()]);
  const order = [...llc].sort((a, b) => a[1] - b[1]).map(([id]) => id);
  for (const id of order) {
    const rows = rowsOf.get(id) ?? [];
    const total = dec(input.made.get(id));
    if (!rows.length || total.lte(0)) continue;
    const required = rows.reduce((s, r) => s.plus(r.requiredQuantity), ZERO);
    let left = total;
    rows.forEach((row, i) => {
      const share =
        i === rows.length - 1 || required.isZero()
          ? left
          : D.min(left, q4(total.times(row.requiredQuantity).dividedBy(required)));
      left = left.minus(share);
      if (share.lte(0)) return;
      row.madeQuantity = out(share);
      row.exploded = true;
      row.children = [...(input.linesOf.get(id) ?? [])]
        .sort(byLineNo)
        .map((l) => make(l, row.level + 1, share));
    });
  }
  const flat: TreeRow[] = [];
  const walk = (nodes: Node[]) => {
    for (const { children, ...row } of nodes) {
      flat.push(row);
      walk(children);
    }
  };
  walk(roots);
  return flat;
}
