// Issue 10 §5, "The embedded mode blocks its own event loop": a list page under 16 connections on
// the embedded database (PGlite) against the same server on PostgreSQL; the PGlite server's event-loop
// delay is measured inside it (bench/probes/event-loop.mjs) over exactly the measured load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cannon,
  freshPgDatabase,
  login,
  median,
  pgBackendsCpu,
  processCpuMs,
  selfCpuMs,
  sleep,
  startServer,
} from '../lib.mjs';

const PATH = '/api/v1/material-info/page?pageNum=1&pageSize=20';
const CONNECTIONS = 16;

export default {
  name: 'pglite-list',
  description: `material list at ${CONNECTIONS} connections: PGlite vs PostgreSQL mode; PGlite event-loop delay`,
  async run(ctx) {
    const { duration, warmup, rounds } = ctx.options;
    const database = await freshPgDatabase(ctx);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-bench-pglite-'));
    ctx.onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const probeFile = path.join(dataDir, 'loop.json');

    const pgServer = await startServer(ctx, { DATABASE_URL: database.url, SEED: 'demo' });
    const liteServer = await startServer(
      ctx,
      { DATA_DIR: path.join(dataDir, 'db'), SEED: 'demo', LOOP_PROBE_FILE: probeFile },
      { nodeArgs: ['--import', path.join(ctx.benchDir, 'probes/event-loop.mjs')] },
    );
    ctx.log(`servers healthy: PostgreSQL mode :${pgServer.port}, PGlite mode :${liteServer.port}`);
    const loop = async () => {
      process.kill(liteServer.child.pid, 'SIGUSR2');
      for (let i = 0; i < 50 && !fs.existsSync(probeFile); i++) await sleep(20);
      await sleep(50);
      const stats = JSON.parse(fs.readFileSync(probeFile, 'utf8'));
      fs.rmSync(probeFile);
      return stats;
    };

    const backends = pgBackendsCpu(database.name);
    ctx.onCleanup(() => backends.close());
    const sides = [
      ['postgres', pgServer, await login(pgServer.base), () => backends.read()],
      ['pglite', liteServer, await login(liteServer.base), async () => 0],
    ];
    for (const [, server, token] of sides) {
      await cannon({
        url: server.base + PATH,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        duration: 0,
        warmupRequests: 2000,
      });
    }
    const runs = { postgres: [], pglite: [] };
    const loops = [];
    for (let i = 0; i < rounds; i++) {
      for (const [side, server, token, dbCpu] of i % 2 ? [...sides].reverse() : sides) {
        if (side === 'pglite') await loop(); // starts the histogram over
        const cpu = { server: () => processCpuMs(server.child.pid), db: dbCpu, client: selfCpuMs };
        const r = await cannon({
          url: server.base + PATH,
          headers: { authorization: `Bearer ${token}` },
          connections: CONNECTIONS,
          duration,
          warmup,
          cpu,
        });
        if (r.non2xx || r.errors) throw new Error(`${side}: ${r.non2xx} non-2xx and ${r.errors} errors`);
        let note = '';
        if (side === 'pglite') {
          const l = await loop();
          loops.push(l);
          note = `  event loop p50 ${l.p50} ms p99 ${l.p99} ms max ${l.max} ms`;
        }
        ctx.log(
          `round ${i + 1} ${side.padEnd(8)} ${r.rps.toFixed(0).padStart(5)} req/s  p99 ${r.p99} ms  ` +
            `CPU µs/request: server ${r.cpuUs.server?.toFixed(0)}${side === 'postgres' ? ` postgres ${r.cpuUs.db?.toFixed(0)}` : ''}${note}`,
        );
        runs[side].push(r);
      }
    }
    await pgServer.stop();
    await liteServer.stop();
    const ratios = runs.pglite.map((r, i) => r.rps / runs.postgres[i].rps);
    const ratio = median(ratios);
    const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    const loopP99 = median(loops.map((l) => l.p99));
    const minCpu = (xs, k) => Math.min(...xs.map((r) => r.cpuUs[k] ?? Number.POSITIVE_INFINITY));
    const r2 = (x) => Math.round(x * 100) / 100;
    return [
      {
        metric: 'PostgreSQL mode, median round',
        value: Math.round(median(runs.postgres.map((r) => r.rps))),
        unit: 'req/s',
      },
      {
        metric: 'PGlite mode, median round',
        value: Math.round(median(runs.pglite.map((r) => r.rps))),
        unit: 'req/s',
      },
      {
        metric: `PGlite / PostgreSQL throughput (median of ${ratios.length} pairs, spread ${spread})`,
        value: r2(ratio),
        unit: '×',
        target: '≥ 0.50',
        pass: ratio >= 0.5,
      },
      {
        metric: 'server CPU per request: PostgreSQL mode (+ postgres) / PGlite mode',
        value: `${Math.round(minCpu(runs.postgres, 'server'))} (+${Math.round(minCpu(runs.postgres, 'db'))}) / ${Math.round(minCpu(runs.pglite, 'server'))}`,
        unit: 'µs',
      },
      {
        metric: `PGlite event-loop delay p99 under ${CONNECTIONS} connections (median of rounds; p50 ${median(loops.map((l) => l.p50))} ms)`,
        value: loopP99,
        unit: 'ms',
        target: '≤ 50',
        pass: loopP99 <= 50,
      },
    ];
  },
};
