import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { closeMonth, monthStart } from '../modules/finance/wages.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';

/** 'YYYY-MM-01' of the month `n` months before today's. */
function monthsBack(n: number): string {
  const [y, m] = businessDay().split('-').map(Number);
  const i = y * 12 + (m - 1) - n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * 工序工资 of the demo, before the work reports are posted: every process with a 计件单价 gets a
 * rate from three months back (工废 deducted at the piece rate, rework paid at half of it); the
 * grinding finishes (磨沟道, 超精) got a raise from this month's first day; 装球 of the first
 * finished bearing has a product rate of its own.
 */
export async function seedDemoWageRates(db: Db): Promise<void> {
  const from = monthsBack(3);
  const processes = await sql<{ id: number; name: string; rate: string }>`
    SELECT id, name, piece_rate::text AS rate FROM process WHERE piece_rate IS NOT NULL ORDER BY id`.execute(
    db,
  );
  const rows: Record<string, unknown>[] = [];
  for (const p of processes.rows) {
    const rate = new Decimal(p.rate);
    rows.push({
      processId: p.id,
      validFrom: from,
      pieceRate: rate.toString(),
      deductionRate: rate.toString(),
      reworkRate: rate.div(2).toDecimalPlaces(6).toString(),
      remark: '演示：年度计件单价',
    });
    if (['磨沟道', '超精'].includes(p.name)) {
      rows.push({
        processId: p.id,
        validFrom: monthStart(businessDay()),
        pieceRate: rate.times('1.1').toDecimalPlaces(6).toString(),
        deductionRate: rate.toString(),
        reworkRate: rate.div(2).toDecimalPlaces(6).toString(),
        remark: '演示：本月起上调 10%',
      });
    }
  }
  const ball = processes.rows.find((p) => p.name === '装球');
  const product = await sql<{ id: number }>`
    SELECT m.id FROM material m JOIN material_type t ON t.id = m.material_type_id
     WHERE t.code = 'FIN' ORDER BY m.id LIMIT 1`.execute(db);
  if (ball && product.rows[0]) {
    rows.push({
      processId: ball.id,
      productId: product.rows[0].id,
      validFrom: from,
      pieceRate: new Decimal(ball.rate).times('1.2').toDecimalPlaces(6).toString(),
      deductionRate: ball.rate,
      reworkRate: new Decimal(ball.rate).div(2).toDecimalPlaces(6).toString(),
      remark: '演示：该型号装球难度高，单价上浮 20%',
    });
  }
  if (rows.length) await db.insertInto('processWage').values(rows).execute();
}

/** The two months before this one are closed (their sheets locked), after the reports were posted. */
export async function seedDemoWageMonths(db: Db, adminId: number): Promise<void> {
  const fin = await sql<{ id: number }>`SELECT id FROM app_user WHERE user_name = 'fin01'`.execute(db);
  for (const period of [monthsBack(2), monthsBack(1)]) {
    await closeMonth(db, period.slice(0, 7), fin.rows[0]?.id ?? adminId);
  }
}
