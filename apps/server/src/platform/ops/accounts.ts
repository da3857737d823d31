import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { storageOf } from '../attachments/attachments.ts';
import { audit } from '../audit.ts';
import { hashPassword } from '../auth/password.ts';
import { checkPasswordPolicy } from '../auth/password-policy.ts';
import { endSessionsOf } from '../auth/sessions.ts';
import type { Database, Db } from '../db/db.ts';
import { AppError } from '../errors.ts';
import { checkHealth } from './health.ts';

/**
 * The operator's account jobs from the command line (`npm run ringmes -- admin:create | user:reset-password`):
 * for a site whose only administrator forgot the password, or a production start that should
 * get a named administrator instead of `admin`. Both write the audit log (user: none, action
 * `cli-…`); a reset ends every session of the user and the account's sign-in lockout.
 */

/** A password of 16 characters from 12 random bytes (base64url), when none is given. */
const generated = () => crypto.randomBytes(12).toString('base64url');

/** The policy's refusal as plain text (the CLI prints it; no HTTP envelope here). */
async function policy(db: Db, password: string, userName: string) {
  try {
    await checkPasswordPolicy(db, password, userName);
  } catch (e) {
    if (e instanceof AppError) throw new Error(e.message);
    throw e;
  }
}

export interface AccountResult {
  userId: number;
  userName: string;
  /** Set when the password was generated: shown once, to the operator's terminal only. */
  generatedPassword?: string;
}

/** A new user with the 超级管理员 role (roleKey `admin`). */
export async function createAdmin(
  db: Db,
  userName: string,
  password?: string,
  firstName = '系统管理员',
): Promise<AccountResult> {
  const name = userName.trim();
  if (!/^[A-Za-z0-9_.@-]{2,30}$/.test(name)) throw new Error('用户名应为 2–30 位字母、数字或 _ . @ -');
  const ready = await sql`SELECT 1 FROM role WHERE role_key = 'admin'`.execute(db).then(
    (r) => r.rows.length > 0,
    () => false,
  );
  if (!ready) throw new Error('数据库中没有超级管理员角色（admin）：请先启动一次服务器完成初始化');
  const pw = password ?? generated();
  await policy(db, pw, name);
  const hash = await hashPassword(pw);
  return db.transaction().execute(async (trx) => {
    const taken = await sql`SELECT 1 FROM app_user WHERE lower(user_name) = ${name.toLowerCase()}`.execute(
      trx,
    );
    if (taken.rows.length) throw new Error(`用户名 ${name} 已存在（忘记密码请用 user:reset-password）`);
    const role = await sql<{ id: number }>`SELECT id FROM role WHERE role_key = 'admin'`.execute(trx);
    if (!role.rows[0]) throw new Error('数据库中没有超级管理员角色（admin）：请先启动一次服务器完成初始化');
    const user = await sql<{ id: number }>`
      INSERT INTO app_user (user_name, first_name, password_hash, introduction)
      VALUES (${name}, ${firstName}, ${hash}, '由命令行创建的管理员') RETURNING id`.execute(trx);
    const id = Number(user.rows[0]!.id);
    await sql`INSERT INTO user_role (user_id, role_id) VALUES (${id}, ${role.rows[0].id})`.execute(trx);
    await audit(trx, undefined, {
      entity: 'user',
      entityId: id,
      action: 'cli-admin-create',
      after: { userName: name },
    });
    return { userId: id, userName: name, generatedPassword: password ? undefined : pw };
  });
}

/** A new password for an existing user (enabled again if disabled); every session of the user ends. */
export async function resetPassword(db: Db, userName: string, password?: string): Promise<AccountResult> {
  const name = userName.trim();
  const pw = password ?? generated();
  await policy(db, pw, name);
  const hash = await hashPassword(pw);
  return db.transaction().execute(async (trx) => {
    const r = await sql<{ id: number; userName: string }>`
      UPDATE app_user SET password_hash = ${hash}, password_changed_at = now(), status = '1',
             updated_at = now(), version = version + 1
       WHERE lower(user_name) = ${name.toLowerCase()}
      RETURNING id, user_name`.execute(trx);
    const row = r.rows[0];
    if (!row) throw new Error(`用户 ${name} 不存在`);
    // Every server process drops the user's sessions on commit (as a reset in 用户管理 does).
    await endSessionsOf(trx, Number(row.id));
    // A lockout after failed sign-ins ends with the new password.
    await sql`DELETE FROM login_throttle WHERE key = ${`acct:${name.toLowerCase()}`}`.execute(trx);
    await audit(trx, undefined, { entity: 'user', entityId: Number(row.id), action: 'cli-password' });
    return { userId: Number(row.id), userName: row.userName, generatedPassword: password ? undefined : pw };
  });
}

export interface CheckItem {
  name: string;
  ok: boolean;
  detail: string;
}

/** A directory is writable: a file is made and removed in it (made when missing). */
function writableDir(dir: string): CheckItem['detail'] | null {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.ringmes-check-${process.pid}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * `npm run ringmes -- check`: what an operator verifies before and after a start — the
 * configuration, the database answering, migrations applied, the file stores writable.
 */
export async function checkSetup(config: Config, database: Database | undefined, openError?: string) {
  const items: CheckItem[] = [];
  items.push({
    name: '配置',
    ok: true,
    detail: `${config.databaseUrl ? 'PostgreSQL' : `嵌入式数据库 ${config.dataDir}`}；端口 ${config.port}；SEED=${config.seed ?? '默认'}`,
  });
  if (!database) {
    items.push({ name: '数据库', ok: false, detail: `无法连接：${openError ?? '未知原因'}` });
  } else {
    const h = await checkHealth(database);
    // A database that answers but holds no schema yet (a new, empty database) is reachable.
    const answers =
      h.status === 'ok' ||
      (await sql`SELECT 1`.execute(database.db).then(
        () => true,
        () => false,
      ));
    items.push({
      name: '数据库',
      ok: answers,
      detail:
        h.status === 'ok'
          ? `应答 ${h.dbMs} ms；版本 ${h.version}`
          : answers
            ? '应答；尚未初始化（空库）'
            : '无应答',
    });
    items.push({
      name: '迁移',
      ok: h.status === 'ok' && h.migrationsPending === 0,
      detail:
        h.migrationsPending === 0
          ? `已是最新（${h.schema}）`
          : `待执行 ${h.migrationsPending} 个（npm run ringmes -- migrate，或启动服务器时自动执行）`,
    });
  }
  const exportsBad = writableDir(config.exportDir);
  items.push({ name: '导出文件目录', ok: !exportsBad, detail: exportsBad ?? `${config.exportDir} 可写` });
  if (config.s3) {
    try {
      const store = storageOf(config);
      const stored = await store.put(Readable.from([Buffer.from('ringmes check')]));
      await store.remove(stored.key);
      items.push({ name: '附件存储', ok: true, detail: `S3 存储桶 ${config.s3.bucket} 可写` });
    } catch (e) {
      items.push({
        name: '附件存储',
        ok: false,
        detail: `S3 存储桶 ${config.s3.bucket}：${(e as Error).message}`,
      });
    }
  } else {
    const bad = writableDir(config.attachmentDir);
    items.push({ name: '附件存储', ok: !bad, detail: bad ?? `${config.attachmentDir} 可写` });
  }
  return { ok: items.every((i) => i.ok), items };
}
