import { MESSAGE_KINDS, SHIFT_MINUTES } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAW_ROLLUP_SELECT } from '../src/modules/production/report-rollup.ts';
import { businessDay } from '../src/platform/numbering.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { stockInvariantViolations } from './stock-helpers.ts';

/**
 * The demo factory (`SEED=demo`) is consistent and shows every warehouse screen something. Run on
 * PGlite only: the seed's SQL is the same on both databases, and the browser flows seed the demo on
 * PostgreSQL (a seed failure there stops them), so a second pass would cost a minute of CI for
 * nothing new.
 */
const ON_POSTGRES = !!process.env.TEST_DATABASE_URL;
let t: TestApp;
let token: string;
beforeAll(async () => {
  if (ON_POSTGRES) return;
  t = await createTestApp({}, 'demo');
  token = await t.login();
}, 300_000);
afterAll(() => t?.close());

describe.skipIf(ON_POSTGRES)('demo data', () => {
  it('has inspection tasks in every state, one 让步接收, one failed 首检 holding its card', async () => {
    const states = await sql<{ status: string; n: number }>`
      SELECT status, count(*)::int AS n FROM inspection_task GROUP BY status`.execute(t.database.db);
    expect(states.rows.map((r) => r.status).sort()).toEqual([
      'conceded',
      'failed',
      'inspecting',
      'passed',
      'pending',
    ]);
    const failed = await sql<{ checkKind: string; held: boolean }>`
      SELECT t.check_kind, c.held FROM inspection_task t JOIN flow_card c ON c.id = t.flow_card_id
       WHERE t.status = 'failed'`.execute(t.database.db);
    expect(failed.rows).toEqual([{ checkKind: 'first', held: true }]);
    const qc = await t.login('qc01', 'demo123');
    const waiting = await t.call('GET', '/api/v1/inspection-task/page', {
      token: qc,
      query: { status: 'pending' },
    });
    expect(waiting.body.result.total).toBeGreaterThan(0);
  });
  it('has 车间来料 at 磨加工 from the cards: older lots passed, two waiting for qc01', async () => {
    const qc = await t.login('qc01', 'demo123');
    const page = await t.call('GET', '/api/v1/inspection-task/page', {
      token: qc,
      query: { category: 'grinding-incoming', pageSize: 50 },
    });
    expect(page.status).toBe(200);
    const tasks = page.body.result.list as { status: string; flowCardId: number | null }[];
    expect(tasks.filter((x) => x.status === 'pending')).toHaveLength(2);
    expect(tasks.filter((x) => x.status === 'passed').length).toBeGreaterThan(0);
    expect(tasks.every((x) => x.flowCardId)).toBe(true);
  });
  it("plans the ring dimensions' limits from the ring standard for the task's product", async () => {
    // 内径 of a 6205-2RS (P0, d = 25, 18 < d ≤ 30): Δdmp 0/−10 μm, not the item's typed 20 mm.
    const r = await sql<{ limitSource: string; lower: string; upper: string }>`
      SELECT i.limit_source, i.lower_limit::text AS lower, i.upper_limit::text AS upper
        FROM inspection_task_item i JOIN inspection_task t ON t.id = i.inspection_task_id
        JOIN material m ON m.id = t.product_id
       WHERE i.ring_characteristic = 'dmp' AND m.code = 'FG-6205-2RS' LIMIT 1`.execute(t.database.db);
    expect(r.rows[0]).toEqual({ limitSource: 'standard', lower: '24.9900', upper: '25.0000' });
    const sources = await sql<{ limitSource: string }>`
      SELECT DISTINCT limit_source FROM inspection_task_item WHERE ring_characteristic IS NOT NULL`.execute(
      t.database.db,
    );
    expect(sources.rows.map((x) => x.limitSource)).toContain('standard');
  });
  it('checks each 6205 ring step for its own part and stage (issue 35)', async () => {
    // Every task planned for a ring or a bearing: items of its own part only.
    const wrongPart = await sql<{ code: string; item: string }>`
      SELECT m.code, i.item_title AS item FROM inspection_task_item i
        JOIN inspection_task t ON t.id = i.inspection_task_id JOIN material m ON m.id = t.product_id
        JOIN inspection_item it ON it.id = i.item_id
       WHERE (m.part_type = 'outer' AND (it.ring_characteristic IN ('dmp', 'Vdsp', 'Vdmp', 'Kia') OR it.feature = 'bore'))
          OR (m.part_type = 'inner' AND (it.ring_characteristic IN ('Dmp', 'VDsp', 'VDmp', 'Kea') OR it.feature = 'outside'))`.execute(
      t.database.db,
    );
    expect(wrongPart.rows).toEqual([]);
    const setOf = async (product: string, process: string) => {
      const r = await sql<{ id: number; sizeStage: string | null; documentId: number | null }>`
        SELECT t.id, t.size_stage, t.technical_document_id AS document_id FROM inspection_template t
          JOIN material m ON m.id = t.product_id JOIN process p ON p.id = t.process_id
         WHERE m.code = ${product} AND p.code = ${process} AND t.inspection_kind = 'reporting'`.execute(
        t.database.db,
      );
      expect(r.rows, `${product} ${process}`).toHaveLength(1);
      const info = (await t.call('GET', `/api/v1/inspection-template/info/${r.rows[0].id}`, { token })).body
        .result;
      return { ...r.rows[0], lines: info.items.map((l: any) => [l.itemName, l.nominal, l.allowance]) };
    };
    // 车外圈: D 52 + 0.40, width 15 + 0.30, raceway 46.438 − 0.40 — no bore d; from the ring's drawing.
    const orTurn = await setOf('SF-6205-OR-P6', 'GX040');
    expect(orTurn.sizeStage).toBe('turning');
    expect(orTurn.documentId).not.toBeNull();
    expect(orTurn.lines).toEqual([
      ['外径 D', '52.4000', '0.4000'],
      ['宽度 B', '15.3000', '0.3000'],
      ['沟道直径', '46.0380', '0.4000'],
      ['外观（磕碰、锈蚀、烧伤）', null, null],
    ]);
    // 车内圈: d 25 − 0.40.
    expect((await setOf('SF-6205-IR-P6', 'GX050')).lines[0]).toEqual(['内径 d', '24.6000', '0.4000']);
    // 超精: the raceway's Ra and roundness.
    const sf = await setOf('SF-6205-OR-P6', 'GX110');
    expect(sf.lines.map((l: any[]) => l[0])).toEqual([
      '沟道粗糙度 Ra',
      '沟道圆度',
      '外观（磕碰、锈蚀、烧伤）',
    ]);
    // A task of 车外圈 on the outer ring: D at 52.35–52.45 from the drawing, not P6's 51.989–52.
    const task = await sql<{ lower: string; upper: string; source: string }>`
      SELECT i.lower_limit::text AS lower, i.upper_limit::text AS upper, i.limit_source AS source
        FROM inspection_task_item i JOIN inspection_task t ON t.id = i.inspection_task_id
        JOIN material m ON m.id = t.product_id JOIN process p ON p.id = t.process_id
       WHERE m.code LIKE 'SF-6205-OR-%' AND p.code = 'GX040' AND i.item_title = '外径 D'`.execute(
      t.database.db,
    );
    expect(task.rows.length).toBeGreaterThan(0);
    for (const r of task.rows) expect(r).toEqual({ lower: '52.3500', upper: '52.4500', source: 'drawing' });
    const turnedItems = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM inspection_task_item i JOIN inspection_task t ON t.id = i.inspection_task_id
        JOIN process p ON p.id = t.process_id
       WHERE p.code IN ('GX030', 'GX040', 'GX050') AND i.limit_source = 'standard'`.execute(t.database.db);
    // No turned ring is judged by the finished ISO 492 limits.
    expect(turnedItems.rows[0].n).toBe(0);
  });

  it('keeps every balance equal to the sum of its ledger', async () => {
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
    const docs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM stock_ledger`.execute(t.database.db);
    expect(docs.rows[0].n).toBeGreaterThan(20);
  });

  it('has a material below its safety minimum, and its keepers were told', async () => {
    const alerts = await t.call('GET', '/api/v1/stock-alert/page', { token, query: { kind: 'below' } });
    expect(alerts.status).toBe(200);
    expect(alerts.body.result.total).toBeGreaterThan(0);
    const low = alerts.body.result.list[0];
    const told = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM message
       WHERE kind = 'stock-alert' AND link = ${`/warehouse-logistics/inventory-details?materialId=${low.materialId}`}`.execute(
      t.database.db,
    );
    expect(told.rows[0].n).toBeGreaterThan(0);
  });

  it('numbers and stamps stock documents and their ledger rows by their business dates', async () => {
    const rows = await sql<{
      docNo: string;
      bizDate: string;
      created: string;
      posted: string;
      ledger: string;
    }>`
      SELECT d.doc_no, d.biz_date::text AS biz_date,
             to_char(d.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS created,
             to_char(d.posted_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS posted,
             (SELECT string_agg(DISTINCT to_char(l.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD'), ',')
                FROM stock_ledger l WHERE l.doc_no = d.doc_no) AS ledger
        FROM (SELECT doc_no, biz_date, created_at, posted_at FROM stock_inbound
              UNION ALL SELECT doc_no, biz_date, created_at, posted_at FROM stock_outbound
              UNION ALL SELECT doc_no, biz_date, created_at, posted_at FROM stock_transfer
              UNION ALL SELECT doc_no, biz_date, created_at, posted_at FROM stocktake) d`.execute(
      t.database.db,
    );
    expect(rows.rows.length).toBeGreaterThan(20);
    const days = new Set(rows.rows.map((r) => r.bizDate));
    expect(days.size).toBeGreaterThan(5);
    for (const r of rows.rows) {
      expect(r.docNo.slice(2, 10), r.docNo).toBe(r.bizDate.replaceAll('-', ''));
      expect(r.created, r.docNo).toBe(r.bizDate);
      if (r.posted) expect(r.posted, r.docNo).toBe(r.bizDate);
      if (r.ledger) expect(r.ledger, r.docNo).toBe(r.bizDate);
    }
  });

  it('labels every kind of message it holds (消息中心 never shows a raw code)', async () => {
    const kinds = await sql<{ kind: string }>`SELECT DISTINCT kind FROM message`.execute(t.database.db);
    expect(kinds.rows.length).toBeGreaterThan(1);
    for (const { kind } of kinds.rows) expect(Object.keys(MESSAGE_KINDS)).toContain(kind);
  });

  it("has six weeks of 测量记录 with each subgroup's statistics equal to its values; EQ-MJ-003 drifted and raised SPC messages", async () => {
    const db = t.database.db;
    const bad = await sql<{ n: number; subgroups: number }>`
      SELECT count(*) FILTER (WHERE s.sample_size <> a.n OR s.mean <> round(a.m, 6) OR s.range <> a.r
                                 OR s.ss_dev <> round(a.ss, 10))::int AS n,
             count(*)::int AS subgroups
        FROM measurement_subgroup s
        JOIN (SELECT measurement_subgroup_id AS id, count(*)::int AS n, avg(value) AS m, max(value) - min(value) AS r,
                     sum(value * value) - sum(value) * sum(value) / count(*) AS ss
                FROM measurement_value GROUP BY 1) a ON a.id = s.id`.execute(db);
    // 4,100 single-value subgroups, 400 of the 选配 ring lots (issue 38 §4) and 240 of reading sets (§3).
    expect(bad.rows[0]).toEqual({ n: 0, subgroups: 4740 });
    const span = await sql<{ days: number; late: boolean }>`
      SELECT (max(measured_at)::date - min(measured_at)::date)::int AS days,
             max(measured_at) > now() - interval '3 hours' AS late
        FROM measurement_subgroup`.execute(db);
    expect(span.rows[0].late).toBe(true);
    expect(span.rows[0].days).toBeGreaterThanOrEqual(41);
    const spc = await sql<{ title: string }>`SELECT DISTINCT title FROM message WHERE kind = 'spc'`.execute(
      db,
    );
    expect(spc.rows.length).toBeGreaterThan(0);
    for (const m of spc.rows) expect(m.title).toMatch(/^SPC 失控：无心磨床 外径/);
  });

  it('has frozen limits with a revision and an alarm judged against them (issue 38 §2)', async () => {
    const db = t.database.db;
    const revisions = await sql<{ version: number; status: string; exclusions: number; approved: boolean }>`
      SELECT r.version, r.status, (SELECT count(*)::int FROM spc_limit_exclusion x WHERE x.revision_id = r.id) AS exclusions,
             r.approved_at IS NOT NULL AS approved
        FROM spc_limit_revision r JOIN equipment e ON e.id = r.equipment_id JOIN material m ON m.id = r.product_id
       WHERE e.code = 'EQ-MJ-003' AND m.code = 'SF-6205-OR-P6' ORDER BY r.version`.execute(db);
    expect(revisions.rows).toEqual([
      { version: 1, status: 'superseded', exclusions: 0, approved: true },
      { version: 2, status: 'approved', exclusions: 1, approved: true },
    ]);
    // The drift's violations were judged against 第 2 版, and its message says so.
    const judged = await sql<{ version: number; n: number }>`
      SELECT r.version, count(*)::int AS n FROM spc_violation v JOIN spc_limit_revision r ON r.id = v.revision_id
       GROUP BY r.version`.execute(db);
    expect(judged.rows.map((x) => x.version)).toEqual([2]);
    expect(judged.rows[0].n).toBeGreaterThan(0);
    const message = await sql<{ content: string }>`
      SELECT content FROM message WHERE kind = 'spc' ORDER BY id LIMIT 1`.execute(db);
    expect(message.rows[0].content).toContain('按冻结控制限第 2 版');
  });

  it('has ring reading sets (issue 38 §3): 6206 bore and OD 4 × 2, width 4 × 1, a few oval rings 超差, no 挡边角度', async () => {
    const r = await sql<{ characteristic: string; rings: number; fail: number; shape: string }>`
      SELECT s.characteristic, count(*)::int AS rings, count(*) FILTER (WHERE r.verdict = 'fail')::int AS fail,
             min(r.points || '×' || r.planes) AS shape
        FROM ring_reading_set r JOIN measurement_subgroup s ON s.id = r.measurement_subgroup_id
       GROUP BY 1 ORDER BY 1`.execute(t.database.db);
    expect(r.rows.map((x) => [x.characteristic, x.rings, x.shape])).toEqual([
      ['bore-diameter', 600, '4×2'],
      ['outside-diameter', 300, '4×2'],
      ['ring-height', 300, '4×1'],
    ]);
    expect(r.rows[0].fail).toBeGreaterThan(0);
    // Each set's value is its ring's value in the subgroup.
    const off = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ring_reading_set r JOIN measurement_value v ON v.id = r.measurement_value_id
       WHERE round(r.mean_mm, 6) <> v.value`.execute(t.database.db);
    expect(off.rows[0].n).toBe(0);
    const angles = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM measurement_subgroup WHERE characteristic = 'rib-angle'`.execute(
      t.database.db,
    );
    expect(angles.rows[0].n).toBe(0);
  });

  it('has no work report stamped after the moment it was seeded (the 看板 lists the latest first)', async () => {
    const r = await sql<{ n: number; total: number }>`
      SELECT count(*) FILTER (WHERE created_at > now() OR posted_at > now() OR updated_at > now())::int AS n,
             count(*)::int AS total
        FROM work_report`.execute(t.database.db);
    expect(r.rows[0].total).toBeGreaterThan(0);
    expect(r.rows[0].n).toBe(0);
  });

  it('has a posted stocktake with gains and losses in its difference report', async () => {
    const list = await t.call('GET', '/api/v1/stocktake/page', { token, query: { status: 'posted' } });
    expect(list.body.result.total).toBeGreaterThan(0);
    const report = await t.call('GET', `/api/v1/stocktake/difference/${list.body.result.list[0].id}`, {
      token,
    });
    expect(report.body.result.totals).toMatchObject({ gainQuantity: '2.0000', lossQuantity: '3.0000' });
  });

  it('has sales orders of the last three months, numbered by their order dates, drafts to closed', async () => {
    const rows = await sql<{ docNo: string; orderDate: string; status: string; created: string }>`
      SELECT doc_no, order_date::text AS order_date, status,
             to_char(created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS created
        FROM sale_order ORDER BY order_date`.execute(t.database.db);
    expect(rows.rows.length).toBeGreaterThanOrEqual(30);
    for (const r of rows.rows) {
      expect(r.docNo.slice(2, 10)).toBe(r.orderDate.replaceAll('-', ''));
      expect(r.created).toBe(r.orderDate);
    }
    expect(new Set(rows.rows.map((r) => r.status))).toEqual(
      new Set(['draft', 'approved', 'producing', 'partly-shipped', 'completed', 'closed']),
    );
    // Shipped quantities are exactly what the posted 销售出库 minus 销售退货入库 against each line say.
    const drift = await sql<{ id: number }>`
      SELECT l.id FROM sale_order_line l
       WHERE l.shipped_quantity <> COALESCE((SELECT sum(ol.base_quantity) FROM stock_outbound_line ol
                                               JOIN stock_outbound d ON d.id = ol.stock_outbound_id
                                              WHERE ol.source_line_id = l.id AND d.sale_order_id = l.sale_order_id
                                                AND d.status = 'posted'), 0)
                                 - COALESCE((SELECT sum(il.base_quantity) FROM stock_inbound_line il
                                               JOIN stock_inbound d ON d.id = il.stock_inbound_id
                                              WHERE il.source_line_id = l.id AND d.sale_order_id = l.sale_order_id
                                                AND d.status = 'posted'), 0)`.execute(t.database.db);
    expect(drift.rows).toEqual([]);
    const returns = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM stock_inbound WHERE type = 'sales-return' AND sale_order_id IS NOT NULL`.execute(
      t.database.db,
    );
    expect(returns.rows[0].n).toBe(1);
    const sales = await t.login('sales01', 'demo123');
    const drafts = await t.call('GET', '/api/v1/sale-order/page', {
      token: sales,
      query: { status: 'draft' },
    });
    expect(drafts.body.result.total).toBeGreaterThan(0);
  });

  it('has purchase orders in every state, received against their lines, with one return', async () => {
    const states = await sql<{ status: string }>`SELECT DISTINCT status FROM purchase_order`.execute(
      t.database.db,
    );
    expect(new Set(states.rows.map((r) => r.status))).toEqual(
      new Set(['draft', 'approved', 'partly-received', 'completed']),
    );
    const drift = await sql<{ id: number }>`
      SELECT l.id FROM purchase_order_line l
       WHERE l.received_quantity <> COALESCE((SELECT sum(il.base_quantity) FROM stock_inbound_line il
                                                JOIN stock_inbound d ON d.id = il.stock_inbound_id
                                               WHERE il.source_line_id = l.id AND d.purchase_order_id = l.purchase_order_id
                                                 AND d.status = 'posted'), 0)
          OR l.returned_quantity <> COALESCE((SELECT sum(ol.base_quantity) FROM stock_outbound_line ol
                                                JOIN stock_outbound d ON d.id = ol.stock_outbound_id
                                               WHERE ol.source_line_id = l.id AND d.purchase_order_id = l.purchase_order_id
                                                 AND d.status = 'posted'), 0)`.execute(t.database.db);
    expect(drift.rows).toEqual([]);
    const buyer = await t.login('buy01', 'demo123');
    const page = await t.call('GET', '/api/v1/purchase-order/page', {
      token: buyer,
      query: { status: 'approved' },
    });
    expect(page.status).toBe(200);
    expect(page.body.result.total).toBeGreaterThan(0);
  });

  it('has one outsourcing order out for heat treatment: sent in full, partly back, agreeing with its documents', async () => {
    const r = await sql<Record<string, any>>`
      SELECT o.doc_no, o.status, to_char(o.order_date, 'YYYYMMDD') AS order_date, p.name AS process,
             l.base_quantity, l.sent_quantity, l.received_quantity, l.sent_weight,
             (SELECT COALESCE(sum(ol.base_quantity), 0) FROM stock_outbound_line ol JOIN stock_outbound d ON d.id = ol.stock_outbound_id
               WHERE ol.source_line_id = l.id AND d.outsourcing_order_id = o.id AND d.status = 'posted' AND d.type = 'outsourcing') AS sent_docs,
             (SELECT COALESCE(sum(il.base_quantity), 0) FROM stock_inbound_line il JOIN stock_inbound d ON d.id = il.stock_inbound_id
               WHERE il.source_line_id = l.id AND d.outsourcing_order_id = o.id AND d.status = 'posted') AS received_docs
        FROM outsourcing_order o JOIN outsourcing_order_line l ON l.outsourcing_order_id = o.id
        JOIN process p ON p.id = o.process_id
       WHERE NOT EXISTS (SELECT 1 FROM flow_card_outsourcing x WHERE x.outsourcing_order_id = o.id)`.execute(
      t.database.db,
    );
    expect(r.rows.length).toBeGreaterThan(0);
    for (const x of r.rows) {
      expect(x).toMatchObject({ status: 'partly-received', process: '热处理' });
      expect(x.docNo.slice(2, 10)).toBe(x.orderDate);
      expect(Number(x.sentQuantity)).toBe(Number(x.baseQuantity));
      expect(Number(x.receivedQuantity)).toBeGreaterThan(0);
      expect(Number(x.receivedQuantity)).toBeLessThan(Number(x.sentQuantity));
      expect(Number(x.sentWeight)).toBeGreaterThan(0);
      expect([Number(x.sentDocs), Number(x.receivedDocs)]).toEqual([
        Number(x.sentQuantity),
        Number(x.receivedQuantity),
      ]);
    }
    const buyer = await t.login('buy01', 'demo123');
    const page = await t.call('GET', '/api/v1/outsourcing-order/page', { token: buyer });
    expect(page.body.result.total).toBeGreaterThan(1);
  });

  it('sends its heat-treatment cards through 委外订单, 委外发料 and 委外入库, one card still out', async () => {
    const db = t.database.db;
    const r = await sql<Record<string, any>>`
      SELECT x.action, count(*)::int AS n,
             count(*) FILTER (WHERE COALESCE(ob.status, ib.status, 'posted') = 'posted')::int AS posted
        FROM flow_card_outsourcing x
        LEFT JOIN stock_outbound ob ON ob.id = x.stock_outbound_id
        LEFT JOIN stock_inbound ib ON ib.id = x.stock_inbound_id
       GROUP BY x.action`.execute(db);
    const by = Object.fromEntries(r.rows.map((x) => [x.action, x]));
    expect(by.send.n).toBeGreaterThan(1);
    expect(by.send.posted).toBe(by.send.n);
    expect(by.return.posted).toBe(by.return.n);
    expect(by.send.n - by.return.n).toBe(1);
    // One 委外订单 per ring order, numbered by its date; the buyer closed those whose cards all came
    // back, and only the one with the card still out is open.
    const orders = await sql<{ docNo: string; orderDate: string; status: string; cards: number }>`
      SELECT o.doc_no, to_char(o.order_date, 'YYYYMMDD') AS order_date, o.status,
             (SELECT count(DISTINCT x.flow_card_id)::int FROM flow_card_outsourcing x WHERE x.outsourcing_order_id = o.id) AS cards
        FROM outsourcing_order o WHERE o.production_order_id IS NOT NULL`.execute(db);
    expect(orders.rows.length).toBeGreaterThan(5);
    for (const o of orders.rows) expect(o.docNo).toContain(o.orderDate);
    expect(orders.rows.filter((o) => o.status !== 'closed').map((o) => o.status)).toEqual([
      'partly-received',
    ]);
    expect(Math.max(...orders.rows.map((o) => o.cards))).toBeGreaterThan(1);
    // The card steps agree with their documents, and the 委外入库 made their payables.
    const off = await sql`
      SELECT s.id FROM flow_card_step s
       WHERE s.outsourced AND COALESCE(s.sent_quantity, 0) <>
             (SELECT COALESCE(sum(quantity), 0) FROM flow_card_outsourcing WHERE flow_card_step_id = s.id AND action = 'send')`.execute(
      db,
    );
    expect(off.rows).toEqual([]);
    const unpaid = await sql`
      SELECT x.id FROM flow_card_outsourcing x WHERE x.action = 'return'
         AND NOT EXISTS (SELECT 1 FROM payable p WHERE p.source_doc_type = 'stock-inbound' AND p.source_doc_id = x.stock_inbound_id)`.execute(
      db,
    );
    expect(unpaid.rows).toEqual([]);
  });

  it('has stock-up orders drafted, approved and closed, numbered by their dates', async () => {
    const r = await sql<{ status: string; docNo: string; orderDate: string }>`
      SELECT status, doc_no, to_char(order_date, 'YYYYMMDD') AS order_date FROM stock_up_order`.execute(
      t.database.db,
    );
    expect(new Set(r.rows.map((x) => x.status))).toEqual(new Set(['draft', 'approved', 'closed']));
    for (const x of r.rows) expect(x.docNo.slice(2, 10)).toBe(x.orderDate);
  });

  it('has requisitions in every state; ordered quantities agree with the purchase orders; the buyer has lines to order', async () => {
    const states = await sql<{ status: string }>`SELECT DISTINCT status FROM purchase_requisition`.execute(
      t.database.db,
    );
    expect(new Set(states.rows.map((r) => r.status))).toEqual(
      new Set(['draft', 'approved', 'partly-ordered', 'ordered', 'closed']),
    );
    const drift = await sql<{ id: number }>`
      SELECT l.id FROM purchase_requisition_line l
       WHERE l.ordered_quantity <> COALESCE((SELECT sum(pl.base_quantity) FROM purchase_order_line pl
                                              WHERE pl.requisition_line_id = l.id), 0)`.execute(
      t.database.db,
    );
    expect(drift.rows).toEqual([]);
    const numbers = await sql<{ docNo: string; requestDate: string }>`
      SELECT doc_no, to_char(request_date, 'YYYYMMDD') AS request_date FROM purchase_requisition`.execute(
      t.database.db,
    );
    for (const r of numbers.rows) expect(r.docNo.slice(2, 10)).toBe(r.requestDate);
    const buyer = await t.login('buy01', 'demo123');
    const open = await t.call('GET', '/api/v1/purchase-requisition/open-lines', { token: buyer });
    expect(open.status).toBe(200);
    expect(open.body.result.total).toBeGreaterThan(0);
  });

  it('has production orders of the last six weeks from the sales orders, drafts to completed; the planner has work', async () => {
    const db = t.database.db;
    const rows = await sql<{
      docNo: string;
      start: string;
      status: string;
      created: string;
      sourceType: string;
    }>`
      SELECT doc_no, to_char(planned_start_date, 'YYYYMMDD') AS start, status, source_type,
             to_char(created_at AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDD') AS created
        FROM production_order`.execute(db);
    // About 40: the bearing orders and their rings (生成自制件订单).
    expect(rows.rows.length).toBeGreaterThanOrEqual(30);
    expect(rows.rows.length).toBeLessThanOrEqual(60);
    // Numbered by their planned start; made on the day they were planned, never after it nor today.
    const today = businessDay().replaceAll('-', '');
    for (const r of rows.rows) {
      expect(r.docNo.slice(2, 10)).toBe(r.start);
      expect(r.created <= r.start, r.docNo).toBe(true);
      expect(r.created <= today, r.docNo).toBe(true);
    }
    expect(new Set(rows.rows.map((r) => r.status))).toEqual(
      new Set(['draft', 'released', 'producing', 'completed', 'closed']),
    );
    expect(rows.rows.filter((r) => r.sourceType === 'sales').length).toBeGreaterThanOrEqual(13);
    // Each order is where its dates put it: one order under way is late (in assembly past its due
    // date), no other; no assembly runs before its rings are made; nothing under way starts later.
    const story = await sql<{ late: number; ahead: number; early: number }>`
      SELECT count(*) FILTER (WHERE o.status IN ('released', 'producing') AND o.due_date < ${businessDay()}::date)::int AS late,
             count(*) FILTER (WHERE o.status IN ('producing', 'completed') AND EXISTS (
               SELECT 1 FROM production_order r WHERE r.parent_order_id = o.id AND r.status <> 'completed'))::int AS ahead,
             count(*) FILTER (WHERE o.status = 'producing' AND o.planned_start_date > ${businessDay()}::date)::int AS early
        FROM production_order o`.execute(db);
    expect(story.rows[0]).toEqual({ late: 1, ahead: 0, early: 0 });
    // Issued quantities are exactly the posted 领料出库 against each requirement.
    const drift = await sql<{ id: number }>`
      SELECT pm.id FROM production_order_material pm
       WHERE pm.issued_quantity <> COALESCE((SELECT sum(ol.base_quantity) FROM stock_outbound_line ol
                                               JOIN stock_outbound d ON d.id = ol.stock_outbound_id
                                              WHERE ol.source_line_id = pm.id AND d.production_order_id = pm.production_order_id
                                                AND d.status = 'posted'), 0)`.execute(db);
    expect(drift.rows).toEqual([]);
    const issued = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM production_order_material WHERE issued_quantity > 0`.execute(db);
    expect(issued.rows[0].n).toBeGreaterThan(0);
    // A sales order is 生产中 exactly when one of its production orders is under way.
    const wrong = await sql<{ docNo: string }>`
      SELECT o.doc_no FROM sale_order o
       WHERE o.status IN ('approved', 'producing')
         AND (o.status = 'producing') <> EXISTS (SELECT 1 FROM production_order p WHERE p.sale_order_id = o.id
                                                   AND p.status IN ('released', 'producing', 'completed'))`.execute(
      db,
    );
    expect(wrong.rows).toEqual([]);
    const planner = await t.login('plan01', 'demo123');
    const released = await t.call('GET', '/api/v1/production-order/page', {
      token: planner,
      query: { status: 'released' },
    });
    expect(released.body.result.total).toBeGreaterThan(0);
    const shortages = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM production_order_material pm JOIN production_order p ON p.id = pm.production_order_id
       WHERE p.status = 'released' AND pm.shortage_quantity > 0`.execute(db);
    expect(shortages.rows[0].n).toBeGreaterThan(0);
    const open = await t.call('GET', '/api/v1/production-order/sale-lines', { token: planner });
    expect(open.status).toBe(200);
  });

  it('has workshop tasks in every workshop and state; op01 and op02 land on their own queues; the head on his board', async () => {
    const db = t.database.db;
    const states = await sql<{ workshopType: string; status: string; n: number }>`
      SELECT workshop_type, status, count(*)::int AS n FROM workshop_task GROUP BY 1, 2`.execute(db);
    for (const type of ['machine', 'grinding', 'inspect', 'assembly']) {
      expect(states.rows.filter((r) => r.workshopType === type).length, type).toBeGreaterThan(1);
    }
    for (const status of ['pending', 'dispatched', 'started', 'paused', 'completed', 'closed']) {
      expect(
        states.rows.some((r) => r.status === status),
        status,
      ).toBe(true);
    }
    // Dispatches never exceed their tasks, and every task counts its dispatches.
    const off = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM workshop_task t
       WHERE t.dispatched_quantity <> COALESCE((SELECT sum(CASE WHEN d.status = 'closed' THEN d.reported_quantity ELSE d.quantity END)
                                                 FROM work_dispatch d WHERE d.task_id = t.id), 0)
          OR t.dispatched_quantity > t.planned_quantity`.execute(db);
    expect(off.rows[0].n).toBe(0);
    // Work waiting for its turn is given out a shift's worth at a time: no waiting dispatch
    // overloads its shift, and the 20,000-piece stock-up order is not all given out at once.
    const over = await sql<{ n: number; big: number }>`
      SELECT count(*) FILTER (WHERE d.quantity * t.standard_minutes > ${SHIFT_MINUTES})::int AS n,
             count(*) FILTER (WHERE t.planned_quantity >= 10000 AND t.dispatched_quantity >= t.planned_quantity)::int AS big
        FROM work_dispatch d JOIN workshop_task t ON t.id = d.task_id
       WHERE d.status = 'dispatched' AND t.standard_minutes > 0`.execute(db);
    expect(over.rows[0]).toEqual({ n: 0, big: 0 });
    // Work is given out a shift at a time and spread over the workshop's machines: no machine's
    // shift, past or to come, holds more than its minutes.
    const crowded = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM work_dispatch d WHERE d.status <> 'closed' AND d.equipment_id IS NOT NULL
         GROUP BY d.equipment_id, d.work_date, d.shift
        HAVING sum(d.planned_minutes) > ${SHIFT_MINUTES}) x`.execute(db);
    expect(crowded.rows[0].n).toBe(0);
    // Each shift reported its own work: every finished dispatch reported good pieces, none more
    // than it was given, and every report lies in its dispatch's shift (白班 08:00, 夜班 20:00, 12 h).
    const shifts = await sql<{ empty: number; over: number; outside: number }>`
      SELECT (SELECT count(*) FROM work_dispatch WHERE status = 'completed' AND reported_quantity = 0)::int AS empty,
             (SELECT count(*) FROM work_dispatch d
               WHERE reported_quantity > quantity
                  OR (SELECT sum(good_quantity + work_scrap_quantity + material_scrap_quantity)
                        FROM work_report r WHERE r.dispatch_id = d.id) > d.quantity)::int AS over,
             (SELECT count(*) FROM work_report r JOIN work_dispatch d ON d.id = r.dispatch_id
                CROSS JOIN LATERAL (SELECT (d.work_date + CASE WHEN d.shift = 'night' THEN time '20:00' ELSE time '08:00' END)
                                           AT TIME ZONE 'Asia/Shanghai' AS begins) s
               WHERE r.created_at < s.begins OR r.created_at >= s.begins + interval '12 hours')::int AS outside`.execute(
      db,
    );
    expect(shifts.rows[0]).toEqual({ empty: 0, over: 0, outside: 0 });
    for (const [user, type] of [
      ['op01', 'machine'],
      ['op02', 'grinding'],
      // 检测车间's work is given to the inspector, who runs it from his own queue.
      ['qc01', 'inspect'],
    ]) {
      const op = await t.login(user, 'demo123');
      const queue = await t.call('GET', '/api/v1/work-dispatch/mine', {
        token: op,
        query: { workshopType: type },
      });
      expect(queue.status, user).toBe(200);
      expect(queue.body.result.list.length, user).toBeGreaterThan(0);
      expect(
        queue.body.result.list.some((d: any) => ['started', 'dispatched'].includes(d.status)),
        user,
      ).toBe(true);
    }
    // An operator's menu holds the workshops he works in (his teams), not all four: op01 turns and
    // assembles, op02 grinds and assembles; neither reaches another workshop's queue.
    for (const [user, own, others] of [
      ['op01', ['machine', 'assembly-workshop'], ['grinding', 'inspect-workshop']],
      ['op02', ['grinding', 'assembly-workshop'], ['machine', 'inspect-workshop']],
    ] as const) {
      const token = await t.login(user, 'demo123');
      const info = await t.call('GET', '/api/v1/sso/getUserByToken', { token });
      const pages = JSON.stringify(info.body.result.menuList);
      for (const segment of own)
        expect(pages, `${user} ${segment}`).toContain(`/production-manage/${segment}/operator-task`);
      for (const segment of others)
        expect(pages, `${user} ${segment}`).not.toContain(`/production-manage/${segment}/`);
    }
    const turner = await t.login('op01', 'demo123');
    expect(
      (
        await t.call('GET', '/api/v1/work-dispatch/mine', {
          token: turner,
          query: { workshopType: 'grinding' },
        })
      ).status,
    ).toBe(403);
    // Operators report; the workshop approves (an operator never approves his own reports).
    const waiting = await sql<{
      id: number;
    }>`SELECT id FROM work_report WHERE status = 'submitted' LIMIT 1`.execute(db);
    expect(waiting.rows.length).toBe(1);
    const op = await t.login('op01', 'demo123');
    const approve = await t.call('POST', `/api/v1/work-report/approve/${waiting.rows[0].id}`, {
      token: op,
      body: {},
    });
    expect(approve.status).toBe(403);
    const head = await t.login('head01', 'demo123');
    const board = await t.call('GET', '/api/v1/workshop-task/board', {
      token: head,
      query: { workshopType: 'machine' },
    });
    expect(board.status).toBe(200);
    expect(board.body.result.list.length).toBeGreaterThan(3);
  });

  it('posts its shop floor as 报工 posts it: card steps, tasks, dispatches, wages and rollups agree with the reports', async () => {
    const db = t.database.db;
    const reports = await sql<{ status: string; n: number }>`
      SELECT status, count(*)::int AS n FROM work_report GROUP BY 1 ORDER BY 1`.execute(db);
    expect(reports.rows.map((r) => r.status)).toEqual(['inspecting', 'posted', 'submitted']);
    expect(reports.rows.find((r) => r.status === 'posted')?.n).toBeGreaterThan(150);
    // Every card step counts exactly its posted reports, and never more than arrived.
    const steps = await sql<{ id: number }>`
      SELECT s.id FROM flow_card_step s
        LEFT JOIN (SELECT flow_card_id, order_step_id, sum(good_quantity) AS g, sum(work_scrap_quantity) AS ws,
                          sum(material_scrap_quantity) AS ms
                     FROM work_report WHERE status = 'posted' GROUP BY 1, 2) r
          ON r.flow_card_id = s.flow_card_id AND r.order_step_id = s.order_step_id
       WHERE NOT s.outsourced
         AND (s.good_quantity <> COALESCE(r.g, 0) OR s.work_scrap_quantity <> COALESCE(r.ws, 0)
              OR s.material_scrap_quantity <> COALESCE(r.ms, 0)
              OR s.good_quantity + s.work_scrap_quantity + s.material_scrap_quantity > s.input_quantity)`.execute(
      db,
    );
    expect(steps.rows).toEqual([]);
    // A card's next step received the good pieces of the step before (heat treatment in between
    // hands on what came back).
    const handed = await sql<{ id: number }>`
      SELECT n.id FROM flow_card_step p
        JOIN LATERAL (SELECT * FROM flow_card_step x WHERE x.flow_card_id = p.flow_card_id AND x.seq > p.seq
                       ORDER BY x.seq LIMIT 1) n ON true
       WHERE NOT p.outsourced AND n.input_quantity <> p.good_quantity`.execute(db);
    expect(handed.rows).toEqual([]);
    const tasks = await sql<{ id: number }>`
      SELECT t.id FROM workshop_task t
        LEFT JOIN (SELECT task_id, sum(good_quantity) AS g, sum(work_scrap_quantity + material_scrap_quantity) AS s
                     FROM work_report WHERE status = 'posted' GROUP BY 1) r ON r.task_id = t.id
       WHERE t.completed_quantity <> COALESCE(r.g, 0) OR t.scrap_quantity <> COALESCE(r.s, 0)`.execute(db);
    expect(tasks.rows).toEqual([]);
    const dispatches = await sql<{ id: number }>`
      SELECT d.id FROM work_dispatch d
        LEFT JOIN (SELECT dispatch_id, sum(good_quantity) AS g FROM work_report WHERE status = 'posted' GROUP BY 1) r
          ON r.dispatch_id = d.id
       WHERE d.reported_quantity <> COALESCE(r.g, 0)`.execute(db);
    expect(dispatches.rows).toEqual([]);
    // One wage line per posted report, at the report's wage (the line exact, the report to the fen);
    // none for the others.
    const wages = await sql<{ id: number }>`
      SELECT r.id FROM work_report r
        LEFT JOIN (SELECT work_report_id, count(*) AS n, sum(amount) AS a FROM piece_wage GROUP BY 1) w
          ON w.work_report_id = r.id
       WHERE CASE WHEN r.status = 'posted' THEN w.n IS DISTINCT FROM 1 OR round(w.a, 2) <> r.wage_amount OR r.piece_rate IS NULL
                  ELSE w.n IS NOT NULL END`.execute(db);
    expect(wages.rows).toEqual([]);
    // Each inspected report that was approved raised its inspection task; the last step's reports
    // made their 生产入库.
    const raised = await sql<{ id: number }>`
      SELECT r.id FROM work_report r WHERE r.inspection_required AND r.status IN ('inspecting', 'posted')
         AND NOT EXISTS (SELECT 1 FROM inspection_task i WHERE i.work_report_id = r.id)`.execute(db);
    expect(raised.rows).toEqual([]);
    const finished = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM work_report r JOIN stock_inbound i ON i.id = r.stock_inbound_id
       WHERE i.type = 'production' AND i.status = 'posted'`.execute(db);
    expect(finished.rows[0].n).toBeGreaterThan(5);
    const rollup = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        (${RAW_ROLLUP_SELECT} EXCEPT SELECT month, workshop_id, process_id, product_id, operator_id, scrap_reason,
                                            report_count, good_quantity, work_scrap_quantity, material_scrap_quantity,
                                            rework_quantity, hours, standard_minutes
                                       FROM work_report_rollup WHERE product_id <> 0)) x`.execute(db);
    expect(rollup.rows[0].n).toBe(0);
  });

  it('has flow cards on the orders under way: every order covered, about 300, carts of at most 500, two split, one merged', async () => {
    const db = t.database.db;
    const gaps = await sql<{ docNo: string }>`
      SELECT p.doc_no FROM production_order p
       WHERE p.status IN ('released', 'producing')
         AND p.quantity <> (SELECT COALESCE(sum(c.quantity), 0) FROM flow_card c
                             WHERE c.production_order_id = p.id AND c.origin = 'open' AND c.status <> 'closed')`.execute(
      db,
    );
    expect(gaps.rows).toEqual([]);
    const by = await sql<{ status: string; n: number }>`
      SELECT status, count(*)::int AS n FROM flow_card GROUP BY status`.execute(db);
    const n = Object.fromEntries(by.rows.map((r) => [r.status, r.n]));
    expect(n).toMatchObject({ split: 2, merged: 2 });
    expect(n.open).toBeGreaterThan(50);
    // About 300 cards. No card opened holds more than a cart (500; a merge may join two), and the
    // 20,000-piece stock-up orders run on cards of a heat-treatment charge (300).
    const sizes = await sql<{ cards: number; biggest: string; run: string }>`
      SELECT count(*)::int AS cards, max(c.quantity) FILTER (WHERE c.origin = 'open')::text AS biggest,
             max(c.quantity) FILTER (WHERE c.origin = 'open' AND p.quantity >= 10000)::text AS run
        FROM flow_card c JOIN production_order p ON p.id = c.production_order_id`.execute(db);
    expect(sizes.rows[0].cards).toBeGreaterThanOrEqual(280);
    expect(Number(sizes.rows[0].biggest)).toBeLessThanOrEqual(500);
    expect(Number(sizes.rows[0].run)).toBe(300);
    const planner = await t.login('plan01', 'demo123');
    const card = (await sql<{ id: number }>`SELECT id FROM flow_card WHERE origin = 'merge'`.execute(db))
      .rows[0];
    const g = await t.call('GET', `/api/v1/flow-card/genealogy/${card.id}`, { token: planner });
    expect(g.body.result.ancestors).toHaveLength(2);
  });

  it('ships bearing cards that trace back to the rings, their heats, receipts and measurements, and forward from the heat (issue 35)', async () => {
    const db = t.database.db;
    // The demo's ring cards carry the heats of the steel issued to their orders, each received.
    const unreceived = await sql<{ docNo: string; heatNo: string }>`
      SELECT c.doc_no, c.heat_no FROM flow_card c JOIN production_order o ON o.id = c.production_order_id
       WHERE o.parent_order_id IS NOT NULL AND c.heat_no IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM stock_ledger l WHERE l.doc_type = 'stock-inbound'
                            AND l.batch_no = ANY(string_to_array(c.heat_no, '/')))`.execute(db);
    expect(unreceived.rows).toEqual([]);
    // A 销售出库 of whole bearing cards (batch = card number) of a customer order.
    const shipped = await sql<{ id: number; docNo: string }>`
      SELECT DISTINCT d.id, d.doc_no FROM stock_outbound d
        JOIN stock_outbound_line l ON l.stock_outbound_id = d.id
        JOIN flow_card c ON c.doc_no = l.batch_no AND c.product_id = l.material_id
       WHERE d.type = 'sales' AND d.status = 'posted' AND d.sale_order_id IS NOT NULL ORDER BY d.id`.execute(
      db,
    );
    expect(shipped.rows.length).toBeGreaterThanOrEqual(1);
    const keeper = await t.login('wh01', 'demo123');
    const inspector = await t.login('qc01', 'demo123');
    let traced = 0;
    for (const out of shipped.rows) {
      const back = await t.call('GET', `/api/v1/trace/outbound/${out.id}`, { token: keeper });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      const line = back.body.result.lines.find((l: any) => l.cardId);
      expect(line.heats.length).toBeGreaterThan(0);
      const tr = (await t.call('GET', `/api/v1/trace/card/${line.cardId}`, { token: inspector })).body.result;
      // Back to the rings (装配领用), each step's machine and operator, the heats' purchase receipts.
      const rings = tr.cards.filter((c: any) => c.depth > 0);
      expect(rings.length).toBeGreaterThan(0);
      expect(tr.links.some((l: any) => l.kind === 'assembly')).toBe(true);
      for (const c of tr.cards)
        for (const s of c.steps.filter((x: any) => !x.outsourced))
          expect([s.equipmentName, s.operatorName], `${c.docNo} ${s.processName}`).not.toContain(null);
      expect(tr.heats.length).toBeGreaterThan(0);
      for (const h of tr.heats)
        expect(h.receipts.some((r: any) => r.type === 'purchase' && r.supplierName)).toBe(true);
      expect(tr.shipments.map((s: any) => s.docNo)).toContain(out.docNo);
      if (rings.some((c: any) => c.measurements.length) && rings.some((c: any) => c.inspections.length))
        traced += 1;
      // Forward: the heat reaches this delivery and its customer.
      const fwd = (
        await t.call('GET', '/api/v1/trace/heat', { token: inspector, query: { heatNo: tr.heats[0].heatNo } })
      ).body.result;
      expect(fwd.shipments.map((s: any) => s.docNo)).toContain(out.docNo);
      expect(fwd.customers.length).toBeGreaterThan(0);
    }
    // At least one delivery reaches measured and inspected rings.
    expect(traced).toBeGreaterThanOrEqual(1);
    // Measurements name cards of the product they measured.
    const mismatched = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM measurement_subgroup s JOIN flow_card c ON c.id = s.flow_card_id
       WHERE c.product_id <> s.product_id`.execute(db);
    expect(mismatched.rows[0].n).toBe(0);
  });
});

describe.skipIf(ON_POSTGRES)('demo equipment care', () => {
  it('has repairs in several states, one overdue plan and one NG check item that opened a repair', async () => {
    const db = t.database.db;
    const states = await sql<{ status: string }>`SELECT DISTINCT status FROM equipment_repair`.execute(db);
    expect(states.rows.map((r) => r.status).sort()).toEqual(
      ['closed', 'confirmed', 'dispatched', 'repaired', 'repairing', 'reported'].sort(),
    );
    const due = await t.call('GET', '/api/v1/maintenance-plan/due', { token });
    expect(due.body.result.overdue).toBe(1);
    const ng = await sql<{ repairId: number | null }>`
      SELECT repair_id FROM inspection_record_item WHERE result = 'ng'`.execute(db);
    expect(ng.rows).toHaveLength(1);
    expect(ng.rows[0].repairId).toBeTruthy();
    const faulty = await t.call('GET', '/api/v1/equipment/page', { token, query: { faultState: 'fault' } });
    expect(faulty.body.result.total).toBe(3);
    const lathe = faulty.body.result.list.find((e: any) => e.code === 'EQ-CJ-001');
    const care = await t.call('GET', `/api/v1/equipment/care/${lathe.id}`, { token });
    expect(care.body.result.repairs.length).toBeGreaterThan(0);
    expect(care.body.result.checks.length).toBeGreaterThan(0);
    expect(care.body.result.maintenance.length).toBe(2);
  });
});

describe.skipIf(ON_POSTGRES)('demo technical documents', () => {
  it('has published drawings of two bearings, one in its second revision with the first superseded, files readable', async () => {
    const db = t.database.db;
    const products = await sql<{ id: number; code: string }>`
      SELECT id, code FROM material WHERE code IN ('FG-6204-2RS', 'FG-6205-2RS') ORDER BY code`.execute(db);
    const planner = await t.login('plan01', 'demo123');
    const current = [];
    for (const p of products.rows) {
      const r = await t.call('GET', '/api/v1/technical-document/current', {
        token: planner,
        query: { productId: p.id },
      });
      current.push(r.body.result);
    }
    expect(current.map((c) => c?.revisionNo)).toEqual(['B', 'A']);
    const revs = await t.call('GET', `/api/v1/technical-document/revisions/${current[0].documentId}`, {
      token: planner,
    });
    expect(revs.body.result.map((r: any) => [r.revisionNo, r.status])).toEqual([
      ['B', 'current'],
      ['A', 'superseded'],
    ]);
    const files = current[0].attachments;
    expect(files.map((a: any) => a.mimeType).sort()).toEqual(['application/pdf', 'image/png']);
    for (const a of files) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/attachment/download/${a.id}?inline=true`,
        headers: { authorization: `Bearer ${planner}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^inline; /);
      expect(res.rawPayload.length).toBe(a.size);
    }
    const draft = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM technical_document WHERE status = 'draft'`.execute(db);
    expect(draft.rows[0].n).toBe(1);
  });

  it('has three months of receivables, payables, receipts and payments, with money in the aging buckets', async () => {
    const db = t.database.db;
    const items = await sql<{ t: string; status: string }>`
      SELECT 'receivable' AS t, status FROM receivable UNION SELECT 'payable', status FROM payable`.execute(
      db,
    );
    const has = (table: string, status: string) =>
      items.rows.some((r) => r.t === table && r.status === status);
    for (const status of ['open', 'partly', 'settled']) {
      expect(has('receivable', status), `receivable ${status}`).toBe(true);
      expect(has('payable', status), `payable ${status}`).toBe(true);
    }
    expect(has('receivable', 'draft')).toBe(true);
    const spread = await sql<{ months: number; receipts: number; payments: number; draft: number }>`
      SELECT (SELECT count(DISTINCT to_char(biz_date, 'YYYY-MM')) FROM receivable)::int AS months,
             (SELECT count(*) FROM receipt WHERE status = 'confirmed')::int AS receipts,
             (SELECT count(*) FROM payment WHERE status = 'confirmed')::int AS payments,
             (SELECT count(*) FROM receipt WHERE status = 'draft')::int AS draft`.execute(db);
    expect(spread.rows[0].months).toBeGreaterThanOrEqual(3);
    expect(spread.rows[0].receipts).toBeGreaterThan(3);
    expect(spread.rows[0].payments).toBeGreaterThan(1);
    expect(spread.rows[0].draft).toBe(1);
    // Σ receivables of sales = Σ posted sales lines at order prices (none reversed in the demo).
    const sums = await sql<{ items: string; lines: string }>`
      SELECT (SELECT sum(amount) FROM receivable WHERE source_type = 'sales' AND status <> 'reversed')::text AS items,
             (SELECT sum(round(ol.amount * l.base_quantity / ol.base_quantity, 2))
                FROM stock_outbound d JOIN stock_outbound_line l ON l.stock_outbound_id = d.id
                JOIN sale_order_line ol ON ol.id = l.source_line_id
               WHERE d.type = 'sales' AND d.status = 'posted')::text AS lines`.execute(db);
    expect(sums.rows[0].items).toBe(sums.rows[0].lines);
    const fin = await t.login('fin01', 'demo123');
    const aging = await t.call('GET', '/api/v1/receivable/aging', { token: fin });
    expect(aging.status).toBe(200);
    for (const k of ['days30', 'days90', 'over90'])
      expect(Number(aging.body.result.totals[k]), k).not.toBe(0);
    // 财务's first page is 应收管理.
    const info = await t.call('GET', '/api/v1/sso/getUserByToken', { token: fin });
    const pages = JSON.stringify(info.body.result.menuList);
    expect(pages.indexOf('/finance-department/receivable-management')).toBeGreaterThan(-1);
    expect(pages.indexOf('/finance-department/receivable-management')).toBeLessThan(
      pages.indexOf('/finance-department/sales-report'),
    );
  });

  it('has 工序工资 rates for the demo processes, wage lines at them, and two closed wage months', async () => {
    const db = t.database.db;
    const rates = await sql<{ n: number }>`SELECT count(*)::int AS n FROM process_wage`.execute(db);
    expect(rates.rows[0].n).toBeGreaterThan(10);
    const unrated = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM piece_wage WHERE rate_id IS NULL`.execute(db);
    expect(unrated.rows[0].n).toBe(0);
    const periods = await sql<{ month: string }>`
      SELECT to_char(period, 'YYYY-MM') AS month FROM wage_period ORDER BY period`.execute(db);
    expect(periods.rows).toHaveLength(2);
    const fin = await t.login('fin01', 'demo123');
    const closed = await t.call('GET', '/api/v1/process-wage/sheet', {
      token: fin,
      query: { month: periods.rows[1].month },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.result.closed).toBe(true);
    expect(closed.body.result.rows.length).toBeGreaterThan(0);
  });

  it('has the factory’s own print templates, one default per type, the 流转卡 label with a Code 128 (issue 41 §3)', async () => {
    const list = await t.call('GET', '/api/v1/print-template/list', { token });
    expect(list.status).toBe(200);
    expect(list.body.result.map((r: any) => [r.docType, r.name, r.isDefault])).toEqual([
      ['finished-box', '成品箱标签', true],
      ['flow-card', '车间流转卡标签（炉号）', true],
      ['material', '物料标签', true],
      ['sale-order', '销售订单（客户联）', true],
    ]);
    const label = await t.call('GET', '/api/v1/print-template/default', {
      token,
      query: { docType: 'flow-card' },
    });
    expect(label.body.result.layout.elements).toContainEqual(
      expect.objectContaining({ kind: 'barcode', field: 'docNo', symbology: 'code128' }),
    );
  });
});
