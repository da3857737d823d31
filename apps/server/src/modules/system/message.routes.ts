import { MESSAGE_KINDS, type MessageKind } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { paginate, pagingFields } from '../../platform/paging.ts';

const KINDS = Object.keys(MESSAGE_KINDS) as [MessageKind, ...MessageKind[]];

export function messageRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/message/page',
    permission: 'authenticated',
    query: z.strictObject({
      ...pagingFields,
      read: z.enum(['0', '1']).optional(),
      kind: z.enum(KINDS, { error: '消息类型不正确' }).optional(),
    }),
    async handler({ query, user, app: { db } }) {
      let q = db
        .selectFrom('message')
        .select([
          'id',
          'title',
          'content',
          'kind',
          'link',
          'createdAt',
          'readAt',
          sql<boolean>`read_at IS NOT NULL`.as('read'),
        ])
        .where('userId', '=', user.id);
      if (query.read === '1') q = q.where('readAt', 'is not', null);
      if (query.read === '0') q = q.where('readAt', 'is', null);
      if (query.kind) q = q.where('kind', '=', query.kind);
      return paginate(q, query, { createdAt: 'createdAt' }, { column: 'createdAt', desc: true }, 'id');
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/message/unreadCount',
    permission: 'authenticated',
    async handler({ user, app: { db } }) {
      const r = await db
        .selectFrom('message')
        .select(sql<number>`count(*)::int`.as('count'))
        .where('userId', '=', user.id)
        .where('readAt', 'is', null)
        .executeTakeFirstOrThrow();
      return { count: r.count };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/message/read/:id',
    permission: 'authenticated',
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const r = await db
        .updateTable('message')
        .set({ readAt: sql`coalesce(read_at, now())` })
        .where('id', '=', params.id)
        .where('userId', '=', user.id)
        .executeTakeFirst();
      if (!r.numUpdatedRows) throw notFound('消息不存在');
      return null;
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/message/readAll',
    permission: 'authenticated',
    async handler({ user, app: { db } }) {
      await db
        .updateTable('message')
        .set({ readAt: sql`now()` })
        .where('userId', '=', user.id)
        .where('readAt', 'is', null)
        .execute();
      return null;
    },
  });
}
