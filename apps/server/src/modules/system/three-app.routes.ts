import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { newCredentials, validIpEntry } from '../../platform/auth/api-clients.ts';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { containsPattern } from '../../platform/db/like.ts';
import { conflict, fieldError, forbidden, notFound, STALE_VERSION } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { paginate, pagingFields } from '../../platform/paging.ts';
import { grantedMenus, toTree } from './menu.service.ts';
import { assertHolds } from './user.service.ts';

/** What a client's row shows: everything but the secret. */
const COLUMNS = [
  'c.id',
  'c.name',
  'c.appKey',
  'c.scopes',
  'c.ipAllow',
  'c.expiresAt',
  'c.rateLimit',
  'c.status',
  'c.remark',
  'c.createdBy',
  'u.firstName as createdByName',
  'c.createdAt',
  'c.updatedAt',
  'c.lastUsedAt',
  'c.version',
] as const;

const clientQuery = (db: Db) =>
  db.selectFrom('apiClient as c').leftJoin('appUser as u', 'u.id', 'c.createdBy').select(COLUMNS);

async function getClient(db: Db, id: number) {
  const row = await clientQuery(db).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('应用不存在或已被删除');
  return row;
}

const fields = {
  name: z
    .string({ error: '请输入应用名称' })
    .trim()
    .min(1, '请输入应用名称')
    .max(60, '应用名称不能超过 60 个字'),
  scopes: z
    .array(z.string().trim().min(1).max(100), { error: '授权范围必须是权限标识的列表' })
    .max(1000, '授权范围过多')
    .transform((a) => [...new Set(a)]),
  ipAllow: z
    .array(z.string().trim().max(60), { error: 'IP 白名单必须是地址列表' })
    .max(100, 'IP 白名单最多 100 条')
    .refine((a) => a.every(validIpEntry), 'IP 白名单只能填写 IP 地址或 CIDR 网段，如 10.0.0.5 或 10.0.0.0/24')
    .transform((a) => [...new Set(a)]),
  expiresAt: z
    .string({ error: '到期时间格式不正确' })
    .refine((s) => !Number.isNaN(Date.parse(s)), '到期时间格式不正确')
    .nullable(),
  rateLimit: z
    .number({ error: '请输入每分钟调用上限' })
    .int('每分钟调用上限必须是整数')
    .min(1, '每分钟调用上限不能小于 1')
    .max(6000, '每分钟调用上限不能大于 6000'),
  status: zx.flag,
  remark: zx.text(200).nullable().optional(),
};

/**
 * Scopes are permission strings of the menu tree, and never more than the person granting them
 * holds (an administrator holds every one).
 */
async function checkScopes(db: Db, user: AuthUser, scopes: string[]) {
  if (!scopes.length) return;
  const known = await db
    .selectFrom('menu')
    .select('menuPermissions')
    .distinct()
    .where('menuPermissions', 'in', scopes)
    .execute();
  const set = new Set(known.map((k) => k.menuPermissions));
  const unknown = scopes.find((s) => !set.has(s));
  if (unknown) throw fieldError('scopes', `权限标识 ${unknown} 不在菜单中`);
  const beyond = scopes.find((s) => !can(user, s));
  if (beyond) throw fieldError('scopes', `不能授予您自己没有的权限：${beyond}`);
}

type ClientRow = Awaited<ReturnType<typeof getClient>>;

/**
 * Someone else's app is changed — any field — or deleted only by who holds every scope it carries
 * (a super-admin holds them all): re-enabling it, lifting its IP allow-list, expiry or rate limit
 * would otherwise open access the manager was never granted (issue 34). Its creator always may:
 * the app acts as him, narrowed to the scopes he still holds.
 */
function assertMayChange(user: AuthUser, client: ClientRow) {
  if (client.createdBy === user.id) return;
  assertHolds(user, client.scopes as string[], '该应用拥有您不具备的权限，不能修改');
}

/**
 * A new secret signs calls as the app's creator — his name in the audit trail, his documents, his
 * side of maker ≠ checker — so only he or a super-admin takes one, whatever scopes one holds.
 */
function assertMayReset(user: AuthUser, client: ClientRow) {
  if (!user.isAdmin && client.createdBy !== user.id)
    throw forbidden('只有应用的创建人或超级管理员可以重置密钥');
}

function checkExpiry(expiresAt: string | null) {
  if (expiresAt && Date.parse(expiresAt) <= Date.now()) throw fieldError('expiresAt', '到期时间必须晚于现在');
}

const toDate = (s: string | null) => (s ? new Date(s) : null);

/**
 * 第三方应用 (/system/three-app/manage): API clients that call with an HMAC signature
 * (platform/auth/api-clients.ts). The secret is answered once, by add and resetSecret.
 */
