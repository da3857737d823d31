import { permissionsFor, type ResourceDef, recordLink } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  type AttachmentOwner,
  downloadQuery,
  multipartError,
  type StoredAttachment,
  sendAttachment,
  storageOf,
  storeAttachment,
} from '../../../platform/attachments/attachments.ts';
import { type AuthUser, can } from '../../../platform/auth/sessions.ts';
import type { Db } from '../../../platform/db/db.ts';
import { containsPattern } from '../../../platform/db/like.ts';
import { badRequest, fieldError, forbidden, notFound } from '../../../platform/errors.ts';
import { formFile } from '../../../platform/http/multipart.ts';
import { type App, route } from '../../../platform/http/route.ts';
import { idParams, zx } from '../../../platform/http/validation.ts';
import { notify } from '../../../platform/messages.ts';
import { type RecordHead, readableRecord, readableResource, recordTitle } from './access.ts';
import { type HistoryEntry, historyOf } from './history.ts';

/**
 * The timeline of any declared record (issue 41 §1): its history from the audit log, comments
 * with @mentions (each mention an in-app message to the user named) and files attached to it,
 * newest first. One API for every document and master record; each call needs the read
 * permission of the record (`access.ts`), whatever its resource.
 */

/** Files attached through the timeline are stored under this owner name (`attachment.owner_resource`). */
export const timelineOwnerOf = (def: ResourceDef) => `timeline:${def.name}`;
const defOfOwner = (owner: string) => (owner.startsWith('timeline:') ? owner.slice(9) : undefined);

const recordParams = z.strictObject({
  resource: z.string().max(60, '不能超过 60 个字符'),
  id: zx.id,
});

const commentBody = z.strictObject({
  content: z
    .string({ error: '请填写评论内容' })
    .trim()
    .min(1, '请填写评论内容')
    .max(2000, '评论不能超过 2000 个字符'),
  mentions: z.array(zx.id, { error: '提及的用户应为用户编号列表' }).max(20, '一次最多提及 20 人').optional(),
});

// ---- answers (the OpenAPI document's and the contract checker's shapes) ----
const who = {
  id: z.number().int(),
  at: z.string().describe('时间 YYYY-MM-DD HH:mm:ss'),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
};
const historySchema = z.object({
  kind: z.literal('history'),
  ...who,
  action: z.string(),
  actionLabel: z.string().describe('操作：创建、修改、审核、关闭…'),
  changes: z.array(z.object({ field: z.string(), label: z.string(), from: z.string(), to: z.string() })),
  fromState: z.string().nullable(),
  toState: z.string().nullable(),
  reason: z.string().nullable(),
});
const commentSchema = z.object({
  kind: z.literal('comment'),
  ...who,
  content: z.string(),
  mentions: z.array(z.object({ id: z.number().int(), name: z.string() })),
  mine: z.boolean().describe('本人的评论（可删除）'),
});
const attachmentSchema = z.object({
  kind: z.literal('attachment'),
  ...who,
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  removable: z.boolean(),
});
const timelineSchema = z.object({
  resource: z.string(),
  resourceLabel: z.string(),
  id: z.number().int(),
  title: z.string(),
  entries: z.array(z.discriminatedUnion('kind', [historySchema, commentSchema, attachmentSchema])),
});
const mentionableSchema = z.array(
  z.object({ id: z.number().int(), userName: z.string(), firstName: z.string().nullable() }),
);

interface CommentEntry {
  kind: 'comment';
  id: number;
  at: Date;
  userId: number | null;
  userName: string | null;
  content: string;
  mentions: { id: number; name: string }[];
  mine: boolean;
}
interface AttachmentEntry {
  kind: 'attachment';
  id: number;
  at: Date;
  userId: number | null;
  userName: string | null;
  fileName: string;
  mimeType: string;
  size: number;
  removable: boolean;
}
type Entry = HistoryEntry | CommentEntry | AttachmentEntry;

/** Comments and files: at most this many of each per record, the newest. */
const ENTRY_LIMIT = 500;

