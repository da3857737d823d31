import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { notFound } from '../errors.ts';
import type { App, Permission, RegisteredRoute } from './route.ts';

/**
 * The OpenAPI 3.1 document of every registered route, made from the schemas the routes validate
 * with (`RouteSpec.body/query/params/response`): nothing is written twice, so the contract cannot
 * drift from the code. Served at `/api/openapi.json`; docs/api.md says how to read it.
 */

type Json = Record<string, unknown>;

/** The business areas the permissions are named by (`area:resource:action`), as the menu names them. */
const AREAS: Record<string, string> = {
  sale: '销售管理',
  production: '生产管理',
  purchase: '采购管理',
  warehouse: '仓库管理',
  quality: '质量管理',
  measure: '计量管理',
  finance: '财务管理',
  factory: '工厂建模',
  technology: '工艺管理',
  report: '报表',
  system: '系统管理',
};
const COMMON_TAG = '通用';

/** The error catalogue of docs/architecture.md: one envelope, the HTTP status and its `code`. */
const ERRORS: [status: string, name: string, description: string][] = [
  ['400', 'BadRequest', '校验失败：errors 列出每个不合格的字段'],
  ['401', 'Unauthenticated', '未登录、令牌无效、过期或已注销（code "407"）'],
  ['403', 'Forbidden', '已登录但没有该权限'],
  ['404', 'NotFound', '记录或接口不存在'],
  ['409', 'Conflict', '版本已变、状态不允许、库存不足、仍被引用或编码重复'],
  ['429', 'TooManyRequests', '尝试过于频繁'],
  ['503', 'Unavailable', '数据库不可用或连接繁忙'],
  ['500', 'ServerError', '意外错误（不含堆栈或 SQL）'],
];

/** A zod schema as JSON Schema (draft 2020-12, what OpenAPI 3.1 uses); what JSON cannot say becomes `{}`. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

const tagOf = (p: Permission) => {
  const area = p.split(':')[0];
  return AREAS[area] ? area : 'common';
};

/** `/api/v1/sale-order/info/:id` → `/api/v1/sale-order/info/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');

function operationId(r: RegisteredRoute, taken: Set<string>) {
  const base = `${r.method.toLowerCase()}_${r.url
    .replace(/^\/api(\/v1)?\//, '')
    .replace(/:([A-Za-z0-9_]+)/g, 'by_$1')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** The parameters `in` path or query from an object schema's properties. */
function parameters(schema: Json | undefined, where: 'path' | 'query', names: string[]): Json[] {
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema?.required ?? []) as string[]);
  const list: Json[] = Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
  // A path parameter the route names but no schema describes.
  for (const name of names)
    if (!props[name]) list.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  return list;
}

const envelope = (result: Json): Json => ({
  type: 'object',
  required: ['code', 'message', 'result'],
  properties: {
    code: { type: 'string', const: '200' },
    message: { type: 'string', examples: ['操作成功'] },
    result,
  },
});

/** The JSON Schema of a route's successful answer: the envelope around its declared `result`. */
export function answerSchema(r: RegisteredRoute): Json {
  return envelope(r.response ? jsonSchema(r.response, 'output') : {});
}

