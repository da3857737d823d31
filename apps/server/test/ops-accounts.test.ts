// Issue 40 §2: the operator's account jobs and the setup check of `npm run ringmes --`
// (admin:create, user:reset-password, check), against a real database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSetup, createAdmin, resetPassword } from '../src/platform/ops/accounts.ts';
import { createTestApp, type TestApp, until } from './helpers.ts';

let t: TestApp;
const dirs: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const signIn = (userName: string, passWord: string) =>
  t.call('POST', '/api/v1/sso/login', { body: { userName, passWord, source: 'mes' } });

describe('ringmes admin:create / user:reset-password', () => {
  it('creates a 超级管理员 who signs in and holds every permission; refuses a taken name and a weak password', async () => {
    const made = await createAdmin(t.database.db, 'ops_chief', 'Gr1nding-Line-7');
    expect(made.generatedPassword).toBeUndefined();
    const signed = await signIn('ops_chief', 'Gr1nding-Line-7');
    expect(signed.status).toBe(200);
    const token = signed.body.result.token;
    // A route only administrators' permissions open.
    expect((await t.call('GET', '/api/v1/user/list', { token })).status).toBe(200);
    await expect(createAdmin(t.database.db, 'OPS_CHIEF', 'Another-Pass-8')).rejects.toThrow('已存在');
    await expect(createAdmin(t.database.db, 'ops_two', '123456')).rejects.toThrow('过于常见');
    await expect(createAdmin(t.database.db, 'x', 'Gr1nding-Line-7')).rejects.toThrow('用户名');
    // Without a password one is generated (16 characters) and works once shown.
    const gen = await createAdmin(t.database.db, 'ops_three');
    expect(gen.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await signIn('ops_three', gen.generatedPassword!)).status).toBe(200);
    const audit = await t.database.db
      .selectFrom('auditLog')
      .select(['action', 'entityId'])
      .where('action', '=', 'cli-admin-create')
      .execute();
    expect(audit.map((a) => Number(a.entityId))).toEqual(expect.arrayContaining([made.userId, gen.userId]));
  });

  it('resets a password: the old one and every session end, a lockout is lifted', async () => {
    await createAdmin(t.database.db, 'ops_reset', 'First-Pass-41');
    const before = (await signIn('ops_reset', 'First-Pass-41')).body.result.token;
    expect((await t.call('GET', '/api/v1/user/list', { token: before })).status).toBe(200);
    // Locked out by failed sign-ins.
    for (let i = 0; i < 12; i++) await signIn('ops_reset', `wrong-${i}-pass`);
    const r = await resetPassword(t.database.db, 'OPS_RESET');
    expect(r.userName).toBe('ops_reset');
    expect(r.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // The server hears the reset on the session channel (on PostgreSQL a moment after the commit).
    await until(
      'the old session ends',
      async () => (await t.call('GET', '/api/v1/user/list', { token: before })).status === 401,
      5_000,
    );
    expect((await signIn('ops_reset', 'First-Pass-41')).status).not.toBe(200);
    expect((await signIn('ops_reset', r.generatedPassword!)).status).toBe(200);
    await expect(resetPassword(t.database.db, 'nobody_here')).rejects.toThrow('不存在');
    await expect(resetPassword(t.database.db, 'ops_reset', 'ops_reset')).rejects.toThrow('用户名');
  });
});

describe('ringmes check', () => {
  it('passes on a working setup and names what fails', async () => {
    const good = await checkSetup(t.config, t.database);
    expect(good.items.map((i) => [i.name, i.ok])).toEqual([
      ['配置', true],
      ['数据库', true],
      ['迁移', true],
      ['导出文件目录', true],
      ['附件存储', true],
    ]);
    expect(good.ok).toBe(true);
    // An export "directory" that is a file, and a database that could not be opened.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-check-'));
    dirs.push(dir);
    const file = path.join(dir, 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const bad = await checkSetup({ ...t.config, exportDir: file }, undefined, 'connect ECONNREFUSED');
    expect(bad.ok).toBe(false);
    expect(bad.items.find((i) => i.name === '数据库')).toMatchObject({ ok: false });
    expect(bad.items.find((i) => i.name === '数据库')!.detail).toContain('ECONNREFUSED');
    expect(bad.items.find((i) => i.name === '导出文件目录')).toMatchObject({ ok: false });
  });
});