export function threeAppRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/threeApp/page',
    permission: 'system:app:list',
    query: z.strictObject({ ...pagingFields, name: zx.text(60).optional(), status: zx.flag.optional() }),
    async handler({ query, app: { db } }) {
      let q = clientQuery(db);
      if (query.name) q = q.where('c.name', 'ilike', containsPattern(query.name));
      if (query.status) q = q.where('c.status', '=', query.status);
      return paginate(
        q,
        query,
        { name: 'c.name', createdAt: 'c.createdAt', lastUsedAt: 'c.lastUsedAt', expiresAt: 'c.expiresAt' },
        { column: 'c.id', desc: true },
        'c.id',
      );
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/threeApp/info/:id',
    permission: 'system:app:list',
    params: idParams,
    handler: ({ params, app: { db } }) => getClient(db, params.id),
  });

  // The menu nodes the current user may grant an app: those they hold themselves.
  route(app, {
    method: 'GET',
    url: '/api/v1/threeApp/scopeTree',
    permission: 'system:app:list',
    alsoAllowedBy: ['system:app:add', 'system:app:edit'],
    handler: async ({ user, app: { db } }) => toTree(await grantedMenus(db, user)),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/threeApp/add',
    permission: 'system:app:add',
    body: z.strictObject({
      ...fields,
      scopes: fields.scopes.default([]),
      ipAllow: fields.ipAllow.default([]),
      expiresAt: fields.expiresAt.default(null),
      rateLimit: fields.rateLimit.default(60),
      status: fields.status.default('1'),
    }),
    async handler({ body, user, req, app: { db, secrets } }) {
      checkExpiry(body.expiresAt);
      const { appKey, secret } = newCredentials();
      const id = await db.transaction().execute(async (trx) => {
        await checkScopes(trx, user, body.scopes);
        const row = await trx
          .insertInto('apiClient')
          .values({
            name: body.name,
            appKey,
            ...secrets.seal(secret),
            scopes: JSON.stringify(body.scopes),
            ipAllow: JSON.stringify(body.ipAllow),
            expiresAt: toDate(body.expiresAt),
            rateLimit: body.rateLimit,
            status: body.status,
            remark: body.remark ?? null,
            createdBy: user.id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(
          trx,
          user,
          { entity: 'apiClient', entityId: row.id, action: 'create', after: { ...body, appKey } },
          req.id,
        );
        return row.id as number;
      });
      return { ...(await getClient(db, id)), secret };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/threeApp/edit/:id',
    permission: 'system:app:edit',
    params: idParams,
    body: z.strictObject({
      name: fields.name.optional(),
      scopes: fields.scopes.optional(),
      ipAllow: fields.ipAllow.optional(),
      expiresAt: fields.expiresAt.optional(),
      rateLimit: fields.rateLimit.optional(),
      status: fields.status.optional(),
      remark: fields.remark,
      version: zx.version,
    }),
    async handler({ params, body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getClient(trx, params.id);
        const { version, scopes, ipAllow, expiresAt, ...data } = body;
        if (version !== undefined && before.version !== version) throw conflict(STALE_VERSION);
        assertMayChange(user, before);
        if (scopes) await checkScopes(trx, user, scopes);
        if (expiresAt !== undefined) checkExpiry(expiresAt);
        await trx
          .updateTable('apiClient')
          .set({
            ...data,
            ...(scopes ? { scopes: JSON.stringify(scopes) } : {}),
            ...(ipAllow ? { ipAllow: JSON.stringify(ipAllow) } : {}),
            ...(expiresAt !== undefined ? { expiresAt: toDate(expiresAt) } : {}),
            updatedAt: sql`now()`,
            version: sql`version + 1`,
          })
          .where('id', '=', params.id)
          .execute();
        await audit(
          trx,
          user,
          { entity: 'apiClient', entityId: params.id, action: 'update', before, after: body },
          req.id,
        );
      });
      return getClient(db, params.id);
    },
  });

  // A new secret (the old one stops working at once), answered once.
  route(app, {
    method: 'POST',
    url: '/api/v1/threeApp/resetSecret/:id',
    permission: 'system:app:edit',
    params: idParams,
    async handler({ params, user, req, app: { db, secrets } }) {
      const { secret } = newCredentials();
      await db.transaction().execute(async (trx) => {
        const before = await getClient(trx, params.id);
        assertMayReset(user, before);
        await trx
          .updateTable('apiClient')
          .set({ ...secrets.seal(secret), updatedAt: sql`now()`, version: sql`version + 1` })
          .where('id', '=', params.id)
          .execute();
        await audit(
          trx,
          user,
          {
            entity: 'apiClient',
            entityId: params.id,
            action: 'reset-secret',
            before: { appKey: before.appKey },
          },
          req.id,
        );
      });
      return { ...(await getClient(db, params.id)), secret };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/threeApp/delete/:id',
    permission: 'system:app:delete',
    params: idParams,
    async handler({ params, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getClient(trx, params.id);
        assertMayChange(user, before);
        await trx.deleteFrom('apiClient').where('id', '=', params.id).execute();
        await audit(
          trx,
          user,
          { entity: 'apiClient', entityId: params.id, action: 'delete', before },
          req.id,
        );
      });
      return null;
    },
  });
}
