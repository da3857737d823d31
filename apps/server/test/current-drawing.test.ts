import crypto from 'node:crypto';
import { WORKSHOP_KINDS, workshopPermission } from '@ringmes/domain';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentDrawingFor } from '../src/modules/technology/technical-document.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 图纸 on the shop floor: the flow card and the operator's 工序任务单 link to the drawing in force
 * for their product, and whoever may read the card or the dispatch opens its files — only the
 * files of the 现行 revision, never a draft's or a superseded one's.
 */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, as = token) => t.call('GET', url, { token: as });

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

async function upload(revisionId: number, fileName: string, content: Buffer) {
  const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
    'utf8',
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/attachment/upload/technical-document-revision/${revisionId}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  return ok({ status: res.statusCode, body: res.json() });
}

const act = (name: string, id: number, body: Record<string, unknown> = {}) =>
  post(`/api/v1/technical-document/${name}/${id}`, body).then(ok);
const workingRevision = async (docId: number) =>
  ok<any[]>(await get(`/api/v1/technical-document/revisions/${docId}`))[0];

/** A new revision of a drawing holding one file, taken as far as `until`. */
async function revise(
  docId: number,
  fileName: string,
  bytes: Buffer,
  until: 'draft' | 'approve' | 'publish',
) {
  await act('revise', docId);
  const rev = await workingRevision(docId);
  const file = await upload(rev.id, fileName, bytes);
  if (until !== 'draft') await act('approve', docId);
  if (until === 'publish') await act('publish', docId);
  return { rev, file };
}

const machine = WORKSHOP_KINDS.find((k) => k.type === 'machine')!;
const grinding = WORKSHOP_KINDS.find((k) => k.type === 'grinding')!;
const operatorOf = (k: typeof machine) => `${workshopPermission(k, 'OperatorTask')}:list`;

/** A turning task with one flow card and one dispatch to an operator holding only his task pages. */
async function shopFloor() {
  const task = await f.create('workshop-task');
  const operator = await t.userWith([operatorOf(machine)]);
  const { cards } = ok(await post(`/api/v1/flow-card/open/${task.productionOrderId}`, { batchSize: 1000 }));
  const { dispatches } = ok(
    await post(`/api/v1/workshop-task/dispatch/${task.id}`, {
      lines: [{ operatorId: operator.userId, quantity: 10, workDate: '2026-11-03', shift: 'day' }],
    }),
  );
  const doc = ok(
    await post('/api/v1/technical-document/add', {
      title: '6204-2RS 轴承总图',
      docType: 'drawing',
      materialId: task.productId,
    }),
  );
  return { task, operator, card: cards[0].id as number, dispatch: dispatches[0].id as number, doc };
}

