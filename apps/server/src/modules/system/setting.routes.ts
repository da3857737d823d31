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
import { route } from '../../platform/http/route.ts';

/**
 * The password policy setting of 系统设置 (sys_setting `passwordMinLength`). Every signed-in
 * user reads it (the change-password dialog shows the minimum); changing it needs
 * `system:setting:edit` and may only raise the spec's minimum of 6.
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
        const before = await passwordMinLength(trx);
        await trx
          .insertInto('sysSetting')
          .values({
            key: PASSWORD_MIN_LENGTH_SETTING,
            value: JSON.stringify(body.minLength),
            updatedBy: user.id,
          })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({
              value: JSON.stringify(body.minLength),
              updatedBy: user.id,
              updatedAt: sql`now()`,
              version: sql`sys_setting.version + 1`,
            }),
          )
          .execute();
        await audit(
          trx,
          user,
          {
            entity: 'setting',
            entityId: PASSWORD_MIN_LENGTH_SETTING,
            action: 'update',
            before: { minLength: before },
            after: body,
          },
          req.id,
        );
      });
      return { minLength: body.minLength };
    },
  });
}
