// Issue 40 §2: the daily backup (BACKUP_AT, BACKUP_DIR, BACKUP_KEEP) — once a day after its time,
// in the factory's time zone, the oldest archives beyond BACKUP_KEEP removed, one process of many.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openArchive } from '../src/platform/ops/backup.ts';
import { backupIfDue, pruneBackups } from '../src/platform/ops/backup-schedule.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `ringmes-${p}-`));
const dirs: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const dataDir = tmp('bs-data');
  dirs.push(dataDir);
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('定时备份', () => {
  it('reads BACKUP_AT, BACKUP_DIR and BACKUP_KEEP, and refuses a bad time', () => {
    expect(loadConfig({}).backup).toBeUndefined();
    expect(loadConfig({ BACKUP_AT: '02:30', BACKUP_KEEP: '3', DATA_DIR: '/srv/rm' }, '/').backup).toEqual({
      at: '02:30',
      dir: '/srv/rm/backups',
      keep: 3,
    });
    expect(() => loadConfig({ BACKUP_AT: '25:00' })).toThrow('BACKUP_AT');
  });

  it('makes one archive a day after its time (factory time), then keeps the newest BACKUP_KEEP', {
    timeout: 300_000,
  }, async () => {
    const dir = tmp('bs-out');
    dirs.push(dir);
    const config = { ...t.config, databaseUrl: t.url };
    const schedule = { at: '02:30', dir, keep: 2 };
    // 2026-11-10 02:00 in Shanghai (18:00 UTC the day before): not yet.
    expect(await backupIfDue(t.database, config, schedule, new Date('2026-11-09T18:00:00Z'))).toBeNull();
    // 02:31: the day's archive, holding the database.
    const first = await backupIfDue(t.database, config, schedule, new Date('2026-11-09T18:31:00Z'));
    expect(first?.file).toBe(path.join(dir, 'ringmes-backup-20261110-0231.tar.gz'));
    const archive = await openArchive(first!.file);
    expect(Object.keys(archive.manifest.tables)).toContain('sale_order');
    fs.rmSync(archive.dir, { recursive: true, force: true });
    // Later the same day: made already.
    expect(await backupIfDue(t.database, config, schedule, new Date('2026-11-10T06:00:00Z'))).toBeNull();
    // Two more days: three archives made, the oldest removed.
    await backupIfDue(t.database, config, schedule, new Date('2026-11-10T18:45:00Z'));
    const third = await backupIfDue(t.database, config, schedule, new Date('2026-11-11T19:00:00Z'));
    expect(third?.pruned).toEqual(['ringmes-backup-20261110-0231.tar.gz']);
    expect(fs.readdirSync(dir).sort()).toEqual([
      'ringmes-backup-20261111-0245.tar.gz',
      'ringmes-backup-20261112-0300.tar.gz',
    ]);
  });

  it('prunes only its own archives', () => {
    const dir = tmp('bs-prune');
    dirs.push(dir);
    for (const f of [
      'ringmes-backup-20261101-0230.tar.gz',
      'ringmes-backup-20261102-0230.tar.gz',
      'ringmes-backup-20261103-0230.tar.gz',
      'notes.txt',
    ])
      fs.writeFileSync(path.join(dir, f), 'x');
    expect(pruneBackups(dir, 1)).toEqual([
      'ringmes-backup-20261101-0230.tar.gz',
      'ringmes-backup-20261102-0230.tar.gz',
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.txt', 'ringmes-backup-20261103-0230.tar.gz']);
  });
});
