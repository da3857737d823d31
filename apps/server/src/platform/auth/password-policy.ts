import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../db/db.ts';
import { fieldError } from '../errors.ts';

/** The spec's minimum (section 9); the 系统设置 value `passwordMinLength` may only raise it. */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const PASSWORD_MIN_LENGTH_SETTING = 'passwordMinLength';

/**
 * apps/server/assets/common-passwords.txt: the 10,000 most common passwords, most common first
 * (the head of the ranked `passwords` list that the zxcvbn 4.4.2 npm package ships, MIT).
 * Found from the source tree (src/platform/auth) or the bundle (dist).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const LIST_FILE =
  [
    path.resolve(here, '../../../assets/common-passwords.txt'),
    path.resolve(here, '../assets/common-passwords.txt'),
  ].find((f) => fs.existsSync(f)) ?? path.resolve(here, '../assets/common-passwords.txt');

let common: Set<string> | undefined;
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    fs
      .readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  return common.has(password.toLowerCase());
}

/** The minimum length in force: the setting when it is a whole number above the spec's 6. */
export async function passwordMinLength(db: Db): Promise<number> {
  const row = await db
    .selectFrom('sysSetting')
    .select('value')
    .where('key', '=', PASSWORD_MIN_LENGTH_SETTING)
    .executeTakeFirst();
  const n = Number(row?.value);
  return Number.isInteger(n)
    ? Math.min(Math.max(n, MIN_PASSWORD_LENGTH), MAX_PASSWORD_LENGTH)
    : MIN_PASSWORD_LENGTH;
}

/**
 * The password policy (architecture.md, "Accounts and sign-in"): at least the configured length,
 * not one of the 10,000 most common passwords, not the user name. Failures are a 400 on `field`.
 */
export async function checkPasswordPolicy(
  db: Db,
  password: string,
  userName: string,
  field = 'passWord',
): Promise<void> {
  const min = await passwordMinLength(db);
  if (password.length < min) throw fieldError(field, `密码不能少于${min}位数`);
  if (password.toLowerCase() === userName.trim().toLowerCase())
    throw fieldError(field, '密码不能与用户名相同');
  if (isCommonPassword(password)) throw fieldError(field, '密码过于常见，容易被猜中，请换一个');
}