const cardOf = (id: number, as = token) => get(`/api/v1/flow-card/card/${id}`, as);
const sheetOf = (id: number, as = token) => get(`/api/v1/work-dispatch/sheet/${id}`, as);
const fileVia = (kind: 'flow-card' | 'work-dispatch', id: number, fileId: number, as = token) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/${kind}/drawing/${id}/${fileId}?inline=true`,
    headers: { authorization: `Bearer ${as}` },
  });

describe('the drawing in force on the flow card and the operator’s task', () => {
  it('shows the published revision, moves to the next when it is published, never a draft', async () => {
    const { card, dispatch, doc, operator } = await shopFloor();
    expect(ok(await cardOf(card)).drawing).toBeNull();
    expect(ok(await sheetOf(dispatch)).drawing).toBeNull();

    // A draft is not in force, and its file is not served through the card.
    const a = await revise(doc.id, '总图 A.pdf', PDF, 'draft');
    expect(ok(await cardOf(card)).drawing).toBeNull();
    expect((await fileVia('flow-card', card, a.file.id)).statusCode).toBe(404);

    await act('approve', doc.id);
    await act('publish', doc.id);
    const onCard = ok(await cardOf(card)).drawing;
    expect(onCard).toEqual({
      documentId: doc.id,
      docNo: doc.docNo,
      title: '6204-2RS 轴承总图',
      revisionId: a.rev.id,
      revisionNo: 'A',
      publishedAt: expect.any(String),
      files: [{ id: a.file.id, fileName: '总图 A.pdf', mimeType: 'application/pdf', size: PDF.length }],
    });
    // The operator's sheet carries the same link, read with his task permission only.
    expect(ok(await sheetOf(dispatch, operator.token)).drawing).toEqual(onCard);
    expect(ok(await cardOf(card, operator.token)).drawing.revisionNo).toBe('A');

    // B approved but not published: A stays in force, B's file is not served.
    const b = await revise(doc.id, '总图 B.png', PNG, 'approve');
    expect(ok(await cardOf(card)).drawing.revisionNo).toBe('A');
    expect((await fileVia('flow-card', card, b.file.id)).statusCode).toBe(404);

    await act('publish', doc.id);
    const now = ok(await cardOf(card)).drawing;
    expect(now).toMatchObject({ revisionNo: 'B', files: [{ id: b.file.id, mimeType: 'image/png' }] });
    expect(ok(await sheetOf(dispatch)).drawing.revisionNo).toBe('B');
    // The superseded A is no longer served through the card or the task.
    const old = await fileVia('flow-card', card, a.file.id);
    expect(old.statusCode).toBe(404);
    expect(old.json().message).toBe('图纸文件不存在或已不是现行版本，请刷新后重试');
    expect((await fileVia('work-dispatch', dispatch, a.file.id, operator.token)).statusCode).toBe(404);
    expect((await fileVia('flow-card', card, b.file.id)).statusCode).toBe(200);

    // A voided drawing is in force nowhere.
    await act('void', doc.id, { reason: '产品停产' });
    expect(ok(await cardOf(card)).drawing).toBeNull();
    expect((await fileVia('flow-card', card, b.file.id)).statusCode).toBe(404);
  });

  it('lets the operator open it through his card and task, and no one else, and no other file', async () => {
    const { card, dispatch, doc, operator } = await shopFloor();
    const { file } = await revise(doc.id, '总图 A.pdf', PDF, 'publish');

    const viaCard = await fileVia('flow-card', card, file.id, operator.token);
    expect(viaCard.statusCode).toBe(200);
    expect(viaCard.headers['content-type']).toBe('application/pdf');
    expect(viaCard.headers['content-disposition']).toMatch(/^inline; /);
    expect(viaCard.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(viaCard.rawPayload.equals(PDF)).toBe(true);
    const viaTask = await fileVia('work-dispatch', dispatch, file.id, operator.token);
    expect(viaTask.statusCode).toBe(200);
    expect(viaTask.rawPayload.equals(PDF)).toBe(true);
    // The preview frame sends the session cookie, not a header.
    const viaCookie = await t.app.inject({
      method: 'GET',
      url: `/api/v1/work-dispatch/drawing/${dispatch}/${file.id}?inline=true`,
      headers: { cookie: `Admin-Token=${operator.token}` },
    });
    expect(viaCookie.statusCode).toBe(200);

    // The technical documents themselves stay closed to him.
    const direct = t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/download/${file.id}`,
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect((await direct).statusCode).toBe(403);
    expect((await get(`/api/v1/technical-document/revisions/${doc.id}`, operator.token)).status).toBe(403);

    // A user without access to cards or dispatches: 403; another workshop's operator: 403 on this task.
    const stranger = await t.userWith(['sale:order:list']);
    expect((await fileVia('flow-card', card, file.id, stranger.token)).statusCode).toBe(403);
    expect((await fileVia('work-dispatch', dispatch, file.id, stranger.token)).statusCode).toBe(403);
    expect((await cardOf(card, stranger.token)).status).toBe(403);
    const grinder = await t.userWith([operatorOf(grinding)]);
    expect((await fileVia('work-dispatch', dispatch, file.id, grinder.token)).statusCode).toBe(403);
    expect((await sheetOf(dispatch, grinder.token)).status).toBe(403);

    // Another product's drawing file through this card, an unknown card or file: 404.
    const other = await shopFloor();
    const foreign = await revise(other.doc.id, '别的图.pdf', PDF, 'publish');
    expect((await fileVia('flow-card', card, foreign.file.id, operator.token)).statusCode).toBe(404);
    expect((await fileVia('flow-card', 999_999, file.id)).statusCode).toBe(404);
    expect((await fileVia('work-dispatch', 999_999, file.id)).statusCode).toBe(404);
    expect((await fileVia('flow-card', card, 999_999)).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/flow-card/drawing/${card}/abc`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('finds the drawing and its files in one query', async () => {
    const { task, doc } = await shopFloor();
    await revise(doc.id, '总图 A.pdf', PDF, 'publish');
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const drawing = await currentDrawingFor(t.database.db.withPlugin(counter), task.productId);
    expect(drawing?.attachments.map((x) => x.fileName)).toEqual(['总图 A.pdf']);
    expect(queries).toBe(1);
  });
});
