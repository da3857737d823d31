import path from 'node:path';
import { ZipArchive } from 'archiver';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { type FoundExport, findExport, openWhenRead } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';

function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The file name users see: exports are stored as `<uuid>_<name>` in their owner's folder. */
function displayName(file: string): string {
  const base = path.basename(file);
  return base.replace(/^[0-9a-f-]{36}_/, '');
}

/**
 * A third-party app downloads the export files it made (they lie in its own folder like a user's)
 * while it holds an export scope; an app without one has no business with the download routes.
 */
function appMayDownload(req: FastifyRequest, user: AuthUser) {
  if (req.signedCall && !user.isAdmin && ![...user.permissions].some((p) => p.endsWith(':export')))
    throw forbidden('第三方应用没有导出权限，不能下载文件');
}

const fileName = z.string({ error: '缺少文件名' }).min(1, '缺少文件名').max(300, '文件名过长');

export function downloadRoutes(app: App) {
  // Progress of a big export (platform/resource/excel-export.ts); only its owner sees it.
  route(app, {
    method: 'GET',
    url: '/api/v1/export-job/:id',
    permission: 'authenticated',
    apps: true,
    params: z.strictObject({ id: z.string().max(40) }),
    async handler({ params, user, req, app: { db } }) {
      appMayDownload(req, user);
      const job = z.uuid().safeParse(params.id).success
        ? await db
            .selectFrom('exportJob')
            .select(['id', 'title', 'total', 'done', 'status', 'fileName', 'createdAt', 'finishedAt'])
            .where('id', '=', params.id)
            .where('userId', '=', user.id)
            .executeTakeFirst()
        : undefined;
      if (!job) throw notFound('导出任务不存在');
      return job;
    },
  });

  route(app, {
    method: 'GET',
    url: '/common/download',
    permission: 'authenticated',
    cookieToken: true,
    apps: true,
    raw: true,
    query: z.strictObject({ fileName, delete: z.enum(['true', 'false']).optional() }),
    async handler({ query, user, req, reply, app: { config } }) {
      appMayDownload(req, user);
      const found = await findExport(config, user.id, query.fileName);
      const stream = await found.open();
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-disposition', attachment(displayName(found.name)));
      if (query.delete === 'true')
        stream.on(
          'close',
          () => void found.remove().catch((err) => req.log.warn({ err }, '导出文件删除失败')),
        );
      return reply.send(stream);
    },
  });

  route(app, {
    method: 'GET',
    url: '/common/download/resource',
    permission: 'authenticated',
    cookieToken: true,
    apps: true,
    raw: true,
    query: z.strictObject({ resource: fileName }),
    async handler({ query, user, req, reply, app: { config } }) {
      appMayDownload(req, user);
      const found = await findExport(config, user.id, query.resource.replace(/^\/?profile\//, ''));
      const stream = await found.open();
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-disposition', attachment(displayName(found.name)));
      return reply.send(stream);
    },
  });

  route(app, {
    method: 'GET',
    url: '/common/download/zip',
    permission: 'authenticated',
    cookieToken: true,
    apps: true,
    raw: true,
    query: z.strictObject({
      files: z.string({ error: '缺少文件列表' }).min(1, '缺少文件列表').max(5000),
      name: z.string().max(100).optional(),
    }),
    async handler({ query, user, req, reply, app: { config } }) {
      appMayDownload(req, user);
      const names = query.files
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length > 200) throw forbidden('一次最多打包 200 个文件');
      const files: FoundExport[] = [];
      for (const n of names) files.push(await findExport(config, user.id, n));
      const zip = new ZipArchive({ zlib: { level: 6 } });
      for (const f of files) zip.append(openWhenRead(f), { name: displayName(f.name) });
      void zip.finalize();
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', attachment(`${query.name || '导出文件'}.zip`));
      return reply.send(zip);
    },
  });
}
