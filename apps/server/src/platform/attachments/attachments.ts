import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { S3Config } from '../../config.ts';
import { type AuthUser, can } from '../auth/sessions.ts';
import type { Db } from '../db/db.ts';
import { type AppError, badRequest, forbidden, notFound } from '../errors.ts';
import { formFault, formFile } from '../http/multipart.ts';
import type { App } from '../http/route.ts';
import { type Permission, route } from '../http/route.ts';
import { idParams, zx } from '../http/validation.ts';
import { s3Storage } from './s3-storage.ts';
import { type FileStorage, fsStorage } from './storage.ts';

/**
 * Files attached to records of any module (a technical document's revision, later a repair's
 * photo). A module declares an owner: the name stored in `attachment.owner_resource`, the
 * permissions that read and change its files, and when its files may change. Upload, list,
 * download and delete are one set of routes for every owner.
 */
export interface AttachmentOwner {
  /** Stored in `attachment.owner_resource`, used in the URLs. */
  name: string;
  /** What the owner is, in Chinese (error messages). */
  label: string;
  /** Lists and downloads the files (the owning resource's read permission). */
  read: Permission;
  /** Uploads and deletes files: any one of these permissions. */
  write: Permission | Permission[];
  /**
   * Throws (404 when the owner record is missing, 409 when its files are frozen) unless files may
   * be added or removed now. Runs inside the saving transaction; it should lock the owner.
   */
  assertWritable(db: Db, ownerId: number): Promise<void>;
  /** Accepted file types, when narrower than "anything not executable" (photos: images only). */
  accept?: { mimeTypes: string[]; label: string };
}

/** An attachment as the API answers it. */
export interface AttachmentRow {
  id: number;
  ownerResource: string;
  ownerId: number;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  createdAt: Date;
  createdBy: number | null;
  createdByName?: string | null;
}