/** The error envelope every refusal answers with (the catalogue of docs/architecture.md). */
export const ERROR_ENVELOPE: Json = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: '错误码（见错误目录）' },
    message: { type: 'string', description: '中文说明' },
    result: { type: 'null' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/**
 * Answers checked against this document (issue 44 §2): a 200 against its route's documented
 * envelope and `result`, any other status against the error envelope; a breach is described in one
 * line. Used by the API tests (test/contract-check.ts) and by a running server that records
 * breaches (`RINGMES_CONTRACT_LOG`, which the browser flows set: `registerOpenApi`).
 */
export function answerChecker() {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const error = ajv.compile(ERROR_ENVELOPE);
  // Compiled when a route is first answered: a run calls a part of the 900 routes.
  const compiled = new Map<RegisteredRoute, ValidateFunction>();
  return (route: RegisteredRoute, status: number, body: unknown): string | undefined => {
    let validate = error;
    if (status === 200) {
      let v = compiled.get(route);
      if (!v) {
        v = ajv.compile(answerSchema(route));
        compiled.set(route, v);
      }
      validate = v;
    }
    if (validate(body)) return undefined;
    return `${route.method} ${route.url} → ${status}: ${ajv.errorsText(validate.errors?.slice(0, 3))} — ${JSON.stringify(body).slice(0, 300)}`;
  };
}

/**
 * With `RINGMES_CONTRACT_LOG` set (the browser flows set it), every JSON answer of a registered
 * route is checked against the document as it leaves, and a breach is appended to that file; the
 * answer goes out unchanged. The flows' teardown fails the run when the file is not empty.
 */
function recordBreaches(app: App, logFile: string) {
  const check = answerChecker();
  let byRoute: Map<string, RegisteredRoute> | undefined;
  app.addHook('onSend', async (req, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return payload;
    // Compression (an earlier onSend hook) may have run: read the body as the client will.
    // Streams (heavy reads sent in slices) are not read here.
    let text: string;
    if (typeof payload === 'string') text = payload;
    else if (Buffer.isBuffer(payload)) {
      const encoding = reply.getHeader('content-encoding');
      text = (
        encoding === 'br'
          ? zlib.brotliDecompressSync(payload)
          : encoding === 'gzip'
            ? zlib.gunzipSync(payload)
            : payload
      ).toString('utf8');
    } else return payload;
    byRoute ??= new Map(app.ringmesRoutes.map((r) => [`${r.method} ${r.url}`, r]));
    const route = byRoute.get(`${req.method} ${req.routeOptions.url}`);
    if (!route || route.raw) return payload;
    let breach: string | undefined;
    try {
      breach = check(route, reply.statusCode, JSON.parse(text));
    } catch {
      breach = `${route.method} ${route.url}: the answer is not JSON`;
    }
    if (breach) fs.appendFileSync(logFile, `${breach}\n`);
    return payload;
  });
}

export interface OpenApiInfo {
  version: string;
}

export function openApiDocument(routes: RegisteredRoute[], info: OpenApiInfo): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const taken = new Set<string>();
  const used = new Set<string>();
  for (const r of routes) {
    if (r.method === 'HEAD') continue;
    const pathNames = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    if (r.url.endsWith('*')) pathNames.push('path');
    const params = r.params ? jsonSchema(r.params, 'input') : undefined;
    const query = r.query ? jsonSchema(r.query, 'input') : undefined;
    const tag = tagOf(r.permission);
    used.add(tag);
    const op: Json = {
      operationId: operationId(r, taken),
      tags: [tag],
      summary: `${r.method} ${r.url}`,
      'x-permission': r.permission,
      ...(r.alsoAllowedBy?.length ? { 'x-also-allowed-by': r.alsoAllowedBy } : {}),
      parameters: [...parameters(params, 'path', pathNames), ...parameters(query, 'query', [])],
      responses: {
        '200': r.raw
          ? { description: '文件或数据流（不在信封中）', content: { 'application/octet-stream': {} } }
          : { description: '成功', content: { 'application/json': { schema: answerSchema(r) } } },
        ...Object.fromEntries(
          ERRORS.filter(([s]) => r.permission !== 'public' || (s !== '401' && s !== '403')).map(
            ([s, name]) => [s, { $ref: `#/components/responses/${name}` }],
          ),
        ),
      },
    };
    if (r.permission === 'public') op.security = [];
    if (r.body)
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(r.body, 'input') } },
      };
    const p = openApiPath(r.url);
    paths[p] ??= {};
    paths[p][r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'RingMES API',
      version: info.version,
      description:
        '轴承制造 ERP/MES 的接口。每个回答都是信封 { code, message, result }；错误用同一信封加中文说明。' +
        '认证：Authorization: Bearer <token>（登录 POST /api/v1/sso/login 取得），或第三方应用的签名调用（docs/api.md）。',
      license: { name: 'Proprietary', identifier: 'LicenseRef-RingMES' },
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { token: [] }, { appKey: [] }],
    tags: [...used].sort().map((name) => ({ name, description: AREAS[name] ?? COMMON_TAG })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: '登录得到的令牌' },
        token: { type: 'apiKey', in: 'header', name: 'X-Token', description: '同一令牌，另一种头' },
        appKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-App-Key',
          description: '第三方应用的签名调用（另需签名头，见 docs/api.md）',
        },
      },
      schemas: { ErrorEnvelope: ERROR_ENVELOPE },
      responses: Object.fromEntries(
        ERRORS.map(([, name, description]) => [
          name,
          {
            description,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
        ]),
      ),
    },
  };
}

const DOCS_PAGE = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>RingMES 接口文档</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;
// A file of its own: the content security policy allows no inline script.
const DOCS_START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  persistAuthorization: true,
  tryItOutEnabled: false,
});
`;
const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/**
 * `GET /api/openapi.json` (the document, made once from every route registered before) and
 * `GET /api/docs` (Swagger UI over it, from the swagger-ui-dist package: no CDN, factories run
 * offline). Both public: the contract says what exists, not what anyone may read.
 */
export function registerOpenApi(app: App, version: string) {
  if (process.env.RINGMES_CONTRACT_LOG) recordBreaches(app, process.env.RINGMES_CONTRACT_LOG);
  let doc: string | undefined;
  app.get('/api/openapi.json', async (_req, reply) => {
    doc ??= JSON.stringify(openApiDocument(app.ringmesRoutes, { version }));
    reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-cache');
    return reply.send(doc);
  });
  app.get('/api/docs', async (_req, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').send(DOCS_PAGE),
  );
  app.get('/api/docs/start.js', async (_req, reply) =>
    reply.header('content-type', 'application/javascript; charset=utf-8').send(DOCS_START),
  );
  // The package's folder, found without loading it (its index loads the whole bundle).
  let dist: string | undefined;
  app.get<{ Params: { file: string } }>('/api/docs/:file', async (req, reply) => {
    const type = DOCS_ASSETS[req.params.file];
    if (!type) throw notFound('文件不存在');
    reply.header('content-type', type).header('cache-control', 'public, max-age=86400');
    dist ??= path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    return reply.send(fs.createReadStream(path.join(dist, req.params.file)));
  });
  for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/start.js', '/api/docs/:file'])
    app.ringmesRoutes.push({ method: 'GET', url, permission: 'public', raw: true });
}