async function commentsOf(db: Db, user: AuthUser, def: ResourceDef, id: number): Promise<CommentEntry[]> {
  const rows = (
    await sql<{
      id: number;
      content: string;
      mentions: number[];
      createdBy: number | null;
      userName: string | null;
      createdAt: Date;
    }>`
      SELECT c.id, c.content, c.mentions, c.created_by, coalesce(nullif(u.first_name, ''), u.user_name) AS user_name,
             c.created_at
        FROM record_comment c LEFT JOIN app_user u ON u.id = c.created_by
       WHERE c.resource = ${def.name} AND c.record_id = ${id}
       ORDER BY c.id DESC LIMIT ${ENTRY_LIMIT}`.execute(db)
  ).rows;
  const mentioned = [...new Set(rows.flatMap((r) => (r.mentions ?? []).map(Number)))];
  const names = new Map<number, string>();
  if (mentioned.length) {
    const found = await sql<{ id: number; name: string }>`
      SELECT id, coalesce(nullif(first_name, ''), user_name) AS name FROM app_user
       WHERE id = ANY(${sql.val(mentioned)}::bigint[])`.execute(db);
    for (const u of found.rows) names.set(Number(u.id), u.name);
  }
  return rows.map((r) => ({
    kind: 'comment',
    id: Number(r.id),
    at: r.createdAt,
    userId: r.createdBy === null ? null : Number(r.createdBy),
    userName: r.userName,
    content: r.content,
    mentions: (r.mentions ?? []).map(Number).map((m) => ({ id: m, name: names.get(m) ?? `#${m}` })),
    mine: r.createdBy !== null && Number(r.createdBy) === user.id,
  }));
}

/** May the user remove a file of the timeline: its uploader, or whoever may edit the record's resource. */
const mayRemoveFile = (user: AuthUser, def: ResourceDef, createdBy: number | null) =>
  (createdBy !== null && Number(createdBy) === user.id) ||
  permissionsFor(def, 'edit').some((p) => can(user, p));

async function filesOf(db: Db, user: AuthUser, def: ResourceDef, id: number): Promise<AttachmentEntry[]> {
  const rows = (
    await sql<{
      id: number;
      fileName: string;
      mimeType: string;
      size: number;
      createdBy: number | null;
      userName: string | null;
      createdAt: Date;
    }>`
      SELECT a.id, a.file_name, a.mime_type, a.size, a.created_by,
             coalesce(nullif(u.first_name, ''), u.user_name) AS user_name, a.created_at
        FROM attachment a LEFT JOIN app_user u ON u.id = a.created_by
       WHERE a.owner_resource = ${timelineOwnerOf(def)} AND a.owner_id = ${id}
       ORDER BY a.id DESC LIMIT ${ENTRY_LIMIT}`.execute(db)
  ).rows;
  return rows.map((r) => ({
    kind: 'attachment',
    id: Number(r.id),
    at: r.createdAt,
    userId: r.createdBy === null ? null : Number(r.createdBy),
    userName: r.userName,
    fileName: r.fileName,
    mimeType: r.mimeType,
    size: Number(r.size),
    removable: mayRemoveFile(user, def, r.createdBy),
  }));
}

/**
 * The users a comment on `def` may mention: active users holding a read permission of the
 * resource (or administrators), so a mention's message never names a record its reader cannot
 * open for want of the permission. `ids` narrows to those users, `keyword` searches name and account.
 */
