// Issue 4, "Numbers": with 100,000 materials and 50,000 customers on PostgreSQL, a filtered, sorted
// list page reaches ≥ 0.8× the throughput of a bare node:http + pg handler running the same SQL
// (captured from the PostgreSQL log of the real server's call), the materials ≥ 0.9× with p99 ≤
// 1.3× at 16 and at 32 connections (issue 10 §3); the last page of the same filter
// is no slower than 2× the first (p50 judged, p99 shown); the import of a 5,000-row material sheet
// (dry run, then real) is timed.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  call,
  cannon,
  captureStatements,
  freePort,
  freshPgDatabase,
  login,
  pairedRounds,
  pairedRows,
  pgExec,
  ROOT,
  startProcess,
  startServer,
  waitHealthy,
} from '../lib.mjs';

const ExcelJS = createRequire(path.join(ROOT, 'apps/server/package.json'))('exceljs');

const POOL = 10;
const PASSWORD = 'Bench#2024pw';
const MATERIALS = 100_000;
const CUSTOMERS = 50_000;
const IMPORT_ROWS = 5_000;
const PAGE = 20;
const WARMUP_REQUESTS = 2_000;
/** Issue 10 §3's loads; BENCH_CONNECTIONS runs one of your choosing instead. */
const LOADS = process.env.BENCH_CONNECTIONS ? [Number(process.env.BENCH_CONNECTIONS)] : [16, 32];
/** The server's count cap for big lists (platform/paging.ts COUNT_CAP). */
const COUNT_CAP = 10_000;
// ~60,000 of the 100,000 materials match (name contains 轴承, status 1); ~32,000 customers.
const materialPath = (n) =>
  `/api/v1/material-info/page?status=1&name=${encodeURIComponent('轴承')}&sortField=code&sortOrder=asc&pageNum=${n}&pageSize=${PAGE}`;
const customerPath = (n) =>
  `/api/v1/customer/page?state=1&name=${encodeURIComponent('轴承')}&sortField=name&sortOrder=asc&pageNum=${n}&pageSize=${PAGE}`;

const LOAD_SQL = [
  `INSERT INTO material_type (code, name, order_num)
     SELECT 'MT' || lpad(i::text, 3, '0'), '物料类型' || i, i FROM generate_series(1, 20) i`,
  `INSERT INTO material_unit (code, name)
     SELECT 'U' || lpad(i::text, 2, '0'), (ARRAY['件','套','个','千克','米','根','箱','桶','卷','片'])[i]
       FROM generate_series(1, 10) i`,
  `INSERT INTO material (code, name, spec, material_type_id, unit_id, status, batch_managed)
     SELECT 'M' || lpad(i::text, 7, '0'),
            (ARRAY['深沟球轴承 62', '轴承外圈 P6-', '钢球 G10-'])[1 + i % 3] || i,
            '6204-' || (i % 50), (SELECT min(id) FROM material_type) + i % 20,
            (SELECT min(id) FROM material_unit) + i % 10, CASE WHEN i % 10 = 0 THEN '0' ELSE '1' END, i % 7 = 0
       FROM generate_series(1, ${MATERIALS}) i`,
  `INSERT INTO customer (code, name, contact, phone, state, credit_limit)
     SELECT 'C' || lpad(i::text, 6, '0'),
            (ARRAY['洛阳轴承贸易', '无锡机电', '瓦房店轴承', '宁波五金'])[1 + i % 4] || i || '有限公司',
            '联系人' || i, '1380000' || lpad((i % 10000)::text, 4, '0'),
            CASE WHEN i % 5 = 0 THEN '0' ELSE '1' END, (i % 100) * 1000
       FROM generate_series(1, ${CUSTOMERS}) i`,
  'ANALYZE',
];

