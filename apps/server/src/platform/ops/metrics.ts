import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/db.ts';
import { errorEnvelope } from '../http/edge.ts';
import { routeOf } from './access-log.ts';
import { RELEASE } from './version.ts';

/**
 * The process's own metrics, once per process whatever the number of apps built in it (tests):
 * CPU, memory, heap, handles, garbage collection and the event-loop delay (`nodejs_eventloop_lag_*`,
 * sampled every 10 ms).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

/** Who may read `/metrics`: a bearer token when METRICS_TOKEN is set, otherwise the METRICS_ALLOW addresses. */
export interface MetricsAccess {
  token: string | undefined;
  allow: string[];
}

function allowList(items: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const item of items) {
    const [addr, bits] = item.split('/');
    const family = net.isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits !== undefined) list.addSubnet(addr, Number(bits), family);
    else list.addAddress(addr, family);
  }
  return list;
}

/** The client's address as METRICS_ALLOW sees it: `req.ip` (X-Forwarded-For only through TRUST_PROXY). */
function allowed(req: FastifyRequest, access: MetricsAccess, list: net.BlockList): boolean {
  if (access.token) {
    const given = req.headers.authorization ?? '';
    return given === `Bearer ${access.token}`;
  }
  const ip = req.ip.startsWith('::ffff:') ? req.ip.slice(7) : req.ip;
  const family = net.isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  // A forwarded request with no trusted proxy configured came through a proxy we cannot see past:
  // its socket address (the proxy's, often 127.0.0.1) says nothing about the client.
  if (req.headers['x-forwarded-for'] !== undefined && req.ip === req.socket.remoteAddress) return false;
  return net.isIP(ip) !== 0 && list.check(ip, family);
}

declare module 'fastify' {
  interface FastifyInstance {
    ringmesMetrics: AppMetrics;
  }
}

export interface AppMetrics {
  registry: Registry;
  /** Runs of a background job (housekeeping, backups) by outcome. */
  jobRuns: Counter<'job' | 'outcome'>;
}

/**
 * `/metrics` in the Prometheus text format: request durations by method, route pattern and status
 * (`ringmes_http_request_duration_seconds`, whose `_count` is the request count), the database
 * pool (PostgreSQL), background job runs, the release, and the process's own metrics.
 */
export function registerMetrics(app: FastifyInstance, database: Database, access: MetricsAccess): AppMetrics {
  const registry = new Registry();
  const duration = new Histogram({
    name: 'ringmes_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: 'ringmes_build_info',
    help: 'The running release (always 1)',
    labelNames: ['version', 'commit', 'db'] as const,
    registers: [registry],
  }).set({ version: RELEASE.version, commit: RELEASE.commit, db: database.kind }, 1);
  if (database.poolStats) {
    const stats = database.poolStats;
    const gauge = (name: string, help: string, pick: (s: ReturnType<typeof stats>) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(pick(stats()));
        },
      });
    gauge('ringmes_db_pool_max', 'Connections the request pool may open', (s) => s.max);
    gauge('ringmes_db_pool_connections', 'Connections open in the request pool', (s) => s.total);
    gauge('ringmes_db_pool_idle', 'Idle connections in the request pool', (s) => s.idle);
    gauge('ringmes_db_pool_waiting', 'Queries waiting for a pool connection', (s) => s.waiting);
  }
  if (database.replicaStats) {
    const stats = database.replicaStats;
    new Gauge({
      name: 'ringmes_db_replica_up',
      help: 'The read replica answered its last check (1) or not (0)',
      registers: [registry],
      collect() {
        this.set(stats().up ? 1 : 0);
      },
    });
    new Gauge({
      name: 'ringmes_db_replica_lag_seconds',
      help: 'How far the read replica was behind the primary at its last check (-1: down)',
      registers: [registry],
      collect() {
        const lag = stats().lagMs;
        this.set(lag < 0 ? -1 : Number.isFinite(lag) ? lag / 1000 : 1e9);
      },
    });
    new Counter({
      name: 'ringmes_db_replica_reads_total',
      help: 'Statements of heavy reads by where they ran: replica, or primary (replica down or behind)',
      labelNames: ['target'] as const,
      registers: [registry],
      collect() {
        const s = stats();
        this.reset();
        this.inc({ target: 'replica' }, s.reads);
        this.inc({ target: 'primary' }, s.fallbacks);
      },
    });
  }
  const jobRuns = new Counter({
    name: 'ringmes_job_runs_total',
    help: 'Background job runs by job and outcome (ok, failed, skipped: another process ran it)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });

  app.addHook('onResponse', (req, reply, done) => {
    duration.observe(
      { method: req.method, route: routeOf(req), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  const list = allowList(access.allow);
  const proc = processMetrics();
  app.get('/metrics', async (req, reply) => {
    if (!allowed(req, access, list)) {
      return reply
        .status(403)
        .send(errorEnvelope('403', '无权读取运行指标（METRICS_TOKEN / METRICS_ALLOW）'));
    }
    const text = `${await proc.metrics()}\n${await registry.metrics()}`;
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
  const metrics = { registry, jobRuns };
  app.decorate('ringmesMetrics', metrics);
  return metrics;
}
