// Shared helpers for the benchmark scenarios: processes, a fresh PostgreSQL database, the real
// server, login, health polling and an autocannon wrapper. Loopback only; every helper that
// starts something registers its own cleanup on the scenario context.
import { execSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, '..');
export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');

/** The `pg` driver the server itself uses (resolved from apps/server, so both sides run the same version). */
export const pg = createRequire(path.join(ROOT, 'apps/server/package.json'))('pg');

/** The PostgreSQL server the benchmarks create their throw-away databases on. */
export const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const seconds = (ms) => Math.round(ms / 10) / 100;

/** A free TCP port on the loopback interface. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    t = Math.max(t, newest(path.join(p, e.name)));
  }
  return t;
}

/** Builds apps/server/dist/main.js when it is missing or older than its sources; answers whether it built. */
export function ensureServerBuilt(log = () => {}) {
  const sources = ['apps/server/src', 'packages/domain/src'].map((s) => newest(path.join(ROOT, s)));
  if (fs.existsSync(SERVER_MAIN) && Math.max(...sources) <= fs.statSync(SERVER_MAIN).mtimeMs) return false;
  log('building apps/server (npm run build -w apps/server)…');
  execSync('npm run build -w apps/server', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return true;
}

/** Creates an empty database `ringmes_bench_<random>` and drops it (WITH FORCE) at cleanup. */
export async function freshPgDatabase(ctx) {
  const name = `ringmes_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  // BENCH_KEEP_DB=1 leaves the database for EXPLAIN after the run (its name is printed).
  if (process.env.BENCH_KEEP_DB) ctx.log(`keeping database ${name}`);
  else ctx.onCleanup(drop);
  return { name, url: url.toString(), drop };
}

/**
 * Spawns a child process, keeps the tail of its output and registers a cleanup that stops it.
 * `stop(signal)` answers `{ code, signal, ms }` once it has exited (SIGKILL after `killAfterMs`).
 */
export function startProcess(ctx, { args, env, cwd = ROOT, label = 'process' }) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (chunk) => {
    out += chunk.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
    if (process.env.BENCH_VERBOSE) process.stderr.write(`[${label}] ${chunk}`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  const proc = {
    child,
    label,
    started,
    exited,
    output: () => out,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop(signal = 'SIGTERM', killAfterMs = 15_000) {
      if (!proc.running()) {
        const e = await exited;
        return { code: e.code, signal: e.signal, ms: 0 };
      }
      const t0 = performance.now();
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const e = await exited;
      clearTimeout(timer);
      return { code: e.code, signal: e.signal, ms: e.at - t0 };
    },
  };
  ctx.onCleanup(() => proc.stop('SIGTERM', 5_000));
  return proc;
}

/** Polls `url` until it answers 200; fails early when the process exits. Answers ms since the process started. */
export async function waitHealthy(proc, url, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  proc.exited.then(() => {
    exited = true;
  });
  while (performance.now() < deadline) {
    if (exited) {
      const out = proc.output();
      const key = out.split('\n').find((l) => /^\w*Error\b|启动失败|\[ringmes\].*(失败|错误)/.test(l.trim()));
      throw new Error(
        `${proc.label} exited before it was healthy${key ? `: ${key.trim()}` : ''}\n${tail(out)}`,
      );
    }
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (r.status === 200) {
        await r.arrayBuffer();
        return performance.now() - proc.started;
      }
      await r.arrayBuffer();
    } catch {
      // not listening yet
    }
    await sleep(25);
  }
  throw new Error(`${proc.label} not healthy after ${timeoutMs / 1000} s:\n${tail(proc.output())}`);
}

export function tail(text, lines = 25) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** The environment for a child process: ours, without database settings unless given. */
export function childEnv(extra) {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'SEED', 'PORT', 'HOST', 'PG_POOL_MAX', 'LOG_LEVEL'])
    delete env[k];
  return { ...env, ...extra };
}

/**
 * Starts the real server (`node [nodeArgs] apps/server/dist/main.js`) on a free loopback port and waits
 * until healthy (`nodeArgs`, e.g. `--cpu-prof`, for looking into a result).
 */
export async function startServer(ctx, env, { nodeArgs = [] } = {}) {
  ensureServerBuilt(ctx.log);
  const port = await freePort();
  const proc = startProcess(ctx, {
    // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
    args: [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...nodeArgs,
      SERVER_MAIN,
    ],
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env }),
    label: 'server',
  });
  const base = `http://127.0.0.1:${port}`;
  const readyMs = await waitHealthy(proc, `${base}/api/health`);
  return { ...proc, port, base, readyMs };
}

/**
 * Starts the server once on `env` (a fresh PostgreSQL database with `SEED: 'demo'`) and waits for
 * the demo factory to be seeded: on a busy machine that can take minutes. Answers the process
 * (stop it before changing the data under it) with `readyMs`.
 */
export async function seedDemo(ctx, env) {
  ensureServerBuilt(ctx.log);
  const port = await freePort();
  const proc = startProcess(ctx, {
    args: [SERVER_MAIN],
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env }),
    label: 'server',
  });
  const readyMs = await waitHealthy(proc, `http://127.0.0.1:${port}/api/health`, 600_000);
  return { ...proc, readyMs };
}