async function buildSheet() {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('物料');
  ws.addRow(['*物料编码', '*物料名称', '规格型号', '*物料类型', '*基本单位']);
  for (let i = 1; i <= IMPORT_ROWS; i++)
    ws.addRow([`IMP${String(i).padStart(6, '0')}`, `导入轴承 ${i}`, `6205-${i % 40}`, '物料类型3', '套']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function postBytes(base, url, token, bytes) {
  const t0 = performance.now();
  const r = await fetch(base + url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: bytes,
    signal: AbortSignal.timeout(170_000),
  });
  const text = await r.text();
  return { status: r.status, text, ms: performance.now() - t0 };
}

export default {
  name: 'master-list',
  description:
    '100k materials / 50k customers on PostgreSQL: filtered sorted list vs bare pg, first vs last page, 5k-row import',
  async run(ctx) {
    const connections = LOADS[0];
    const duration = Math.min(ctx.options.duration, 3);
    const warmup = 1;
    const rounds = Math.min(ctx.options.rounds, 3);
    const db = await freshPgDatabase(ctx);
    ctx.log(`database ${db.name}`);
    const env = {
      DATABASE_URL: db.url,
      SEED: 'minimal',
      ADMIN_PASSWORD: PASSWORD,
      PG_POOL_MAX: String(POOL),
    };

    // 1. Migrate + minimal seed, then bulk-load outside the server.
    let server = await startServer(ctx, env);
    ctx.log(`server ready after ${(server.readyMs / 1000).toFixed(1)} s (migrate + minimal seed)`);
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(
      `loaded ${MATERIALS} materials + ${CUSTOMERS} customers + ANALYZE in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // 2. The statements the server runs for each call, from the PostgreSQL log.
    await pgExec(db.url, `ALTER DATABASE ${db.name} SET log_statement = 'all'`);
    server = await startServer(ctx, env);
    let token = await login(server.base, 'admin', PASSWORD);
    const first = {
      material: await call(server.base, 'GET', materialPath(1), { token }),
      customer: await call(server.base, 'GET', customerPath(1), { token }),
    };
    for (const [k, r] of Object.entries(first))
      if (r.status !== 200 || !r.body.result?.total)
        throw new Error(`${k} list answered HTTP ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    const lastPage = Object.fromEntries(
      Object.entries(first).map(([k, r]) => [k, Math.ceil(r.body.result.total / PAGE)]),
    );
    const routes = {};
    const captured = {};
    for (const [kind, table, pathOf] of [
      ['material', 'material', materialPath],
      ['customer', 'customer', customerPath],
    ]) {
      for (const n of [1, lastPage[kind]]) {
        const p = pathOf(n);
        let answer;
        const stmts = (
          await captureStatements(db.name, async () => {
            answer = await call(server.base, 'GET', p, { token });
          })
        ).filter((s) => s.sql.includes(`from "${table}" as "t"`));
        // The first page is one statement (the page with its capped count), a later page two.
        if (stmts.length < (n === 1 ? 1 : 2))
          throw new Error(`captured ${stmts.length} statement(s) for ${p}; is the log readable?`);
        const total = first[kind].body.result.total;
        routes[p] = {
          statements: stmts.map(({ sql, params }) => ({ sql, params })),
          pageNum: n,
          pageSize: PAGE,
          // Over the cap the end is unknown: the server reads forwards (paging.ts).
          reverse: first[kind].body.result.totalExact !== false && (n - 1) * PAGE > total / 2,
          ...(/\) AS capped/i.test(stmts[0].sql) ? { countCap: COUNT_CAP } : {}),
        };
        captured[p] = answer;
        ctx.log(
          `${kind} page ${n}: ${stmts.length} statements — ${stmts.map((s) => s.sql.slice(0, 90)).join(' ‖ ')}`,
        );
      }
    }
    await server.stop();
    await pgExec(db.url, `ALTER DATABASE ${db.name} RESET log_statement`);
    const routesFile = path.join(os.tmpdir(), `${db.name}-routes.json`);
    fs.writeFileSync(routesFile, JSON.stringify(routes));
    ctx.onCleanup(() => fs.rmSync(routesFile, { force: true }));

    // 3. The measured server and the baseline, both with fresh connections (no statement logging).
    server = await startServer(ctx, env);
    token = await login(server.base, 'admin', PASSWORD);
    const bport = await freePort();
    const baseline = startProcess(ctx, {
      args: ['baseline/sql-list.mjs'],
      cwd: ctx.benchDir,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PORT: String(bport),
        PG_POOL_MAX: String(POOL),
        ROUTES: routesFile,
      },
      label: 'baseline',
    });
    const bbase = `http://127.0.0.1:${bport}`;
    await waitHealthy(baseline, bbase + materialPath(1), 30_000);
    const rows = [];
    for (const p of Object.keys(routes)) {
      const ours = await call(server.base, 'GET', p, { token });
      const bare = await call(bbase, 'GET', p);
      const same = isDeepStrictEqual(ours.body, bare.body);
      const sameIds =
        JSON.stringify(ours.body.result.list.map((r) => r.id)) ===
        JSON.stringify(bare.body.result.list.map((r) => r.id));
      if (!sameIds || ours.body.result.total !== bare.body.result.total)
        throw new Error(
          `baseline answers other rows for ${p}: total ${ours.body.result.total} / ${bare.body.result.total}`,
        );
      if (!same)
        ctx.log(
          `note: bodies differ beyond ids for ${p}:\n    server:   ${JSON.stringify(ours.body.result.list[0]).slice(0, 400)}\n    baseline: ${JSON.stringify(bare.body.result.list[0]).slice(0, 400)}`,
        );
      rows.push({
        metric: `body identical to baseline: ${p.split('?')[0]} page ${routes[p].pageNum}`,
        value: same ? 'yes' : 'no',
        unit: '',
      });
    }
    const headers = { authorization: `Bearer ${token}` };
    const sides = [
      { name: 'baseline', base: bbase, pid: baseline.child.pid },
      { name: 'ours', base: server.base, pid: server.child.pid },
    ];
    // Issue 10 §3 asks the materials ≥ 0.9 × the bare handler with p99 ≤ 1.3 × at 16 and at 32
    // connections; the customers keep issue 4's ≥ 0.8. BENCH_CONNECTIONS runs one load instead.
    for (const load of LOADS) {
      const common = {
        sides,
        headers,
        dbName: db.name,
        connections: load,
        duration,
        warmup,
        rounds,
        // By request count, as auth-overhead: with 200 the server's first measured round still ran
        // its list code half compiled (server CPU 2,192 µs a request, 1,040 in the next rounds),
        // where the bare handler's few lines were warm.
        warmupRequests: WARMUP_REQUESTS,
      };
      ctx.log(
        `load: ${load} connections, ${WARMUP_REQUESTS} warm-up requests per side, ${rounds} pairs of ${warmup} s + ${duration} s`,
      );
      const mat = await pairedRounds(ctx, { ...common, path: materialPath(1), label: 'material ' });
      rows.push(
        ...pairedRows(
          `material list (${first.material.body.result.total} matches) at ${load} connections`,
          mat,
          0.9,
          1.3,
        ),
      );
      const cus = await pairedRounds(ctx, { ...common, path: customerPath(1), label: 'customer ' });
      rows.push(
        ...pairedRows(
          `customer list (${first.customer.body.result.total} matches) at ${load} connections`,
          cus,
        ),
      );
    }

    // 4. First vs last page of the same filter on the real server (alternating, best p50 of 2 each).
    for (const [kind, pathOf] of [
      ['material', materialPath],
      ['customer', customerPath],
    ]) {
      const res = { first: [], last: [] };
      for (let i = 0; i < 2; i++) {
        for (const [k, n] of i % 2
          ? [
              ['last', lastPage[kind]],
              ['first', 1],
            ]
          : [
              ['first', 1],
              ['last', lastPage[kind]],
            ]) {
          const r = await cannon({
            url: server.base + pathOf(n),
            headers,
            connections,
            duration,
            warmup: 0.5,
          });
          if (r.non2xx || r.errors)
            throw new Error(`${kind} page ${n}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          res[k].push(r);
        }
      }
      const pick = (xs) => xs.reduce((a, r) => (r.p50 < a.p50 ? r : a));
      const f = pick(res.first);
      const l = pick(res.last);
      ctx.log(
        `${kind} first page p50 ${f.p50} p99 ${f.p99} ms (${f.rps.toFixed(0)} req/s); last page ${lastPage[kind]} p50 ${l.p50} p99 ${l.p99} ms (${l.rps.toFixed(0)} req/s)`,
      );
      rows.push(
        { metric: `${kind} list first page latency p50 / p99`, value: `${f.p50} / ${f.p99}`, unit: 'ms' },
        // Issue 10 §4: a contains-filter on the 100,000 materials (name 含 轴承) under the load.
        ...(kind === 'material'
          ? [
              {
                metric: `contains-filter on ${MATERIALS.toLocaleString('en')} materials, first page p50 at ${connections} connections`,
                value: f.p50,
                unit: 'ms',
                target: '≤ 30',
                pass: f.p50 <= 30,
              },
            ]
          : []),
        {
          metric: `${kind} list last page (${lastPage[kind]}) latency p50 / p99`,
          value: `${l.p50} / ${l.p99}`,
          unit: 'ms',
        },
        {
          metric: `${kind} list last / first page p50 (p99 ratio ${(l.p99 / f.p99).toFixed(2)})`,
          value: Math.round((l.p50 / f.p50) * 100) / 100,
          unit: '×',
          target: '≤ 2.00',
          pass: l.p50 <= 2 * f.p50,
        },
      );
    }

    // 5. Import of a 5,000-row material sheet: dry run, then for real.
    t0 = performance.now();
    const sheet = await buildSheet();
    ctx.log(
      `built ${IMPORT_ROWS}-row sheet (${(sheet.length / 1024).toFixed(0)} KiB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    for (const dry of [true, false]) {
      const r = await postBytes(
        server.base,
        `/api/v1/material-info/import${dry ? '?dryRun=true' : ''}`,
        token,
        sheet,
      );
      ctx.log(
        `import${dry ? ' (dry run)' : ''}: HTTP ${r.status} in ${(r.ms / 1000).toFixed(2)} s — ${r.text.slice(0, 200)}`,
      );
      rows.push({
        metric: `import ${IMPORT_ROWS}-row material sheet${dry ? ' (dryRun)' : ''}`,
        value: Math.round(r.ms / 10) / 100,
        unit: `s (HTTP ${r.status})`,
        target: 'HTTP 200',
        pass: r.status === 200,
      });
    }
    const n = await pgExec(db.url, `SELECT count(*)::int AS n FROM material WHERE code LIKE 'IMP%'`);
    rows.push({
      metric: 'imported rows present',
      value: n.rows[0].n,
      unit: 'rows',
      target: `= ${IMPORT_ROWS}`,
      pass: n.rows[0].n === IMPORT_ROWS,
    });
    await baseline.stop();
    await server.stop();
    return rows;
  },
};
