import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { audit } from '../../platform/audit.ts';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_MIN_LENGTH_SETTING,
  passwordMinLength,
} from '../../platform/auth/password-policy.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { route } from '../../platform/http/route.ts';

/** sys_setting key: menus also list pages whose screens are not built yet (建设中). */
export const SHOW_UNFINISHED_PAGES_SETTING = 'ui.showUnfinishedPages';

async function showUnfinishedPages(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('sysSetting')
    .select('value')
    .where('key', '=', SHOW_UNFINISHED_PAGES_SETTING)
    .executeTakeFirst();
  return row?.value === true;
}

/** Stores one setting and audits the change, in the caller's transaction. */
async function saveSetting(
  trx: Db,
  user: AuthUser,
  requestId: string,
  key: string,
  before: unknown,
  after: Record<string, unknown>,
  value: unknown,
) {
  const json = JSON.stringify(value);
  await trx
    .insertInto('sysSetting')
    .values({ key, value: json, updatedBy: user.id })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: json,
        updatedBy: user.id,
        updatedAt: sql`now()`,
        version: sql`sys_setting.version + 1`,
      }),
    )
    .execute();
  await audit(trx, user, { entity: 'setting', entityId: key, action: 'update', before, after }, requestId);
}

/**
 * The settings of 系统设置 (sys_setting). Every signed-in user reads them (the change-password
 * dialog shows the minimum; the menus follow the interface setting); changing them needs
 * `system:setting:edit`. The password minimum may only raise the spec's 6.
 */
export function settingRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/sysSetting/passwordPolicy',
    permission: 'authenticated',
    async handler({ app: { db } }) {
      return { minLength: await passwordMinLength(db) };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/sysSetting/passwordPolicy',
    permission: 'system:setting:edit',
    body: z.strictObject({
      minLength: z
        .number({ error: '请输入密码最小长度' })
        .int('密码最小长度必须是整数')
        .min(MIN_PASSWORD_LENGTH, `密码最小长度不能小于 ${MIN_PASSWORD_LENGTH}`)
        .max(MAX_PASSWORD_LENGTH, `密码最小长度不能大于 ${MAX_PASSWORD_LENGTH}`),
    }),
    async handler({ body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = { minLength: await passwordMinLength(trx) };
        await saveSetting(trx, user, req.id, PASSWORD_MIN_LENGTH_SETTING, before, body, body.minLength);
      });
      return { minLength: body.minLength };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/sysSetting/ui',
    permission: 'authenticated',
    async handler({ app: { db } }) {
      return { showUnfinishedPages: await showUnfinishedPages(db) };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/sysSetting/ui',
    permission: 'system:setting:edit',
    body: z.strictObject({
      showUnfinishedPages: z.boolean({ error: '请选择是否在菜单中显示建设中的页面' }),
    }),
    async handler({ body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = { showUnfinishedPages: await showUnfinishedPages(trx) };
        await saveSetting(
          trx,
          user,
          req.id,
          SHOW_UNFINISHED_PAGES_SETTING,
          before,
          body,
          body.showUnfinishedPages,
        );
      });
      return body;
    },
  });
}
