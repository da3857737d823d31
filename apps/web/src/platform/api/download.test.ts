import { describe, expect, it } from 'vitest';
import { DOWNLOAD_ERROR_MESSAGES, downloadErrorMessage, fileNameFromDisposition } from './download.ts';

describe('download helper', () => {
  it('maps statuses to the four messages of spec section 8, preferring the server message', () => {
    expect(downloadErrorMessage(401)).toBe('认证失败，无法访问系统资源');
    expect(downloadErrorMessage(403)).toBe('当前操作没有权限');
    expect(downloadErrorMessage('404')).toBe('访问资源不存在');
    expect(downloadErrorMessage(500)).toBe(DOWNLOAD_ERROR_MESSAGES.default);
    expect(downloadErrorMessage(418)).toBe('系统未知错误，请反馈给管理员');
    expect(downloadErrorMessage(403, '文件路径非法')).toBe('文件路径非法');
  });

  it('reads the file name from Content-Disposition', () => {
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E9%94%80%E5%94%AE.xlsx")).toBe('销售.xlsx');
    expect(fileNameFromDisposition('attachment; filename="report.xlsx"')).toBe('report.xlsx');
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });
});
