import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../errors.ts';

/** Set on an error that is a fault of the uploaded form itself, never of the server. */
const FORM_FAULT = Symbol('multipart form fault');

const mark = (err: unknown) => {
  if (err && typeof err === 'object') (err as Record<symbol, boolean>)[FORM_FAULT] = true;
  return err;
};

type Limits = NonNullable<Parameters<FastifyRequest['parts']>[0]>['limits'];

/**
 * The parts of a multipart request (`@fastify/multipart`), with every failure of the form itself
 * marked — malformed, cut off, over a limit — whether the parts iterator raises it or a file part
 * while it is being read (busboy destroys the part's stream with it). The error handler answers a
 * marked error as a 400 (`formFault`): unmarked, a parser's plain `Error` was a 500.
 */
export async function* formParts(req: FastifyRequest, limits: Limits): AsyncGenerator<Multipart> {
  const parts = req.parts({ limits })[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (err) {
      throw mark(err);
    }
    if (next.done) return;
    const part = next.value;
    if (part.type === 'file') {
      // Errors of the part's stream reach whoever reads it: marked first (listeners run in order,
      // the reader's promise settles later). One raised before this listener is kept on the stream.
      part.file.on('error', mark);
      if (part.file.errored) mark(part.file.errored);
    }
    yield part;
  }
}

/** The first file part of a multipart request (`req.file()` with `formParts`' marking), or undefined. */
export async function formFile(req: FastifyRequest, limits: Limits): Promise<MultipartFile | undefined> {
  for await (const part of formParts(req, limits)) if (part.type === 'file') return part;
  return undefined;
}

/** A multipart failure as a Chinese 400; undefined when `err` is not one. */
export function formFault(err: any): AppError | undefined {
  if (err instanceof AppError) return undefined;
  switch (err?.code) {
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('一次只能上传一个文件');
    case 'FST_REQ_FILE_TOO_LARGE':
      return badRequest('文件过大，请检查文件');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest('请以 multipart/form-data 上传文件');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('上传内容格式不正确');
  }
  return err?.[FORM_FAULT] ? badRequest('上传内容格式不正确或不完整，请重新上传') : undefined;
}
