import { describe, expect, it } from 'vitest';
import { touchAndEvict } from './tabs-lru.ts';

describe('touchAndEvict (pages kept alive, least recently shown first out)', () => {
  it('keeps up to the cap and evicts the page shown longest ago', () => {
    const recent: string[] = [];
    expect(touchAndEvict(recent, '/a', 3)).toEqual([]);
    expect(touchAndEvict(recent, '/b', 3)).toEqual([]);
    expect(touchAndEvict(recent, '/c', 3)).toEqual([]);
    // /a shown again: /b is now the oldest, and goes when /d opens.
    expect(touchAndEvict(recent, '/a', 3)).toEqual([]);
    expect(recent).toEqual(['/b', '/c', '/a']);
    expect(touchAndEvict(recent, '/d', 3)).toEqual(['/b']);
    expect(recent).toEqual(['/c', '/a', '/d']);
  });

  it('never evicts the page being shown, even with a cap below one', () => {
    const recent = ['/a', '/b'];
    expect(touchAndEvict(recent, '/b', 0)).toEqual(['/a']);
    expect(recent).toEqual(['/b']);
  });
});
