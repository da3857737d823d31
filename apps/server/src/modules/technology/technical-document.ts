import {
  technicalDocumentResource as def,
  REVISION_ATTACHMENT_OWNER,
  REVISION_STATES,
  TECHNICAL_DOCUMENT_TYPES,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  type AttachmentOwner,
  type AttachmentRow,
  attachmentsOf,
  downloadQuery,
  dropAttachmentRows,
  type StoredAttachment,
  sendAttachment,
  storageOf,
} from '../../platform/attachments/attachments.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { nextDocNoOf } from '../../platform/numbering.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';

const READ = 'technology:document:list' as const;
const revisionLabel = (s: string) => REVISION_STATES.find((x) => x.value === s)?.label ?? s;

export interface RevisionRow {
  id: number;
  documentId: number;
  revisionNo: string;
  changeNote: string | null;
  status: string;
  approvedAt: Date | null;
  approvedByName: string | null;
  publishedAt: Date | null;
  publishedByName: string | null;
  supersededAt: Date | null;
  createdAt: Date;
  createdByName: string | null;
  attachments: AttachmentRow[];
}

/**
 * The revision after `prev`: letters count on (A → B, Z → AA), a trailing number goes up
 * (V1 → V2, 1.9 → 1.10); the first revision is A. `undefined` when `prev` has neither.
 */
export function nextRevisionNo(prev: string | undefined): string | undefined {
  if (!prev) return 'A';
  if (/^[A-Z]+$/.test(prev)) {
    const digits = [...prev].map((c) => c.charCodeAt(0) - 64);
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === 26) digits[i--] = 1;
    if (i < 0) digits.unshift(1);
    else digits[i] += 1;
    return digits.map((d) => String.fromCharCode(64 + d)).join('');
  }
  const m = /^(.*?)(\d+)$/.exec(prev);
  return m ? `${m[1]}${Number(m[2]) + 1}` : undefined;
}

/** The working revision (草稿/已审批) of a document, if any. */
async function workingRevision(db: Db, documentId: number) {
  return db
    .selectFrom('technicalDocumentRevision')
    .select(['id', 'revisionNo', 'status'])
    .where('documentId', '=', documentId)
    .where('status', 'in', ['draft', 'approved'])
    .executeTakeFirst();
}

/** A document's revisions, newest first, each with its files. */
export async function revisionsOf(db: Db, documentId: number): Promise<RevisionRow[]> {
  const rows = await db
    .selectFrom('technicalDocumentRevision as r')
    .leftJoin('appUser as a', 'a.id', 'r.approvedBy')
    .leftJoin('appUser as p', 'p.id', 'r.publishedBy')
    .leftJoin('appUser as c', 'c.id', 'r.createdBy')
    .select([
      'r.id',
      'r.documentId',
      'r.revisionNo',
      'r.changeNote',
      'r.status',
      'r.approvedAt',
      'a.firstName as approvedByName',
      'r.publishedAt',
      'p.firstName as publishedByName',
      'r.supersededAt',
      'r.createdAt',
      'c.firstName as createdByName',
    ])
    .where('r.documentId', '=', documentId)
    .orderBy('r.id', 'desc')
    .execute();
  const files = await attachmentsOf(
    db,
    REVISION_ATTACHMENT_OWNER,
    rows.map((r: any) => r.id),
  );
  return rows.map((r: any) => ({ ...r, attachments: files.filter((f) => f.ownerId === r.id) }));
}

/**
 * The drawing in force for a product: the 现行 revision of its published (not voided) 图纸, with
 * its files; `null` when the product has none. A drawing under revision (back in 草稿) keeps its
 * 现行 revision until the new one is published. The flow card and the operator's task link here.
 * One statement: the 现行 revisions of the product's documents of the type with their files, the
 * latest published first; the first document's rows are the answer.
 */