async function mentionable(
  db: Db,
  def: ResourceDef,
  opts: { ids?: number[]; keyword?: string; limit: number },
): Promise<{ id: number; userName: string; firstName: string | null }[]> {
  const perms = [...permissionsFor(def, 'list'), '*:*:*'];
  const pattern = opts.keyword ? containsPattern(opts.keyword) : undefined;
  const rows = await sql<{ id: number; userName: string; firstName: string | null }>`
    SELECT u.id, u.user_name, u.first_name FROM app_user u
     WHERE u.status = '1'
       AND u.id IN (SELECT ur.user_id FROM user_role ur JOIN role r ON r.id = ur.role_id AND r.status = '1'
                     WHERE r.role_key = 'admin'
                        OR EXISTS (SELECT 1 FROM role_menu rm JOIN menu m ON m.id = rm.menu_id
                                    WHERE rm.role_id = r.id AND m.menu_permissions = ANY(${sql.val(perms)}::text[])))
       ${opts.ids ? sql`AND u.id = ANY(${sql.val(opts.ids)}::bigint[])` : sql``}
       ${pattern ? sql`AND (u.user_name ILIKE ${pattern} OR u.first_name ILIKE ${pattern})` : sql``}
     ORDER BY u.id LIMIT ${opts.limit}`.execute(db);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The owner through which the timeline stores a record's files: the record must still exist. */
function ownerFor(def: ResourceDef): AttachmentOwner {
  return {
    name: timelineOwnerOf(def),
    label: def.label,
    read: 'authenticated',
    write: 'authenticated',
    async assertWritable(db, ownerId) {
      const r = await sql`SELECT id FROM ${sql.table(def.table)} WHERE id = ${ownerId} FOR SHARE`.execute(db);
      if (!r.rows.length) throw notFound(`${def.label}不存在或已被删除`);
    },
  };
}

export function timelineRoutes(app: App) {
  const storage = storageOf(app.ringmes.config);
  const maxBytes = app.ringmes.config.attachmentMaxBytes;

  route(app, {
    method: 'GET',
    url: '/api/v1/timeline/record/:resource/:id',
    permission: 'authenticated',
    params: recordParams,
    response: timelineSchema,
    async handler({ params, user, app: { db, config } }) {
      const def = readableResource(user, params.resource);
      const head = await readableRecord(db, user, def, params.id);
      const [history, comments, files] = [
        await historyOf(db, user, def, head, config.timeZone),
        await commentsOf(db, user, def, head.id),
        await filesOf(db, user, def, head.id),
      ];
      const entries: Entry[] = [...history, ...comments, ...files].sort(
        (a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id,
      );
      return {
        resource: def.name,
        resourceLabel: def.label,
        id: head.id,
        title: recordTitle(def, head),
        entries,
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/timeline/record/:resource/:id/mentionable',
    permission: 'authenticated',
    params: recordParams,
    query: z.strictObject({ keyword: zx.text(40).optional() }),
    response: mentionableSchema,
    async handler({ params, query, user, app: { db } }) {
      const def = readableResource(user, params.resource);
      await readableRecord(db, user, def, params.id);
      return mentionable(db, def, { keyword: query.keyword || undefined, limit: 20 });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/timeline/record/:resource/:id/comment',
    permission: 'authenticated',
    params: recordParams,
    body: commentBody,
    response: commentSchema,
    async handler({ params, body, user, app: { db } }) {
      const def = readableResource(user, params.resource);
      return db.transaction().execute(async (trx) => {
        const head = await readableRecord(trx, user, def, params.id);
        const ids = [...new Set(body.mentions ?? [])];
        const allowed = ids.length ? await mentionable(trx, def, { ids, limit: ids.length }) : [];
        const refused = ids.filter((id) => !allowed.some((u) => u.id === id));
        if (refused.length)
          throw fieldError('mentions', `被提及的用户不存在、已停用或没有查看${def.label}的权限`);
        const row = (
          await sql<{ id: number; createdAt: Date }>`
            INSERT INTO record_comment (resource, record_id, content, mentions, created_by)
            VALUES (${def.name}, ${head.id}, ${body.content}, ${sql.val(ids)}::bigint[], ${user.id})
            RETURNING id, created_at`.execute(trx)
        ).rows[0];
        const others = allowed.filter((u) => u.id !== user.id);
        await notify(
          trx,
          others.map((u) => u.id),
          {
            kind: 'mention',
            title: `${user.firstName || user.userName} 在${recordTitle(def, head)}的评论中提到了你`,
            content: body.content.length > 200 ? `${body.content.slice(0, 200)}…` : body.content,
            link: recordLink(def, head.id, head.code),
            eventKey: `comment:${row.id}`,
          },
        );
        return {
          kind: 'comment' as const,
          id: Number(row.id),
          at: row.createdAt,
          userId: user.id,
          userName: user.firstName || user.userName,
          content: body.content,
          mentions: allowed.map((u) => ({ id: u.id, name: u.firstName || u.userName })),
          mine: true,
        };
      });
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/timeline/comment/:id',
    permission: 'authenticated',
    params: idParams,
    response: z.null(),
    async handler({ params, user, app: { db } }) {
      const c = (
        await sql<{ resource: string; recordId: number; createdBy: number | null }>`
          SELECT resource, record_id, created_by FROM record_comment WHERE id = ${params.id}`.execute(db)
      ).rows[0];
      if (!c) throw notFound('评论不存在或已被删除');
      const def = readableResource(user, c.resource);
      await readableRecord(db, user, def, Number(c.recordId));
      if (Number(c.createdBy) !== user.id && !user.isAdmin) throw forbidden('只能删除本人的评论');
      await sql`DELETE FROM record_comment WHERE id = ${params.id}`.execute(db);
      return null;
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/timeline/record/:resource/:id/file',
    permission: 'authenticated',
    params: recordParams,
    response: attachmentSchema,
    async handler({ req, params, user, app: { db } }) {
      const def = readableResource(user, params.resource);
      const head = await readableRecord(db, user, def, params.id);
      if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件（字段名 file）');
      let part: Awaited<ReturnType<typeof formFile>>;
      try {
        part = await formFile(req, { fileSize: maxBytes, files: 1, fields: 5, parts: 6 });
      } catch (err) {
        throw multipartError(err, maxBytes);
      }
      if (part?.fieldname !== 'file') throw badRequest('请选择要上传的文件（字段名 file）');
      const stored = await storeAttachment(db, storage, ownerFor(def), {
        ownerId: head.id,
        fileName: part.filename,
        source: part.file,
        truncated: () => part.file.truncated,
        maxBytes,
        createdBy: user.id,
      });
      return {
        kind: 'attachment' as const,
        id: stored.id,
        at: stored.createdAt,
        userId: user.id,
        userName: user.firstName || user.userName,
        fileName: stored.fileName,
        mimeType: stored.mimeType,
        size: Number(stored.size),
        removable: true,
      };
    },
  });

  /** A file of the timeline, with the record it belongs to checked for the user (404 before 403). */
  const readableFile = async (db: Db, user: AuthUser, id: number) => {
    const file = (await db.selectFrom('attachment').selectAll().where('id', '=', id).executeTakeFirst()) as
      | StoredAttachment
      | undefined;
    const name = file && defOfOwner(file.ownerResource);
    if (!file || !name) throw notFound('附件不存在或已被删除');
    const def = readableResource(user, name);
    await readableRecord(db, user, def, Number(file.ownerId));
    return { file, def };
  };

  route(app, {
    method: 'GET',
    url: '/api/v1/timeline/file/:id',
    permission: 'authenticated',
    cookieToken: true,
    raw: true,
    params: idParams,
    query: downloadQuery,
    async handler({ params, query, user, reply, app: { db } }) {
      const { file } = await readableFile(db, user, params.id);
      return sendAttachment(reply, storage, file, query.inline === 'true');
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/timeline/file/:id',
    permission: 'authenticated',
    params: idParams,
    response: z.null(),
    async handler({ params, user, app: { db } }) {
      const { file, def } = await readableFile(db, user, params.id);
      if (!mayRemoveFile(user, def, file.createdBy))
        throw forbidden(`只能删除本人上传的附件，或需有编辑${def.label}的权限`);
      await db.deleteFrom('attachment').where('id', '=', file.id).execute();
      await storage.remove(file.storageKey);
      return null;
    },
  });
}

export type { RecordHead };
