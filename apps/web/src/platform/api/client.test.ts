import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureClient, http, REQUEST_TIMEOUT_MS, request, resetClientState } from './client.ts';
import { classifyEnvelope, isSuccessCode } from './envelope.ts';
import { ApiError } from './errors.ts';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('envelope codes (spec section 8)', () => {
  it('treats "200" and numeric 20000 as success', () => {
    expect(isSuccessCode('200')).toBe(true);
    expect(isSuccessCode(20000)).toBe(true);
    expect(isSuccessCode('400')).toBe(false);
    expect(classifyEnvelope({ code: '407' }).kind).toBe('session-expired');
    expect(classifyEnvelope({ code: 50008 }).kind).toBe('relogin');
    expect(classifyEnvelope({ code: 50012 }).kind).toBe('relogin');
    expect(classifyEnvelope({ code: 50014 }).kind).toBe('relogin');
    expect(classifyEnvelope({ code: '50014' }).kind).toBe('error');
    expect(classifyEnvelope({ code: '409' }).kind).toBe('error');
  });
});

describe('request client', () => {
  const notifyError = vi.fn();
  const onSessionExpired = vi.fn();
  const confirmRelogin = vi.fn(() => Promise.resolve());
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    resetClientState();
    notifyError.mockReset();
    onSessionExpired.mockReset();
    confirmRelogin.mockClear();
    fetchMock.mockReset();
    configureClient({
      getToken: () => 'tok',
      getIdentity: () => ({ userId: 1, userName: 'admin', firstName: '系统管理员' }),
      notifyError,
      onSessionExpired,
      confirmRelogin,
      fetch: fetchMock,
      baseUrl: '',
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('unwraps result, builds the query and sends the auth headers', async () => {
    fetchMock.mockResolvedValueOnce(json({ code: '200', message: 'ok', result: { list: [1] } }));
    const result = await http.get<{ list: number[] }>('/api/v1/user/list', {
      pageNum: 1,
      userName: '',
      deptId: null,
    });
    expect(result).toEqual({ list: [1] });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/v1/user/list?pageNum=1');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['X-Token']).toBe('tok');
    expect(headers['X-First-Name']).toBe(Buffer.from('系统管理员').toString('base64'));
  });

  it('sends JSON bodies', async () => {
    fetchMock.mockResolvedValueOnce(json({ code: 20000, result: null }));
    await http.post('/api/v1/dept/addDept', { deptName: '磨加工车间' });
    const init = fetchMock.mock.calls[0][1] ?? {};
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"deptName":"磨加工车间"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toContain('application/json');
  });

  it('reads the envelope whatever the HTTP status and rejects with code and field errors', async () => {
    fetchMock.mockResolvedValueOnce(
      json({ code: '400', message: '参数校验失败', errors: [{ field: 'userName', message: '已存在' }] }, 400),
    );
    const error = await http.post('/api/v1/user/newAddUser', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('400');
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).errors).toEqual([{ field: 'userName', message: '已存在' }]);
    expect((error as ApiError).shown).toBe(true);
    expect(notifyError).toHaveBeenCalledWith('参数校验失败', 3);
  });

  it('shows nothing for a silent call but still rejects', async () => {
    fetchMock.mockResolvedValueOnce(json({ code: '409', message: '冲突' }, 409));
    await expect(request({ url: '/x', silent: true })).rejects.toMatchObject({ code: '409', shown: false });
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('code "407": the message once, logout after 2 s, however many calls fail', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(() => Promise.resolve(json({ code: '407', message: '登录已过期' }, 401)));
    const results = await Promise.allSettled([http.get('/a'), http.get('/b'), http.get('/c')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(notifyError).toHaveBeenCalledTimes(1);
    expect(notifyError).toHaveBeenCalledWith('登录已过期', 3);
    expect(onSessionExpired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1999);
    expect(onSessionExpired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('numeric 50008/50012/50014 open the "Confirm logout" dialog once', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(json({ code: 50012, message: 'Other clients logged in' })),
    );
    await Promise.allSettled([http.get('/a'), http.get('/b')]);
    expect(confirmRelogin).toHaveBeenCalledTimes(1);
    expect(notifyError).toHaveBeenCalledWith('Other clients logged in', 3);
  });

  it('skipSessionHandling leaves a 407 to the caller', async () => {
    fetchMock.mockResolvedValueOnce(json({ code: '407', message: '未登录' }, 401));
    await expect(
      request({ url: '/api/v1/sso/getUserByToken', silent: true, skipSessionHandling: true }),
    ).rejects.toMatchObject({ code: '407' });
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('network failures show the error for 5 s', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(http.get('/a')).rejects.toMatchObject({ kind: 'network' });
    expect(notifyError).toHaveBeenCalledWith(expect.stringContaining('网络连接失败'), 5);
  });

  it('an HTTP failure without an envelope shows a Chinese message for 5 s', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(http.get('/a')).rejects.toMatchObject({ kind: 'http', status: 502 });
    expect(notifyError).toHaveBeenCalledWith(expect.stringContaining('502'), 5);
  });

  it('gives up after 60 s', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = http.get('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await pending).toMatchObject({ kind: 'timeout' });
    expect(notifyError).toHaveBeenCalledWith('请求超时，请稍后重试', 5);
  });

  it('passes binary answers through', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(new Uint8Array([1, 2, 3]), {
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
      }),
    );
    const blob = await request<Blob>({ url: '/common/download', responseType: 'blob' });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.size).toBe(3);
    fetchMock.mockResolvedValueOnce(new Response(new Uint8Array([9, 9]), { status: 200 }));
    const buffer = await request<ArrayBuffer>({ url: '/common/download', responseType: 'arraybuffer' });
    expect(buffer.byteLength).toBe(2);
  });

  it('a binary call answered with a JSON error envelope is an error', async () => {
    fetchMock.mockResolvedValueOnce(json({ code: '404', message: '文件不存在' }, 404));
    await expect(request({ url: '/common/download', responseType: 'blob' })).rejects.toMatchObject({
      code: '404',
    });
  });
});
