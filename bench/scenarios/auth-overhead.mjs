// Issue 2, "Auth overhead", and issue 10 §3: authenticated, permission-checked, validated list
// calls on PostgreSQL reach ≥ 0.9× the throughput of a bare node:http + pg handler running the same
// SQL (the statements the server was seen running for each call in the PostgreSQL log, with their
// parameters), p99 ≤ 1.3× its p99, at 16 and at 32 connections: the user list and the stock
// balances (the material list is master-list's, on 100,000 materials).
import fs from 'node:fs';
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
  median,
  pgBackendsCpu,
  pgExec,
  processCpuMs,
  selfCpuMs,
  startProcess,
  startServer,
  waitHealthy,
} from '../lib.mjs';

/** Each call with the number of statements the server runs for it. */
const CALLS = [
  { name: 'user/list', path: '/api/v1/user/list?pageNum=1&pageSize=20', statements: 1 },
  { name: 'stock-balance/page', path: '/api/v1/stock-balance/page?pageNum=1&pageSize=20', statements: 2 },
];
/** Issue 10 §3's loads; BENCH_CONNECTIONS runs one of your choosing instead. */
const LOADS = process.env.BENCH_CONNECTIONS ? [Number(process.env.BENCH_CONNECTIONS)] : [16, 32];
const POOL = 10;
const WARMUP_REQUESTS = 10_000;

