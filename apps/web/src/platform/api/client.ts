import { classifyEnvelope, type Envelope, envelopeMessage, isEnvelope } from './envelope.ts';
import { ApiError } from './errors.ts';
import { buildAuthHeaders, type CallerIdentity } from './headers.ts';

/** Spec section 9: every call gives up after 60 s. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Spec section 9: server-code errors show 3 s, network errors 5 s; logout 2 s after "407". */
export const BUSINESS_ERROR_SECONDS = 3;
export const NETWORK_ERROR_SECONDS = 5;
export const SESSION_LOGOUT_DELAY_MS = 2_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type QueryParams = Record<string, unknown>;

export interface RequestOptions {
  url: string;
  method?: HttpMethod;
  params?: QueryParams;
  data?: unknown;
  headers?: Record<string, string>;
  responseType?: 'json' | 'blob' | 'arraybuffer';
  timeout?: number;
  signal?: AbortSignal;
  /** The caller shows the error itself: no toast (the rejection still carries the message). */
  silent?: boolean;
  /** The caller handles an expired session itself (getUserByToken): no 407 logout, no dialog. */
  skipSessionHandling?: boolean;
}

/** What the client needs from the application; injected so the client stays testable. */
export interface ClientHooks {
  getToken(): string | undefined;
  getIdentity(): CallerIdentity | null;
  notifyError(message: string, seconds: number): void;
  /** Clears the session and goes to /login (code "407", 2 s after the message). */
  onSessionExpired(): void;
  /** Shows the "Confirm logout" dialog (codes 50008/50012/50014); resolves when it closes. */
  confirmRelogin(): Promise<void>;
  fetch?: typeof fetch;
  baseUrl?: string;
}

const noop = () => {};
let hooks: ClientHooks = {
  getToken: () => undefined,
  getIdentity: () => null,
  notifyError: noop,
  onSessionExpired: noop,
  confirmRelogin: () => Promise.resolve(),
};

/** Session-expiry de-duplication: the "407" message shows once however many calls fail. */
let sessionExpiring = false;
let reloginDialogOpen = false;

export function configureClient(next: Partial<ClientHooks>): void {
  hooks = { ...hooks, ...next };
}

/** The configured hooks (the download helper shares the token and the notifier). */
export function clientHooks(): Readonly<ClientHooks> {
  return hooks;
}

/** Test helper: forget the once-only state. */
export function resetClientState(): void {
  sessionExpiring = false;
  reloginDialogOpen = false;
}

/** Query string without empty values; arrays repeat the key. */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v !== undefined && v !== null) search.append(key, String(v));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function httpFailureMessage(status: number): string {
  if (status === 500) return '系统繁忙，请稍后重试';
  if (status === 502 || status === 503 || status === 504)
    return `服务器暂时不可用（HTTP ${status}），请稍后重试`;
  if (status === 404) return '请求的接口不存在（HTTP 404）';
  return `请求失败（HTTP ${status}）`;
}

function fail(init: ConstructorParameters<typeof ApiError>[0], silent: boolean, seconds: number): never {
  const error = new ApiError({ ...init, shown: !silent && Boolean(init.message) });
  if (!silent && init.message) hooks.notifyError(init.message, seconds);
  throw error;
}

function handleEnvelope<T>(envelope: Envelope<T>, status: number, options: RequestOptions): Envelope<T> {
  const outcome = classifyEnvelope(envelope);
  if (outcome.kind === 'success') return envelope;
  const message = envelopeMessage(envelope) ?? '';
  const silent = Boolean(options.silent);

  if (outcome.kind === 'session-expired' && !options.skipSessionHandling) {
    const first = !sessionExpiring;
    if (first) {
      sessionExpiring = true;
      hooks.notifyError(message || '登录状态已过期，请重新登录', BUSINESS_ERROR_SECONDS);
      setTimeout(() => {
        try {
          hooks.onSessionExpired();
        } finally {
          sessionExpiring = false;
        }
      }, SESSION_LOGOUT_DELAY_MS);
    }
    throw new ApiError({
      message: message || '登录状态已过期',
      code: envelope.code,
      status,
      kind: 'session',
      shown: true,
    });
  }

  if (outcome.kind === 'relogin' && !options.skipSessionHandling) {
    if (message) hooks.notifyError(message, BUSINESS_ERROR_SECONDS);
    if (!reloginDialogOpen) {
      reloginDialogOpen = true;
      hooks.confirmRelogin().finally(() => {
        reloginDialogOpen = false;
      });
    }
    throw new ApiError({ message, code: envelope.code, status, kind: 'session', shown: true });
  }

  return fail(
    { message, code: envelope.code, status, kind: 'business', errors: envelope.errors },
    silent,
    BUSINESS_ERROR_SECONDS,
  );
}

