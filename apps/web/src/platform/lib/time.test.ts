import { describe, expect, it } from 'vitest';
import { formatTime, relativeTime } from './time.ts';

describe('time helpers (spec section 9)', () => {
  it('formats as YYYY-MM-DD HH:mm:ss', () => {
    const d = new Date(2025, 0, 2, 3, 4, 5);
    expect(formatTime(d)).toBe('2025-01-02 03:04:05');
    expect(formatTime(d.getTime())).toBe('2025-01-02 03:04:05');
    expect(formatTime(Math.floor(d.getTime() / 1000))).toBe('2025-01-02 03:04:05');
    expect(formatTime('2025-01-02 03:04:05', 'YYYY/MM/DD')).toBe('2025/01/02');
    expect(formatTime(null)).toBe('');
  });

  it('shows 刚刚, N分钟前, N小时前, 1天前, then the date', () => {
    const now = new Date(2025, 5, 10, 12, 0, 0).getTime();
    expect(relativeTime(now - 10_000, now)).toBe('刚刚');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5分钟前');
    expect(relativeTime(now - 3 * 3600_000, now)).toBe('3小时前');
    expect(relativeTime(now - 30 * 3600_000, now)).toBe('1天前');
    expect(relativeTime(new Date(2025, 5, 1, 8, 30).getTime(), now)).toBe('6月1日8时30分');
    expect(relativeTime(new Date(2025, 5, 1, 8, 30).getTime(), now, 'YYYY-MM-DD')).toBe('2025-06-01');
  });
});