export async function currentDrawingFor(db: Db, productId: number, docType = 'drawing') {
  const rows = await db
    .selectFrom('technicalDocument as d')
    .innerJoin('technicalDocumentRevision as r', (j) =>
      j.onRef('r.documentId', '=', 'd.id').on('r.status', '=', 'current'),
    )
    .leftJoin('attachment as a', (j) =>
      j.onRef('a.ownerId', '=', 'r.id').on('a.ownerResource', '=', REVISION_ATTACHMENT_OWNER),
    )
    .leftJoin('appUser as u', 'u.id', 'a.createdBy')
    .select([
      'd.id as documentId',
      'd.docNo',
      'd.title',
      'd.docType',
      'd.status',
      'r.id as revisionId',
      'r.revisionNo',
      'r.publishedAt',
      'a.id as fileId',
      'a.ownerResource',
      'a.fileName',
      'a.mimeType',
      'a.size',
      'a.sha256',
      'a.createdAt as fileCreatedAt',
      'a.createdBy as fileCreatedBy',
      'u.firstName as fileCreatedByName',
    ])
    .where('d.materialId', '=', productId)
    .where('d.docType', '=', docType)
    .where('d.status', '<>', 'voided')
    .orderBy('r.publishedAt', 'desc')
    .orderBy('d.id', 'desc')
    .orderBy('a.id')
    .execute();
  const first: any = rows[0];
  if (!first) return null;
  const attachments: AttachmentRow[] = rows
    .filter((x: any) => x.documentId === first.documentId && x.fileId != null)
    .map((x: any) => ({
      id: x.fileId,
      ownerResource: x.ownerResource,
      ownerId: x.revisionId,
      fileName: x.fileName,
      mimeType: x.mimeType,
      size: x.size,
      sha256: x.sha256,
      createdAt: x.fileCreatedAt,
      createdBy: x.fileCreatedBy,
      createdByName: x.fileCreatedByName,
    }));
  const { documentId, docNo, title, revisionId, revisionNo, publishedAt } = first;
  return {
    documentId,
    docNo,
    title,
    docType: first.docType as string,
    status: first.status as string,
    revisionId,
    revisionNo,
    publishedAt,
    attachments,
  };
}

/** The drawing in force as a flow card or a dispatch answers it: number, revision and its files. */
export interface DrawingLink {
  documentId: number;
  docNo: string;
  title: string;
  revisionId: number;
  revisionNo: string;
  publishedAt: Date | null;
  files: { id: number; fileName: string; mimeType: string; size: number }[];
}

/** `currentDrawingFor` a product as a link (`null` without a published drawing). One query. */
export async function drawingLinkFor(db: Db, productId: number): Promise<DrawingLink | null> {
  const d = await currentDrawingFor(db, productId);
  if (!d) return null;
  return {
    documentId: d.documentId,
    docNo: d.docNo,
    title: d.title,
    revisionId: d.revisionId,
    revisionNo: d.revisionNo,
    publishedAt: d.publishedAt,
    files: d.attachments.map(({ id, fileName, mimeType, size }) => ({ id, fileName, mimeType, size })),
  };
}

/**
 * `GET <url>/:id/:fileId[?inline=true]`: a file of the drawing in force for the product of record
 * `id` of another module (a flow card, a dispatch), open to whoever may read that record: an
 * operator opens his card's drawing without 技术部's permission. Only a file of the product's 现行
 * revision is served (404 otherwise): never a draft, a superseded revision or another attachment.
 */