/** One JSON call; answers `{ status, body }`. */
export async function call(base, method, url, { token, body, timeoutMs = 30_000 } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(base + url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  return { status: r.status, body: json };
}

/**
 * A lean JSON client for a scenario's own load loop (each call a different URL, so not autocannon):
 * node:http over kept-alive connections. `fetch` costs ~1 ms of CPU a call on this machine, taken
 * from the same two cores as the server under test; this costs a fifth of it. Answers
 * `request(method, url, body) → { status, body }` and `close()`.
 */
export function httpClient(base, { token, connections = 16 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(base);
  const request = (method, url, body) =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (data !== undefined) headers['content-type'] = 'application/json';
      // No body: say so (a POST would otherwise go chunked).
      headers['content-length'] = data === undefined ? 0 : Buffer.byteLength(data);
      const req = http.request({ host: hostname, port, method, path: url, agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = { raw: text };
          }
          resolve({ status: res.statusCode, body: json });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(data);
    });
  return { request, close: () => agent.destroy() };
}

/** Signs in through `POST /api/v1/sso/login` and answers the token. */
export async function login(base, userName = 'admin', passWord = 'admin123') {
  const r = await call(base, 'POST', '/api/v1/sso/login', { body: { userName, passWord, source: 'bench' } });
  if (r.status !== 200 || !r.body?.result?.token) {
    throw new Error(`login ${userName} failed: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  }
  return r.body.result.token;
}

let clockTicks;
/** CPU time (user + system, ms) a process has used so far; undefined where /proc is missing. */
export function processCpuMs(pid) {
  try {
    clockTicks ??=
      Number(execSync('getconf CLK_TCK', { stdio: ['ignore', 'pipe', 'ignore'] }).toString()) || 100;
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

function runCannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * Load with autocannon: `warmup` seconds (or `warmupRequests` requests) discarded, then `duration`
 * seconds measured with the same connections. Answers req/s, latency percentiles (ms), the count of
 * non-2xx answers and errors and, for each of `cpu` (name → async function answering CPU ms used so
 * far), the CPU time per request in µs during the measured part.
 */
export async function cannon({
  url,
  headers = {},
  connections = 10,
  duration = 10,
  warmup = 3,
  warmupRequests,
  cpu = {},
}) {
  if (warmupRequests > 0) await runCannon({ url, headers, connections, amount: warmupRequests });
  else if (warmup > 0) await runCannon({ url, headers, connections, duration: warmup });
  if (!(duration > 0)) return undefined;
  const probes = Object.entries(cpu);
  const before = await Promise.all(probes.map(([, f]) => f()));
  const r = await runCannon({ url, headers, connections, duration });
  const after = await Promise.all(probes.map(([, f]) => f()));
  const cpuUs = {};
  probes.forEach(([name], i) => {
    if (before[i] !== undefined && after[i] !== undefined && r.requests.total) {
      cpuUs[name] = ((after[i] - before[i]) * 1000) / r.requests.total;
    }
  });
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    cpuUs,
  };
}

/** CPU ms used so far by this process (the load generator). */
export const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * CPU ms used so far by the PostgreSQL backends serving database `name` (read from /proc, so only
 * for a server on this machine); undefined where that is not possible.
 */
export function pgBackendsCpu(name) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  const ready = client.connect();
  return {
    async read() {
      await ready;
      const r = await client.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      let total = 0;
      for (const { pid } of r.rows) {
        const ms = processCpuMs(pid);
        if (ms === undefined) return undefined;
        total += ms;
      }
      return total;
    },
    close: () => ready.then(() => client.end()),
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------- SQL capture and paired load

/** The PostgreSQL server log that `log_statement` writes to (BENCH_PG_LOG, else the newest /var/log/postgresql/*.log). */
export function pgLogFile() {
  if (process.env.BENCH_PG_LOG) return process.env.BENCH_PG_LOG;
  const dir = '/var/log/postgresql';
  if (!fs.existsSync(dir)) return undefined;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return files[0];
}

/** `$1 = '…', $2 = NULL` of a log DETAIL line → values. */
function parseLogParams(text) {
  const out = [];
  for (const m of text.matchAll(/\$(\d+) = (NULL|'((?:[^']|'')*)')/g))
    out[Number(m[1]) - 1] = m[2] === 'NULL' ? null : m[3].replaceAll("''", "'");
  return out;
}

/**
 * Collects the statements sessions of database `dbName` log (`log_statement = 'all'` must be in
 * force for them) while `fn` runs. Answers `[{ pid, sql, params }]` in log order. Lines are
 * `%m [%p] %q%u@%d LEVEL:  text` (Debian's default prefix); continuation lines carry no prefix.
 */
export async function captureStatements(dbName, fn) {
  const file = pgLogFile();
  if (!file) throw new Error('no PostgreSQL log file found (set BENCH_PG_LOG)');
  const start = fs.statSync(file).size;
  await fn();
  await sleep(300);
  const fd = fs.openSync(file, 'r');
  const len = fs.statSync(file).size - start;
  const buf = Buffer.alloc(Math.max(0, len));
  fs.readSync(fd, buf, 0, len, start);
  fs.closeSync(fd);
  const head = /^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[(\d+)\] (\S*)@(\S*) ([A-Z]+): {2}(.*)$/;
  const entries = [];
  let cur;
  for (const line of buf.toString('utf8').split('\n')) {
    const m = head.exec(line);
    if (!m) {
      if (cur) cur.text += `\n${line}`;
      continue;
    }
    cur = m[3] === dbName ? { pid: Number(m[1]), level: m[4], text: m[5] } : undefined;
    if (cur) entries.push(cur);
  }
  const out = [];
  for (const e of entries) {
    const s = /^(?:statement|execute [^:]*): ([\s\S]*)$/.exec(e.text);
    if (e.level === 'LOG' && s) out.push({ pid: e.pid, sql: s[1].trim(), params: [] });
    else if (e.level === 'DETAIL' && e.text.startsWith('parameters: ')) {
      const last = out.findLast((x) => x.pid === e.pid);
      if (last) last.params = parseLogParams(e.text.slice(12));
    }
  }
  return out;
}

/** Runs one SQL statement on `url` with a short-lived client. */
export async function pgExec(url, text, params) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(text, params);
  } finally {
    await c.end();
  }
}

/**
 * Paired throughput rounds of two HTTP sides on the same path (as auth-overhead): warm-up by
 * request count, then `rounds` alternating pairs of `warmup` + `duration` s. `sides`:
 * `[{ name, base, pid }]` (first = baseline). Answers `{ runs, ratios, ratio, best, cpu }` where
 * `cpu[name]` is the lowest per-round CPU µs/request of server, postgres and client.
 */
export async function pairedRounds(
  ctx,
  { sides, path: p, headers, dbName, connections, duration, warmup, rounds, warmupRequests, label = '' },
) {
  for (const s of sides)
    await cannon({ url: s.base + p, headers, connections, duration: 0, warmup: 0, warmupRequests });
  const backends = pgBackendsCpu(dbName);
  const runs = Object.fromEntries(sides.map((s) => [s.name, []]));
  try {
    for (let i = 0; i < rounds; i++) {
      for (const s of i % 2 ? [...sides].reverse() : sides) {
        const cpu = { server: () => processCpuMs(s.pid), postgres: () => backends.read(), client: selfCpuMs };
        const r = await cannon({ url: s.base + p, headers, connections, duration, warmup, cpu });
        if (r.non2xx || r.errors)
          throw new Error(`${label}${s.name}: ${r.non2xx} non-2xx answers and ${r.errors} errors under load`);
        const c = r.cpuUs;
        ctx.log(
          `${label}round ${i + 1} ${s.name.padEnd(8)} ${r.rps.toFixed(0).padStart(5)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms` +
            (c.server !== undefined ? `  CPU µs/req: server ${c.server.toFixed(0)}` : '') +
            (c.postgres !== undefined ? ` postgres ${c.postgres.toFixed(0)}` : '') +
            (c.client !== undefined ? ` client ${c.client.toFixed(0)}` : ''),
        );
        runs[s.name].push(r);
      }
    }
  } finally {
    await backends.close();
  }
  const [b, o] = sides.map((s) => runs[s.name]);
  const ratios = o.map((r, i) => r.rps / b[i].rps);
  const best = (xs) => xs.reduce((a, r) => (r.rps > a.rps ? r : a));
  const minCpu = (xs, k) =>
    xs.every((r) => r.cpuUs[k] !== undefined) ? Math.min(...xs.map((r) => r.cpuUs[k])) : undefined;
  const cpu = {};
  for (const s of sides) {
    const parts = ['server', 'postgres', 'client'].map((k) => minCpu(runs[s.name], k));
    cpu[s.name] = {
      server: parts[0],
      postgres: parts[1],
      total: parts.every((x) => x !== undefined) ? parts[0] + parts[1] + parts[2] : undefined,
    };
  }
  ctx.log(`${label}paired ratios: ${ratios.map((x) => x.toFixed(2)).join(' ')}`);
  const p99Ratio = median(o.map((r, i) => r.p99 / Math.max(b[i].p99, 1)));
  return { runs, ratios, ratio: median(ratios), p99Ratio, best: sides.map((s) => best(runs[s.name])), cpu };
}

/** Rows for a pairedRounds result (the ratio judged against `target`). */
/**
 * Table rows of `pairedRounds`: each side's best round, the median ratio against `target`, with
 * `p99Target` the median ratio of the pairs' p99 too, and the CPU per request.
 */
export function pairedRows(what, res, target = 0.8, p99Target) {
  const r2 = (x) => Math.round(x * 100) / 100;
  const [b, o] = res.best;
  const [bn, on] = Object.keys(res.cpu);
  const rows = [
    {
      metric: `${what}: baseline best round`,
      value: Math.round(b.rps),
      unit: `req/s (p50 ${b.p50} / p99 ${b.p99} ms)`,
    },
    {
      metric: `${what}: RingMES best round`,
      value: Math.round(o.rps),
      unit: `req/s (p50 ${o.p50} / p99 ${o.p99} ms)`,
    },
    {
      metric: `${what}: ratio RingMES / baseline (median of ${res.ratios.length} pairs)`,
      value: r2(res.ratio),
      unit: '×',
      target: `≥ ${target.toFixed(2)}`,
      pass: res.ratio >= target,
    },
  ];
  if (p99Target !== undefined)
    rows.push({
      metric: `${what}: p99 ratio RingMES / baseline (median of ${res.ratios.length} pairs)`,
      value: r2(res.p99Ratio),
      unit: '×',
      target: `≤ ${p99Target}`,
      pass: res.p99Ratio <= p99Target,
    });
  const cb = res.cpu[bn];
  const co = res.cpu[on];
  if (cb.server !== undefined && co.server !== undefined)
    rows.push({
      metric: `${what}: CPU/request server process, baseline / RingMES`,
      value: `${Math.round(cb.server)} / ${Math.round(co.server)}`,
      unit: 'µs',
    });
  if (cb.total !== undefined && co.total !== undefined)
    rows.push(
      {
        metric: `${what}: CPU/request incl. postgres + client, baseline / RingMES`,
        value: `${Math.round(cb.total)} / ${Math.round(co.total)}`,
        unit: 'µs',
      },
      { metric: `${what}: ratio projected from CPU/request`, value: r2(cb.total / co.total), unit: '×' },
    );
  return rows;
}
