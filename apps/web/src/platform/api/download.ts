import {
  BUSINESS_ERROR_SECONDS,
  buildQuery,
  clientHooks,
  NETWORK_ERROR_SECONDS,
  type QueryParams,
} from './client.ts';
import { envelopeMessage, isEnvelope } from './envelope.ts';
import { ApiError } from './errors.ts';

/** Download error messages by HTTP status (spec section 8); the server's message wins when present. */
export const DOWNLOAD_ERROR_MESSAGES: Record<'401' | '403' | '404' | 'default', string> = {
  '401': '认证失败，无法访问系统资源',
  '403': '当前操作没有权限',
  '404': '访问资源不存在',
  default: '系统未知错误，请反馈给管理员',
};

export function downloadErrorMessage(status: number | string, serverMessage?: string): string {
  if (serverMessage) return serverMessage;
  const key = String(status);
  return key === '401' || key === '403' || key === '404'
    ? DOWNLOAD_ERROR_MESSAGES[key]
    : DOWNLOAD_ERROR_MESSAGES.default;
}

/** File name from Content-Disposition (RFC 5987 `filename*=UTF-8''…` preferred). */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      return star[1];
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  if (!plain) return undefined;
  try {
    return decodeURIComponent(plain[1].trim());
  } catch {
    return plain[1].trim();
  }
}

export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/**
 * Downloads a file with GET and the bearer token (for /common/download, …/resource and …/zip)
 * and saves it. Errors show the matching Chinese message and reject.
 */
export async function download(url: string, params?: QueryParams, fileName?: string): Promise<void> {
  const hooks = clientHooks();
  const token = hooks.getToken();
  let response: Response;
  try {
    response = await (hooks.fetch ?? fetch)(`${hooks.baseUrl ?? ''}${url}${buildQuery(params)}`, {
      method: 'GET',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch (cause) {
    const message = `文件下载失败：网络连接异常（${cause instanceof Error ? cause.message : String(cause)}）`;
    hooks.notifyError(message, NETWORK_ERROR_SECONDS);
    throw new ApiError({ message, kind: 'network', shown: true });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    let serverMessage: string | undefined;
    let code: string | number = response.status;
    try {
      const parsed: unknown = await response.json();
      if (isEnvelope(parsed)) {
        serverMessage = envelopeMessage(parsed);
        code = parsed.code;
      }
    } catch {
      // not JSON: fall back to the status message
    }
    const status = response.ok ? Number(code) || 500 : response.status;
    const message = downloadErrorMessage(status, serverMessage);
    hooks.notifyError(message, BUSINESS_ERROR_SECONDS);
    throw new ApiError({ message, code, status, kind: 'http', shown: true });
  }
  const blob = await response.blob();
  const name =
    fileNameFromDisposition(response.headers.get('content-disposition')) ??
    fileName ??
    (typeof params?.fileName === 'string' ? params.fileName : 'download');
  saveBlob(blob, name);
}