export function drawingFileRoute(
  app: App,
  spec: {
    url: string;
    permission: Permission;
    alsoAllowedBy?: Permission[];
    /** The product of record `id`: 404 when there is no such record, 403 when it is out of scope. */
    productOf(db: Db, id: number, user: AuthUser): Promise<number>;
  },
) {
  const storage = storageOf(app.ringmes.config);
  route(app, {
    method: 'GET',
    url: `${spec.url}/:id/:fileId`,
    permission: spec.permission,
    alsoAllowedBy: spec.alsoAllowedBy,
    cookieToken: true,
    raw: true,
    params: z.strictObject({ id: zx.id, fileId: zx.id }),
    query: downloadQuery,
    async handler({ params, query, user, reply, app: { db } }) {
      const productId = await spec.productOf(db, params.id, user);
      const drawing = await currentDrawingFor(db, productId);
      if (!drawing?.attachments.some((a) => a.id === params.fileId))
        throw notFound('图纸文件不存在或已不是现行版本，请刷新后重试');
      const file = await db
        .selectFrom('attachment')
        .selectAll()
        .where('id', '=', params.fileId)
        .executeTakeFirst();
      if (!file) throw notFound('图纸文件不存在或已不是现行版本，请刷新后重试');
      return sendAttachment(reply, storage, file as StoredAttachment, query.inline === 'true');
    },
  });
}

export const technicalDocumentHooks: ResourceHooks = lifecycleHooks(def, {
  async prepare({ db }) {
    return { docNo: await nextDocNoOf(db, def) };
  },
  async validate(_ctx, data) {
    if (!data.materialId && !data.processId) throw fieldError('materialId', '产品与工序至少填一项');
  },
  async beforeDelete({ db }, ids) {
    const published = await db
      .selectFrom('technicalDocumentRevision as r')
      .innerJoin('technicalDocument as d', 'd.id', 'r.documentId')
      .select(['d.docNo'])
      .where('r.documentId', 'in', ids)
      .where('r.status', 'in', ['current', 'superseded'])
      .executeTakeFirst();
    if (published) throw conflict(`技术文档 ${published.docNo} 已发布过，不能删除，请作废`);
    const revisions = await db
      .selectFrom('technicalDocumentRevision')
      .select('id')
      .where('documentId', 'in', ids)
      .execute();
    await dropAttachmentRows(
      db,
      REVISION_ATTACHMENT_OWNER,
      revisions.map((r) => r.id),
    );
  },
});

const setRevision = (db: Db, id: number, values: Record<string, unknown>) =>
  db.updateTable('technicalDocumentRevision').set(values).where('id', '=', id).execute();

export const technicalDocumentTransitions: Record<string, TransitionHandlers> = {
  revise: {
    async effect({ db, record, input, user }) {
      const working = await workingRevision(db, record.id);
      if (working)
        throw conflict(`已有修订中的版本 ${working.revisionNo}，请先上传文件并审批发布，或作废本文档`);
      const last = await db
        .selectFrom('technicalDocumentRevision')
        .select('revisionNo')
        .where('documentId', '=', record.id)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      const given = typeof input.revisionNo === 'string' ? input.revisionNo.trim().toUpperCase() : '';
      const revisionNo = given || nextRevisionNo(last?.revisionNo);
      if (!revisionNo)
        throw fieldError('revisionNo', `无法从上一版本 ${last?.revisionNo} 顺延，请填写版本号`);
      if (!/^[A-Z0-9][A-Z0-9._-]{0,19}$/.test(revisionNo))
        throw fieldError('revisionNo', '版本号只能由字母、数字、点、横线组成，如 A、B 或 V1、V2');
      const taken = await db
        .selectFrom('technicalDocumentRevision')
        .select('id')
        .where('documentId', '=', record.id)
        .where('revisionNo', '=', revisionNo)
        .executeTakeFirst();
      if (taken) throw fieldError('revisionNo', `版本 ${revisionNo} 已存在`);
      await db
        .insertInto('technicalDocumentRevision')
        .values({
          documentId: record.id,
          revisionNo,
          changeNote: input.changeNote ?? null,
          createdBy: user.id,
        })
        .execute();
      await db
        .updateTable('technicalDocument')
        .set({ workingRevision: revisionNo })
        .where('id', '=', record.id)
        .execute();
    },
  },
  approve: {
    async guard({ db, record }) {
      const working = await workingRevision(db, record.id);
      if (!working) throw conflict('请先点「新版本」建立版本并上传文件');
      const files = await attachmentsOf(db, REVISION_ATTACHMENT_OWNER, [working.id]);
      if (!files.length) throw conflict(`版本 ${working.revisionNo} 还没有文件，请先上传`);
    },
    async effect({ db, record, user }) {
      const working = await workingRevision(db, record.id);
      if (working)
        await setRevision(db, working.id, {
          status: 'approved',
          approvedBy: user.id,
          approvedAt: sql`now()`,
        });
    },
  },
  unapprove: {
    async effect({ db, record }) {
      const working = await workingRevision(db, record.id);
      if (working) await setRevision(db, working.id, { status: 'draft', approvedBy: null, approvedAt: null });
    },
  },
  publish: {
    async effect({ db, record, user }) {
      const working = await workingRevision(db, record.id);
      if (working?.status !== 'approved') throw conflict('没有已审批的版本可以发布');
      // The old 现行 first: one 现行 revision per document (a partial unique index).
      await db
        .updateTable('technicalDocumentRevision')
        .set({ status: 'superseded', supersededAt: sql`now()` })
        .where('documentId', '=', record.id)
        .where('status', '=', 'current')
        .execute();
      await setRevision(db, working.id, { status: 'current', publishedBy: user.id, publishedAt: sql`now()` });
      await db
        .updateTable('technicalDocument')
        .set({ currentRevision: working.revisionNo, workingRevision: null, publishedAt: sql`now()` })
        .where('id', '=', record.id)
        .execute();
    },
  },
  void: {
    async effect({ db, record }) {
      const working = await workingRevision(db, record.id);
      if (working) await setRevision(db, working.id, { status: 'voided' });
      await db
        .updateTable('technicalDocument')
        .set({ workingRevision: null })
        .where('id', '=', record.id)
        .execute();
    },
  },
};