export default {
  name: 'auth-overhead',
  description:
    'GET user/list and stock-balance/page on PostgreSQL vs a bare node:http + pg handler with the same SQL, at 16 and 32 connections',
  async run(ctx) {
    const { duration, warmup, rounds } = ctx.options;
    const database = await freshPgDatabase(ctx);
    ctx.log(`database ${database.name}`);

    const env = { DATABASE_URL: database.url, SEED: 'demo', PG_POOL_MAX: String(POOL) };
    let server = await startServer(ctx, env);
    ctx.log(
      `server healthy on :${server.port} after ${(server.readyMs / 1000).toFixed(1)} s (migrate + demo seed)`,
    );
    await server.stop();

    // The baseline runs exactly the statements the server runs for each call, as the PostgreSQL log
    // shows them (a dedicated server run; the session is resolved by a first call and then cached).
    await pgExec(database.url, `ALTER DATABASE ${database.name} SET log_statement = 'all'`);
    server = await startServer(ctx, env);
    let token = await login(server.base);
    const captured = {};
    for (const c of CALLS) {
      await call(server.base, 'GET', c.path, { token });
      const statements = await captureStatements(database.name, () =>
        call(server.base, 'GET', c.path, { token }),
      );
      if (statements.length !== c.statements)
        throw new Error(
          `${c.name}: expected ${c.statements} statement(s) per call, the log shows ${statements.length}`,
        );
      captured[c.path] = statements.map(({ sql, params }) => ({ sql, params }));
      for (const st of statements) ctx.log(`${c.name}: ${st.sql.replace(/\s+/g, ' ').slice(0, 140)}…`);
    }
    await server.stop();
    await pgExec(database.url, `ALTER DATABASE ${database.name} RESET log_statement`);
    const statementFile = path.join(os.tmpdir(), `${database.name}-list-calls.json`);
    fs.writeFileSync(statementFile, JSON.stringify(captured));
    ctx.onCleanup(() => fs.rmSync(statementFile, { force: true }));

    server = await startServer(ctx, env);
    token = await login(server.base);
    const bport = await freePort();
    const baseline = startProcess(ctx, {
      args: ['baseline/list-calls.mjs'],
      cwd: ctx.benchDir,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(bport),
        PG_POOL_MAX: String(POOL),
        STATEMENTS: statementFile,
      },
      label: 'baseline',
    });
    const bbase = `http://127.0.0.1:${bport}`;
    await waitHealthy(baseline, bbase + CALLS[0].path, 30_000);

    // Both sides must answer the same rows before their speeds mean anything.
    for (const c of CALLS) {
      const ours = await call(server.base, 'GET', c.path, { token });
      const bare = await call(bbase, 'GET', c.path);
      if (ours.status !== 200)
        throw new Error(`${c.name} answered HTTP ${ours.status}: ${JSON.stringify(ours.body)}`);
      if (!isDeepStrictEqual(ours.body, bare.body)) {
        throw new Error(
          `${c.name}: baseline and server answer different bodies:\nserver:   ${JSON.stringify(ours.body).slice(0, 600)}\n` +
            `baseline: ${JSON.stringify(bare.body).slice(0, 600)}`,
        );
      }
      if (!ours.body.result.list.length) throw new Error(`${c.name}: the demo data answers no rows`);
      ctx.log(
        `${c.name}: bodies identical (${ours.body.result.list.length} rows, total ${ours.body.result.total})`,
      );
    }

    const headers = { authorization: `Bearer ${token}` };
    const sides = [
      ['baseline', bbase, baseline.child.pid],
      ['ours', server.base, server.child.pid],
    ];
    // CPU per request of everything on the path: the server process, the PostgreSQL backends and
    // the load generator. On a saturated machine throughput follows the sum, so Σbaseline / Σours
    // projects the throughput ratio without the noise of other work sharing the CPUs.
    const backends = pgBackendsCpu(database.name);
    ctx.onCleanup(() => backends.close());
    const r2 = (x) => Math.round(x * 100) / 100;
    const rows = [];
    for (const c of CALLS) {
      for (const connections of LOADS) {
        const label = `${c.name} at ${connections} connections`;
        ctx.log(
          `${label}: ${WARMUP_REQUESTS} warm-up requests each, then ${rounds} alternating round(s) of ${warmup} s + ${duration} s`,
        );
        // Warm both up by request count, not time, so the JIT has seen the same traffic on a slow machine.
        for (const [, base] of sides) {
          await cannon({
            url: base + c.path,
            headers,
            connections,
            duration: 0,
            warmup: 0,
            warmupRequests: WARMUP_REQUESTS,
          });
        }
        const runs = { baseline: [], ours: [] };
        for (let i = 0; i < rounds; i++) {
          // Alternate which side goes first, so a slow drift in the machine's load favours neither.
          for (const [side, base, pid] of i % 2 ? [...sides].reverse() : sides) {
            const cpu = {
              server: () => processCpuMs(pid),
              postgres: () => backends.read(),
              client: selfCpuMs,
            };
            const r = await cannon({ url: base + c.path, headers, connections, duration, warmup, cpu });
            if (r.non2xx || r.errors) {
              throw new Error(
                `${label}, ${side}: ${r.non2xx} non-2xx answers and ${r.errors} errors under load`,
              );
            }
            const u = r.cpuUs;
            ctx.log(
              `  round ${i + 1} ${side.padEnd(8)} ${r.rps.toFixed(0).padStart(5)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms` +
                (u.server ? `  CPU µs/request: server ${u.server.toFixed(0)}` : '') +
                (u.postgres ? ` postgres ${u.postgres.toFixed(0)}` : '') +
                (u.client ? ` client ${u.client.toFixed(0)}` : ''),
            );
            runs[side].push(r);
          }
        }
        // The target is judged on the median of the paired rounds' ratios (each pair ran back to
        // back, so a burst of other work on the machine spoils one pair, not the result).
        const ratios = runs.ours.map((r, i) => r.rps / runs.baseline[i].rps);
        const ratio = median(ratios);
        const p99Ratio = median(runs.ours.map((r, i) => r.p99 / Math.max(runs.baseline[i].p99, 1)));
        // CPU per request: the lowest of the rounds (contention only adds), per process kind.
        const minCpu = (xs, k) =>
          xs.every((r) => r.cpuUs[k] !== undefined) ? Math.min(...xs.map((r) => r.cpuUs[k])) : undefined;
        const cpuOf = (xs) => {
          const parts = ['server', 'postgres', 'client'].map((k) => minCpu(xs, k));
          return {
            server: parts[0],
            total: parts.every((x) => x !== undefined) ? parts[0] + parts[1] + parts[2] : undefined,
          };
        };
        const bCpu = cpuOf(runs.baseline);
        const oCpu = cpuOf(runs.ours);
        const medianOf = (xs, k) => median(xs.map((r) => r[k]));
        ctx.log(`  paired ratios: ${ratios.map((x) => x.toFixed(2)).join(' ')}`);
        rows.push(
          {
            metric: `${label}: baseline / RingMES req/s, p99 (medians of ${rounds} rounds)`,
            value: `${Math.round(medianOf(runs.baseline, 'rps'))} / ${Math.round(medianOf(runs.ours, 'rps'))}, ${r2(medianOf(runs.baseline, 'p99'))} / ${r2(medianOf(runs.ours, 'p99'))} ms`,
            unit: '',
          },
          {
            metric: `${label}: throughput ratio RingMES / baseline (median of ${ratios.length} pairs)`,
            value: Math.round(ratio * 1000) / 1000,
            unit: '×',
            target: '≥ 0.90',
            pass: ratio >= 0.9,
          },
          {
            metric: `${label}: p99 ratio RingMES / baseline (median of ${ratios.length} pairs)`,
            value: r2(p99Ratio),
            unit: '×',
            target: '≤ 1.3',
            pass: p99Ratio <= 1.3,
          },
          ...(bCpu.total && oCpu.total
            ? [
                {
                  metric: `${label}: CPU µs/request, server and all (server + postgres + client), baseline / RingMES`,
                  value: `${Math.round(bCpu.server)} / ${Math.round(oCpu.server)}, ${Math.round(bCpu.total)} / ${Math.round(oCpu.total)}`,
                  unit: 'µs',
                },
                {
                  metric: `${label}: throughput ratio projected from CPU per request`,
                  value: r2(bCpu.total / oCpu.total),
                  unit: '×',
                },
              ]
            : []),
        );
      }
    }

    const stopped = await server.stop();
    await baseline.stop();
    return [
      ...rows,
      {
        metric: 'server SIGTERM → exit',
        value: Math.round(stopped.ms),
        unit: `ms (exit ${stopped.code ?? stopped.signal})`,
        target: 'exit 0',
        pass: stopped.code === 0,
      },
    ];
  },
};