function isJsonResponse(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('json');
}

/**
 * Sends one call and applies the envelope and error catalogue (spec sections 7 and 8).
 * Resolves with the whole envelope; binary answers (blob/arraybuffer) resolve as they are.
 */
export async function requestRaw<T = unknown>(
  options: RequestOptions,
): Promise<Envelope<T> | Blob | ArrayBuffer> {
  const method = options.method ?? 'GET';
  const silent = Boolean(options.silent);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout ?? REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const headers: Record<string, string> = {
    Accept: 'application/json, */*',
    ...buildAuthHeaders(hooks.getToken(), hooks.getIdentity()),
    ...options.headers,
  };
  let body: BodyInit | undefined;
  if (options.data !== undefined && method !== 'GET') {
    if (options.data instanceof FormData || options.data instanceof Blob) {
      body = options.data;
    } else {
      headers['Content-Type'] = 'application/json;charset=UTF-8';
      body = JSON.stringify(options.data);
    }
  }

  const url = `${hooks.baseUrl ?? ''}${options.url}${buildQuery(options.params)}`;
  let response: Response;
  try {
    response = await (hooks.fetch ?? fetch)(url, { method, headers, body, signal: controller.signal });
  } catch (cause) {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    if (timedOut) {
      return fail({ message: '请求超时，请稍后重试', kind: 'timeout' }, silent, NETWORK_ERROR_SECONDS);
    }
    if (options.signal?.aborted) {
      throw new ApiError({ message: '请求已取消', kind: 'aborted' });
    }
    const detail = cause instanceof Error ? cause.message : String(cause);
    return fail(
      { message: `网络连接失败，请检查网络或稍后重试（${detail}）`, kind: 'network' },
      silent,
      NETWORK_ERROR_SECONDS,
    );
  }

  try {
    const wantsBinary = options.responseType === 'blob' || options.responseType === 'arraybuffer';
    if (wantsBinary && response.ok && !isJsonResponse(response)) {
      return options.responseType === 'blob' ? await response.blob() : await response.arrayBuffer();
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (isEnvelope(parsed)) return handleEnvelope(parsed as Envelope<T>, response.status, options);
    if (!response.ok) {
      return fail(
        { message: httpFailureMessage(response.status), status: response.status, kind: 'http' },
        silent,
        NETWORK_ERROR_SECONDS,
      );
    }
    // A 2xx answer outside the envelope (static JSON, plain text): hand it over as the result.
    return { code: '200', result: (parsed ?? text) as T };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (timedOut)
      return fail({ message: '请求超时，请稍后重试', kind: 'timeout' }, silent, NETWORK_ERROR_SECONDS);
    if (options.signal?.aborted) throw new ApiError({ message: '请求已取消', kind: 'aborted' });
    const detail = error instanceof Error ? error.message : String(error);
    return fail(
      { message: `读取服务器响应失败（${detail}）`, kind: 'network' },
      silent,
      NETWORK_ERROR_SECONDS,
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** Sends one call and resolves with the envelope's `result`. */
export async function request<T = unknown>(options: RequestOptions): Promise<T> {
  const answer = await requestRaw<T>(options);
  if (answer instanceof Blob || answer instanceof ArrayBuffer) return answer as T;
  return answer.result as T;
}

type Extra = Omit<RequestOptions, 'url' | 'method' | 'params' | 'data'>;

export const http = {
  get: <T>(url: string, params?: QueryParams, extra?: Extra) =>
    request<T>({ url, method: 'GET', params, ...extra }),
  post: <T>(url: string, data?: unknown, extra?: Extra) =>
    request<T>({ url, method: 'POST', data, ...extra }),
  put: <T>(url: string, data?: unknown, extra?: Extra) => request<T>({ url, method: 'PUT', data, ...extra }),
  delete: <T>(url: string, data?: unknown, extra?: Extra & { params?: QueryParams }) =>
    request<T>({ url, method: 'DELETE', data, ...extra }),
};
