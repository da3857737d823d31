import { type DifferenceReport, stocktakeResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import type ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { getRecord } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';

const QUALITY: Record<string, string> = { qualified: '合格', pending: '待检', rejected: '不合格' };

/**
 * 盘点差异报告: the counted lines whose quantity differs from the books, each valued — at the
 * cost its ledger move was posted at, or for a draft at the material's current moving average in
 * the stocktake's warehouse —
 * with gain, loss and net totals.
 */
export async function differenceReport(db: Db, id: number): Promise<DifferenceReport> {
  const doc = await getRecord(db, stocktakeResource, id);
  const posted = doc.status !== 'draft';
  const rows = await sql<any>`
    SELECT sl.line_no, m.code AS material_code, m.name AS material_name, m.spec, u.name AS unit_name,
           loc.name AS location_name, sl.batch_no, sl.quality_status,
           sl.book_quantity::text AS book_quantity, sl.counted_quantity::text AS counted_quantity,
           sl.difference::text AS difference,
           ${
             posted
               ? sql`coalesce(lg.unit_cost, 0)::text AS unit_cost, coalesce(lg.amount, 0)::text AS amount`
               : sql`coalesce(mc.avg_cost, 0)::text AS unit_cost,
                     round(sl.difference * coalesce(mc.avg_cost, 0), 2)::text AS amount`
           }
      FROM stocktake_line sl
      JOIN material m ON m.id = sl.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
      LEFT JOIN shelf_location loc ON loc.id = sl.location_id
      LEFT JOIN stock_value mc ON mc.material_id = sl.material_id AND mc.warehouse_id = ${doc.warehouseId}
      LEFT JOIN LATERAL (
        SELECT max(x.unit_cost) AS unit_cost, sum(x.amount) AS amount FROM stock_ledger x
         WHERE x.doc_type = 'stocktake' AND x.doc_id = sl.stocktake_id AND x.line_id = sl.id AND x.reversal_of IS NULL
      ) lg ON ${posted ? sql`true` : sql`false`}
     WHERE sl.stocktake_id = ${id} AND sl.counted_quantity IS NOT NULL AND sl.difference <> 0
     ORDER BY sl.line_no`.execute(db);
  const sum = (pick: (l: any) => string, keep: (d: Decimal) => boolean) =>
    rows.rows
      .filter((l) => keep(new Decimal(l.difference)))
      .reduce((s, l) => s.plus(pick(l)), new Decimal(0));
  const gain = (d: Decimal) => d.gt(0);
  const loss = (d: Decimal) => d.lt(0);
  const gainAmount = sum((l) => l.amount, gain);
  const lossAmount = sum((l) => l.amount, loss).negated();
  // Quantities per unit: 件, kg and 粒 are never added into one figure.
  const perUnit = (keep: (d: Decimal) => boolean) => {
    const units = new Map<string, { n: number; q: Decimal }>();
    for (const l of rows.rows) {
      const d = new Decimal(l.difference);
      if (!keep(d)) continue;
      const u = units.get(l.unitName ?? '') ?? { n: 0, q: new Decimal(0) };
      units.set(l.unitName ?? '', { n: u.n + 1, q: u.q.plus(d.abs()) });
    }
    return [...units]
      .sort(([a, x], [b, y]) => y.n - x.n || (a < b ? -1 : a > b ? 1 : 0))
      .map(([unitName, u]) => ({ unitName, quantity: u.q.toFixed(4) }));
  };
  const gainByUnit = perUnit(gain);
  const lossByUnit = perUnit(loss);
  const one = (list: { quantity: string }[]) => (list.length > 1 ? null : (list[0]?.quantity ?? '0.0000'));
  return {
    docNo: doc.docNo,
    status: doc.status,
    warehouseName: doc.warehouseName,
    bizDate: doc.bizDate,
    valuedAt: posted ? 'posting' : 'current average',
    lines: rows.rows,
    totals: {
      gainQuantity: one(gainByUnit),
      lossQuantity: one(lossByUnit),
      gainByUnit,
      lossByUnit,
      gainAmount: gainAmount.toFixed(2),
      lossAmount: lossAmount.toFixed(2),
      netAmount: gainAmount.minus(lossAmount).toFixed(2),
    },
  };
}

/** The report as an Excel workbook: a title row, the lines, and the totals. */
async function reportWorkbook(report: DifferenceReport): Promise<ExcelJS.Workbook> {
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet('盘点差异');
  const head = [
    ['行号', 6],
    ['物料编码', 14],
    ['物料名称', 24],
    ['规格型号', 14],
    ['单位', 8],
    ['库位', 12],
    ['批次号', 14],
    ['质量状态', 10],
    ['账面数量', 12],
    ['实盘数量', 12],
    ['盈亏数量', 12],
    ['成本单价', 12],
    ['盈亏金额', 14],
  ] as const;
  ws.columns = head.map(([header, width]) => ({ width, key: header }));
  ws.addRow([
    `盘点差异表 ${report.docNo}　${report.warehouseName}　${report.bizDate}　${
      report.valuedAt === 'posting' ? '按过账成本计价' : '按当前移动平均价计价（未过账）'
    }`,
  ]).font = { bold: true };
  ws.addRow(head.map(([h]) => h)).font = { bold: true };
  for (const l of report.lines) {
    ws.addRow(
      [
        l.lineNo,
        l.materialCode,
        l.materialName,
        l.spec ?? '',
        l.unitName ?? '',
        l.locationName ?? '',
        l.batchNo,
        QUALITY[l.qualityStatus] ?? l.qualityStatus,
        Number(l.bookQuantity),
        Number(l.countedQuantity),
        Number(l.difference),
        Number(l.unitCost),
        Number(l.amount),
      ].map(neutralise),
    );
  }
  const t = report.totals;
  ws.addRow([]);
  // One figure when one unit; else per unit, as text (件 12 · kg 3.5).
  const quantity = (q: string | null, list: { unitName: string; quantity: string }[]) =>
    q != null ? Number(q) : list.map((u) => `${u.unitName} ${Number(u.quantity)}`).join(' · ');
  ws.addRow(['合计', '盘盈数量', quantity(t.gainQuantity, t.gainByUnit), '盘盈金额', Number(t.gainAmount)]);
  ws.addRow(['', '盘亏数量', quantity(t.lossQuantity, t.lossByUnit), '盘亏金额', Number(t.lossAmount)]);
  ws.addRow(['', '', '', '净盈亏金额', Number(t.netAmount)]);
  ws.views = [{ state: 'frozen', ySplit: 2 }];
  return wb;
}

const unitSums = z.array(z.object({ unitName: z.string(), quantity: z.string() }));
/** `DifferenceReport` (packages/domain) as answered. */
const differenceAnswer = z.object({
  docNo: z.string(),
  status: z.string(),
  warehouseName: z.string().nullable(),
  bizDate: z.string(),
  valuedAt: z.enum(['posting', 'current average']),
  lines: z.array(
    z.object({
      lineNo: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      spec: z.string().nullable(),
      unitName: z.string().nullable(),
      locationName: z.string().nullable(),
      batchNo: z.string().nullable(),
      qualityStatus: z.string(),
      bookQuantity: z.string(),
      countedQuantity: z.string(),
      difference: z.string(),
      unitCost: z.string(),
      amount: z.string(),
    }),
  ),
  totals: z.object({
    gainQuantity: z.string().nullable(),
    lossQuantity: z.string().nullable(),
    gainByUnit: unitSums,
    lossByUnit: unitSums,
    gainAmount: z.string(),
    lossAmount: z.string(),
    netAmount: z.string(),
  }),
});

export function stocktakeReportRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/stocktake/difference/:id',
    permission: 'warehouse:stocktake:list',
    params: idParams,
    response: differenceAnswer,
    handler: ({ params, app: { db } }) => differenceReport(db, params.id),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/stocktake/differenceExport/:id',
    permission: 'warehouse:stocktake:export',
    params: idParams,
    response: z.object({ fileName: z.string(), rows: z.number().int() }),
    async handler({ params, user, app: { db, config } }) {
      const report = await differenceReport(db, params.id);
      const wb = await reportWorkbook(report);
      const { file, fileName } = newExportFile(config.exportDir, user.id, `盘点差异表-${report.docNo}`);
      await wb.xlsx.writeFile(file);
      return { fileName, rows: report.lines.length };
    },
  });
}
