// PGlite data directory ownership (issue 2, "Database"): one process owns a DATA_DIR, a second
// open is refused with a clear Chinese message, a stale lock is taken over, the server closes
// cleanly on SIGTERM and the data survives a restart. Embedded database only.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { freePort } from './helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const REFUSED = /数据目录 .+ 正由另一个 RingMES 进程（PID \d+）使用/;

const tmpDirs: string[] = [];
function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-datadir-'));
  tmpDirs.push(d);
  return d;
}

/** A pid that belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

interface Server {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const servers: Server[] = [];
async function spawnServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  Object.assign(env, { SEED: 'minimal', ADMIN_PASSWORD: 'admin123', LOG_LEVEL: 'warn' });
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [SERVER_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
  });
  child.stderr!.on('data', (c) => {
    out += c;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const s = { child, port, output: () => out, exited };
  servers.push(s);
  return s;
}

async function waitHealthy(s: Server, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (s.child.exitCode !== null) throw new Error(`server exited early:\n${s.output()}`);
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/api/health`, { signal: AbortSignal.timeout(1_000) });
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${s.output()}`);
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

afterAll(async () => {
  for (const s of servers)
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('PGlite data directory', () => {
  // One directory for both tests: the server then starts on an existing database (a warm start)
  // instead of creating a new one, which is the slow part on a busy machine.
  let dataDir: string;
  beforeAll(() => {
    dataDir = tmpDir();
  });

  it('is owned by one opener: a second open is refused, a stale lock is taken over, data survives', async () => {
    const lock = path.join(dataDir, 'ringmes.lock');

    const first = await openDatabase({ dataDir });
    try {
      await migrate(first.db);
      await first.db.insertInto('dept').values({ deptName: '数据目录测试' }).execute();
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));

      // A second opener while the first is open, in this process…
      const second = await openDatabase({ dataDir }).then(
        async (opened) => {
          await opened.close();
          return new Error('the second openDatabase succeeded');
        },
        (err: Error) => err,
      );
      expect(second.message).toMatch(/数据目录 .+ 正由.+使用/);
      expect(second.message).toContain(dataDir);
      // …and while another live process holds the lock.
      fs.writeFileSync(lock, String(process.ppid));
      await expect(openDatabase({ dataDir })).rejects.toThrow(REFUSED);
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.ppid));
      fs.writeFileSync(lock, String(process.pid));
    } finally {
      await first.close();
    }
    expect(fs.existsSync(lock)).toBe(false);

    // A crashed owner left its lock behind: taken over.
    fs.writeFileSync(lock, String(await deadPid()));
    const reopened = await openDatabase({ dataDir });
    try {
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
      expect(await migrate(reopened.db)).toEqual([]);
      const rows = await reopened.db
        .selectFrom('dept')
        .select('deptName')
        .where('deptName', '=', '数据目录测试')
        .execute();
      expect(rows).toEqual([{ deptName: '数据目录测试' }]);
    } finally {
      await reopened.close();
    }
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('hands on notifications from statements with parameters, simple statements and commits, each once', async () => {
    const opened = await openDatabase({ dataDir: 'memory://' });
    try {
      const heard: string[] = [];
      const stop = await opened.listen('probe_channel', (payload) => heard.push(payload));
      // A statement with parameters (the pool reads its answer), a simple one (PGlite reads it),
      // and one in a transaction (delivered with COMMIT).
      await sql`SELECT pg_notify(${'probe_channel'}, ${'bound'})`.execute(opened.db);
      await sql`SELECT pg_notify('probe_channel', 'simple')`.execute(opened.db);
      await opened.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_notify(${'probe_channel'}, ${'in-transaction'})`.execute(trx);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.sort()).toEqual(['bound', 'in-transaction', 'simple']);
      await stop();
      await sql`SELECT pg_notify(${'probe_channel'}, ${'after'})`.execute(opened.db);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toHaveLength(3);
    } finally {
      await opened.close();
    }
  });

  it('takes over a lock naming this pid that this process does not hold (a restarted container reuses pids)', async () => {
    // In a container the server often gets the same pid after every restart, so a lock left by a
    // crash can name the new process itself. Only an opener in this process still holding it counts.
    const lock = path.join(dataDir, 'ringmes.lock');
    fs.writeFileSync(lock, String(process.pid));
    const database = await openDatabase({ dataDir }).catch((err) => {
      fs.rmSync(lock, { force: true }); // leave the directory usable for the next test
      throw err;
    });
    try {
      const rows = await database.db
        .selectFrom('dept')
        .select('deptName')
        .where('deptName', '=', '数据目录测试')
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await database.close();
    }
    expect(fs.existsSync(lock)).toBe(false);
  });

  describe('the server process', () => {
    beforeAll(() => {
      // The real bundle (`npm run build -w apps/server`), rebuilt only when older than its sources
      // so a server another process is starting from dist/ is not rewritten under it.
      const newest = (p: string): number => {
        const st = fs.statSync(p, { throwIfNoEntry: false });
        if (!st) return 0;
        if (!st.isDirectory()) return st.mtimeMs;
        return Math.max(0, ...fs.readdirSync(p).map((e) => newest(path.join(p, e))));
      };
      const sources = Math.max(
        newest(path.join(ROOT, 'apps/server/src')),
        newest(path.join(ROOT, 'packages/domain/src')),
      );
      if (newest(SERVER_MAIN) < sources) {
        execFileSync(process.execPath, ['apps/server/scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
      }
    });

    it('refuses a second server on the same DATA_DIR and exits 0 on SIGTERM, removing the lock', async () => {
      const lock = path.join(dataDir, 'ringmes.lock');
      const first = await spawnServer(dataDir);
      await waitHealthy(first);
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(first.child.pid));

      const second = await spawnServer(dataDir);
      const refused = await within(second.exited, 30_000, 'second server');
      expect(refused.code).not.toBe(0);
      expect(refused.code).not.toBeNull();
      expect(second.output()).toMatch(REFUSED);
      expect(second.output()).toContain(dataDir);
      expect(second.output()).toContain(`PID ${first.child.pid}`);
      // The refused start touched nothing: the first still owns the directory and answers.
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(first.child.pid));
      const health = await fetch(`http://127.0.0.1:${first.port}/api/health`);
      expect(health.status).toBe(200);

      const t0 = Date.now();
      first.child.kill('SIGTERM');
      const stopped = await within(first.exited, 10_000, 'SIGTERM');
      expect(stopped).toEqual({ code: 0, signal: null });
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(fs.existsSync(lock)).toBe(false);
      expect(first.output()).toMatch(/收到 SIGTERM/);
    });
  });
});