/**
 * A revision's files: read with the document's read permission, changed with its edit permission
 * while the revision is a draft (approved, published and superseded revisions are frozen).
 */
export const revisionAttachmentOwner: AttachmentOwner = {
  name: REVISION_ATTACHMENT_OWNER,
  label: '技术文档版本',
  read: READ,
  write: 'technology:document:edit',
  async assertWritable(db, revisionId) {
    const r = await db
      .selectFrom('technicalDocumentRevision as r')
      .innerJoin('technicalDocument as d', 'd.id', 'r.documentId')
      .select(['r.revisionNo', 'r.status', 'd.id as documentId'])
      .where('r.id', '=', revisionId)
      .executeTakeFirst();
    if (!r) throw notFound('技术文档版本不存在或已被删除');
    // Lock the document: approving or publishing it waits for this upload, and the reverse.
    await db
      .selectFrom('technicalDocument')
      .select('id')
      .where('id', '=', r.documentId)
      .forUpdate()
      .execute();
    const now = await db
      .selectFrom('technicalDocumentRevision')
      .select('status')
      .where('id', '=', revisionId)
      .executeTakeFirstOrThrow();
    if (now.status !== 'draft')
      throw conflict(`版本 ${r.revisionNo} 当前为「${revisionLabel(now.status)}」，不能再增删文件`);
  },
};

export function technicalDocumentRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/technical-document/revisions/:id',
    permission: READ,
    params: idParams,
    async handler({ params, app: { db } }) {
      const doc = await db
        .selectFrom('technicalDocument')
        .select('id')
        .where('id', '=', params.id)
        .executeTakeFirst();
      if (!doc) throw notFound('技术文档不存在或已被删除');
      return revisionsOf(db, params.id);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/technical-document/current',
    permission: READ,
    query: z.strictObject({
      productId: zx.id,
      docType: z
        .enum(TECHNICAL_DOCUMENT_TYPES.map((o) => o.value) as [string, ...string[]], {
          error: '文档类型不正确',
        })
        .optional(),
    }),
    handler: ({ query, app: { db } }) => currentDrawingFor(db, query.productId, query.docType),
  });
}
