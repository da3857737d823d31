import type { paths } from '../../api/openapi';
import { type QueryParams, type RequestOptions, request } from './client.ts';

/**
 * The typed variant of `request` (issue 44 §3): the route is named by its path in the OpenAPI
 * document (`/api/v1/sale-order/progress/{id}`), and its path parameters, query, body and answer are
 * the types generated from the server's own schemas (src/api/openapi.d.ts, `npm run api-types`).
 * The call itself is `request`'s: same envelope handling, errors, toasts and session expiry.
 *
 *   const progress = await api.get('/api/v1/sale-order/progress/{id}', { path: { id } });
 */

type Method = 'get' | 'post' | 'put' | 'delete';

/** The document's paths that answer `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, infer O> ? ([O] extends [never] ? never : P) : never;
}[keyof paths];

type Op<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;

/** The envelope's `result` of the operation's 200 answer. */
type ResultOf<O> = O extends {
  responses: { 200: { content: { 'application/json': { result: infer R } } } };
}
  ? R
  : unknown;

type Params<O> = O extends { parameters: infer X } ? X : Record<string, never>;
type PathParams<O> = Params<O> extends { path: infer X } ? X : never;
type QueryOf<O> = Params<O> extends { query?: infer X } ? X : never;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

type Extra = Omit<RequestOptions, 'url' | 'method' | 'params' | 'data'>;

/** What a call passes: `path` when the route has path parameters, `query` and `body` when it takes them. */
export type CallOptions<O> = ([PathParams<O>] extends [never] ? { path?: never } : { path: PathParams<O> }) &
  ([QueryOf<O>] extends [never] ? { query?: never } : { query?: QueryOf<O> }) &
  ([BodyOf<O>] extends [never] ? { body?: never } : { body: BodyOf<O> }) &
  Extra;

/** The answer of `GET` / `POST` … on `P`, for the types of a page's state. */
export type ApiResult<P extends keyof paths, M extends Method = 'get'> = ResultOf<Op<P, M>>;
/** The query a route takes. */
export type ApiQuery<P extends keyof paths, M extends Method = 'get'> = NonNullable<QueryOf<Op<P, M>>>;
/** The body a route takes. */
export type ApiBody<P extends keyof paths, M extends Method = 'post'> = BodyOf<Op<P, M>>;

/** `/api/v1/stocktake/difference/{id}` with `{ id: 3 }` → `/api/v1/stocktake/difference/3`. */
export function fillPath(template: string, path: Record<string, unknown> | undefined): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const v = path?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`路径参数 ${name} 缺失：${template}`);
    return encodeURIComponent(String(v));
  });
}

function call<P extends keyof paths, M extends Method>(
  method: M,
  template: P,
  options: CallOptions<Op<P, M>> | undefined,
): Promise<ResultOf<Op<P, M>>> {
  const { path, query, body, ...extra } = (options ?? {}) as {
    path?: Record<string, unknown>;
    query?: QueryParams;
    body?: unknown;
  } & Extra;
  return request<ResultOf<Op<P, M>>>({
    url: fillPath(template as string, path),
    method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
    params: query,
    data: body,
    ...extra,
  });
}

/** Optional when the route needs neither path parameters nor a body. */
type Args<O> = [PathParams<O>] extends [never]
  ? [BodyOf<O>] extends [never]
    ? [options?: CallOptions<O>]
    : [options: CallOptions<O>]
  : [options: CallOptions<O>];

export const api = {
  get: <P extends PathOf<'get'>>(path: P, ...[options]: Args<Op<P, 'get'>>) =>
    call('get', path, options as CallOptions<Op<P, 'get'>> | undefined),
  post: <P extends PathOf<'post'>>(path: P, ...[options]: Args<Op<P, 'post'>>) =>
    call('post', path, options as CallOptions<Op<P, 'post'>> | undefined),
  put: <P extends PathOf<'put'>>(path: P, ...[options]: Args<Op<P, 'put'>>) =>
    call('put', path, options as CallOptions<Op<P, 'put'>> | undefined),
  delete: <P extends PathOf<'delete'>>(path: P, ...[options]: Args<Op<P, 'delete'>>) =>
    call('delete', path, options as CallOptions<Op<P, 'delete'>> | undefined),
};
