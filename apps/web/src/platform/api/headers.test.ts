import { describe, expect, it } from 'vitest';
import { base64Utf8, buildAuthHeaders, decodeBase64Utf8 } from './headers.ts';

describe('auth headers', () => {
  it('encodes UTF-8 (Chinese names) as base64', () => {
    expect(base64Utf8('admin')).toBe('YWRtaW4=');
    expect(base64Utf8('系统管理员')).toBe(Buffer.from('系统管理员', 'utf8').toString('base64'));
    expect(decodeBase64Utf8(base64Utf8('张丽 ✓'))).toBe('张丽 ✓');
  });

  it('sends nothing without a token', () => {
    expect(buildAuthHeaders(undefined, { userId: 1, userName: 'admin' })).toEqual({});
  });

  it('sends the token twice plus id, name and first name in base64', () => {
    const h = buildAuthHeaders('tok123', { userId: 7, userName: 'sales01', firstName: '张丽' });
    expect(h.Authorization).toBe('Bearer tok123');
    expect(h['X-Token']).toBe('tok123');
    expect(decodeBase64Utf8(h['X-User-Id'])).toBe('7');
    expect(decodeBase64Utf8(h['X-User-Name'])).toBe('sales01');
    expect(decodeBase64Utf8(h['X-First-Name'])).toBe('张丽');
  });

  it('leaves the identity headers out before the user is known', () => {
    expect(Object.keys(buildAuthHeaders('t', null)).sort()).toEqual(['Authorization', 'X-Token']);
  });
});