/** Types shown in the browser (inline): PDF and raster images, recognised by their first bytes. */
const SNIFFED: { mime: string; ext: string[]; test: (h: Buffer) => boolean }[] = [
  { mime: 'application/pdf', ext: ['pdf'], test: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-' },
  {
    mime: 'image/png',
    ext: ['png'],
    test: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { mime: 'image/jpeg', ext: ['jpg', 'jpeg'], test: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  { mime: 'image/gif', ext: ['gif'], test: (h) => h.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    mime: 'image/webp',
    ext: ['webp'],
    test: (h) =>
      h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** Other common types by extension (downloaded, never shown inline). */
const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  dwg: 'image/vnd.dwg',
  dxf: 'image/vnd.dxf',
  step: 'model/step',
  stp: 'model/step',
  igs: 'model/iges',
  iges: 'model/iges',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};

/** Programs and active web content: refused whatever the owner (they would run or script in a browser). */
const BLOCKED = new Set(
  'exe,com,bat,cmd,msi,scr,pif,cpl,dll,ps1,vbs,vbe,js,mjs,jse,wsf,wsh,hta,jar,sh,php,html,htm,xhtml,svg,svgz,xml,lnk,reg'.split(
    ',',
  ),
);

/** May the browser show this type inline? Only the sniffed types: PDF and raster images. */
export const isPreviewable = (mime: string) => SNIFFED.some((s) => s.mime === mime);

/** The stored type of an upload from its name and first bytes; refuses executables and disguised files. */
export function fileTypeOf(fileName: string, head: Buffer): string {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  if (BLOCKED.has(ext)) throw badRequest(`不允许上传 .${ext} 类型的文件（可执行程序或网页文件）`);
  const byContent = SNIFFED.find((s) => s.test(head));
  const byName = SNIFFED.find((s) => s.ext.includes(ext));
  if (byName && byContent !== byName) throw badRequest(`文件内容与扩展名 .${ext} 不符，请检查文件`);
  if (byContent) return byContent.mime;
  return BY_EXTENSION[ext] ?? 'application/octet-stream';
}

/** `inline` or `attachment` with the file name twice: ASCII fallback and RFC 5987 UTF-8 (中文名). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** A file name safe to store and show: no folders, no control characters, at most 200 characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const name = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name) throw badRequest('文件名不能为空');
  if (name.length <= 200) return name;
  const ext = path.extname(name).slice(0, 20);
  return name.slice(0, 200 - ext.length) + ext;
}

const mb = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

/**
 * Stores one file for an owner: streams it into the store, checks emptiness, size and type, and
 * inserts the row in a transaction that first locks the owner through `assertWritable`. The
 * bytes are removed again when anything refuses. The upload route and the demo seed use it.
 */
export async function storeAttachment(
  db: Db,
  storage: FileStorage,
  owner: AttachmentOwner,
  input: {
    ownerId: number;
    fileName: string;
    source: Readable;
    createdBy: number | null;
    /** Did the source stop at the size limit (busboy's `truncated`)? Checked after the stream ends. */
    truncated?: () => boolean;
    maxBytes?: number;
  },
): Promise<AttachmentRow> {
  const fileName = cleanFileName(input.fileName);
  const stored = await storage.put(input.source);
  try {
    if (input.truncated?.() || (input.maxBytes !== undefined && stored.size > input.maxBytes))
      throw badRequest(`文件过大：单个文件不能超过 ${mb(input.maxBytes ?? stored.size)}`);
    if (stored.size === 0) throw badRequest('文件为空，请选择有内容的文件');
    const mimeType = fileTypeOf(fileName, stored.head);
    if (owner.accept && !owner.accept.mimeTypes.includes(mimeType))
      throw badRequest(`${owner.label}只接受${owner.accept.label}`);
    return await db.transaction().execute(async (trx) => {
      await owner.assertWritable(trx, input.ownerId);
      return (await trx
        .insertInto('attachment')
        .values({
          ownerResource: owner.name,
          ownerId: input.ownerId,
          fileName,
          mimeType,
          size: stored.size,
          sha256: stored.sha256,
          storageKey: stored.key,
          createdBy: input.createdBy,
        })
        .returning([
          'id',
          'ownerResource',
          'ownerId',
          'fileName',
          'mimeType',
          'size',
          'sha256',
          'createdAt',
          'createdBy',
        ])
        .executeTakeFirstOrThrow()) as AttachmentRow;
    });
  } catch (err) {
    await storage.remove(stored.key);
    throw err;
  }
}

/** The files of some records of one owner, oldest first, with the uploader's name. */
export async function attachmentsOf(
  db: Db,
  ownerResource: string,
  ownerIds: number[],
): Promise<AttachmentRow[]> {
  if (!ownerIds.length) return [];
  return (await db
    .selectFrom('attachment as a')
    .leftJoin('appUser as u', 'u.id', 'a.createdBy')
    .select([
      'a.id',
      'a.ownerResource',
      'a.ownerId',
      'a.fileName',
      'a.mimeType',
      'a.size',
      'a.sha256',
      'a.createdAt',
      'a.createdBy',
      'u.firstName as createdByName',
    ])
    .where('a.ownerResource', '=', ownerResource)
    .where('a.ownerId', 'in', ownerIds)
    .orderBy('a.id')
    .execute()) as AttachmentRow[];
}

/**
 * Deletes the rows of some records' files inside the caller's transaction (a draft document
 * being deleted). The bytes stay in the store: the transaction may still roll back.
 */
export async function dropAttachmentRows(db: Db, ownerResource: string, ownerIds: number[]) {
  if (!ownerIds.length) return;
  await db
    .deleteFrom('attachment')
    .where('ownerResource', '=', ownerResource)
    .where('ownerId', 'in', ownerIds)
    .execute();
}

/** The store the configuration names: the S3 bucket when set, else the filesystem under `attachmentDir`. */
export const storageOf = (config: { attachmentDir: string; s3?: S3Config }): FileStorage =>
  config.s3 ? s3Storage(config.s3) : fsStorage(config.attachmentDir);

/** A stored file as the row `sendAttachment` streams. */
export type StoredAttachment = AttachmentRow & { storageKey: string };

/** `?inline=true` of a download route: show the file in the browser when it can be shown. */
export const downloadQuery = z.strictObject({ inline: z.enum(['true', 'false']).optional() });

/**
 * Answers a stored file: its type, length and name (inline only when `inline` is asked and the
 * type is previewable, framed by our own pages only); 404 when its bytes are gone. Every route
 * that hands out a file (the attachment download, a flow card's drawing) sends it through here.
 */
export async function sendAttachment(
  reply: FastifyReply,
  storage: FileStorage,
  file: StoredAttachment,
  inlineAsked: boolean,
) {
  let stream: Readable;
  try {
    stream = await storage.open(file.storageKey);
  } catch {
    throw notFound('附件文件已丢失，请重新上传');
  }
  const inline = inlineAsked && isPreviewable(file.mimeType);
  reply.header('content-type', file.mimeType);
  reply.header('content-length', String(file.size));
  reply.header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.fileName));
  reply.header('cache-control', 'private, no-cache');
  reply.header('etag', `"${file.sha256}"`);
  // Previews load in an <iframe>/<img> of our own pages: framing by the same origin only.
  if (inline)
    reply.header('content-security-policy', "default-src 'none'; img-src 'self'; frame-ancestors 'self'");
  return reply.send(stream);
}

const ownerParams = z.strictObject({
  owner: z.string().max(60),
  ownerId: zx.id,
});

/**
 * `POST /api/v1/attachment/upload/:owner/:ownerId` (multipart, one part `file`),
 * `GET /api/v1/attachment/list/:owner/:ownerId`, `GET /api/v1/attachment/download/:id[?inline=true]`
 * and `DELETE /api/v1/attachment/delete/:id`. Each route opens to any owner's permission and then
 * checks the owner of the file at hand.
 */
export function attachmentRoutes(app: App, owners: AttachmentOwner[]) {
  const storage = storageOf(app.ringmes.config);
  const maxBytes = app.ringmes.config.attachmentMaxBytes;
  const byName = new Map(owners.map((o) => [o.name, o]));
  const permsOf = (o: AttachmentOwner, key: 'read' | 'write') => ([] as Permission[]).concat(o[key]);
  const gateOf = (key: 'read' | 'write') => {
    const perms = [...new Set(owners.flatMap((o) => permsOf(o, key)))];
    return { permission: perms[0], alsoAllowedBy: perms.slice(1) };
  };
  const ownerFor = (name: string, user: AuthUser, key: 'read' | 'write') => {
    const owner = byName.get(name);
    if (!owner) throw notFound('附件所属的对象不存在');
    if (!permsOf(owner, key).some((p) => can(user, p))) throw forbidden();
    return owner;
  };
  const fileRow = async (db: Db, id: number) => {
    const row = await db.selectFrom('attachment').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('附件不存在或已被删除');
    return row as StoredAttachment;
  };

  route(app, {
    method: 'POST',
    url: '/api/v1/attachment/upload/:owner/:ownerId',
    ...gateOf('write'),
    params: ownerParams,
    async handler({ req, params, user, app: { db } }) {
      const owner = ownerFor(params.owner, user, 'write');
      if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件（字段名 file）');
      // Refuse early (before reading the body) when the owner is missing or frozen.
      await owner.assertWritable(db, params.ownerId);
      let part: Awaited<ReturnType<typeof formFile>>;
      try {
        // busboy's size limit cuts the file short (`truncated`), checked once it is stored.
        part = await formFile(req, { fileSize: maxBytes, files: 1, fields: 5, parts: 6 });
      } catch (err) {
        throw multipartError(err, maxBytes);
      }
      if (part?.fieldname !== 'file') throw badRequest('请选择要上传的文件（字段名 file）');
      return storeAttachment(db, storage, owner, {
        ownerId: params.ownerId,
        fileName: part.filename,
        source: part.file,
        truncated: () => part.file.truncated,
        maxBytes,
        createdBy: user.id,
      });
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/attachment/list/:owner/:ownerId',
    ...gateOf('read'),
    params: ownerParams,
    async handler({ params, user, app: { db } }) {
      const owner = ownerFor(params.owner, user, 'read');
      return attachmentsOf(db, owner.name, [params.ownerId]);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/attachment/download/:id',
    ...gateOf('read'),
    cookieToken: true,
    raw: true,
    params: idParams,
    query: downloadQuery,
    async handler({ params, query, user, reply, app: { db } }) {
      const file = await fileRow(db, params.id);
      ownerFor(file.ownerResource, user, 'read');
      return sendAttachment(reply, storage, file, query.inline === 'true');
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/attachment/delete/:id',
    ...gateOf('write'),
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const file = await fileRow(db, params.id);
      const owner = ownerFor(file.ownerResource, user, 'write');
      await db.transaction().execute(async (trx) => {
        await owner.assertWritable(trx, file.ownerId);
        await trx.deleteFrom('attachment').where('id', '=', file.id).execute();
      });
      await storage.remove(file.storageKey);
      return { id: file.id };
    },
  });
}

/** @fastify/multipart's refusals as Chinese 400s. */
export function multipartError(err: any, maxBytes: number): AppError {
  switch (err?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return badRequest(`文件过大：单个文件不能超过 ${mb(maxBytes)}`);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('一次只能上传一个文件');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest('请以 multipart/form-data 上传文件（字段名 file）');
    default:
      return formFault(err) ?? badRequest('上传内容格式不正确');
  }
}
