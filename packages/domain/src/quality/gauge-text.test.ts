import { describe, expect, it } from 'vitest';
import { decodeGaugeText, textLines } from './gauge-text.ts';

/**
 * Byte sequences from the code tables: GB 2312 (= GBK, = GB18030 two-byte) 时 CA B1, 间 BC E4,
 * 外 CD E2, 径 BE B6; GB 18030-2005 four-byte µ (U+00B5) 81 30 85 38; UTF-8 时 E6 97 B6.
 */
const GBK_HEADER = [0xca, 0xb1, 0xbc, 0xe4, 0x2c, 0xcd, 0xe2, 0xbe, 0xb6];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

describe('gauge files in the encodings gauges write', () => {
  it('reads GBK bytes as GB18030 and keeps 5-decimal readings as written', () => {
    const bytes = Uint8Array.from([...GBK_HEADER, 0x0d, 0x0a, ...ascii('2026-11-02 08:00:00,47.00125')]);
    const r = decodeGaugeText(bytes);
    expect(r.encoding).toBe('gb18030');
    expect(textLines(r.text)).toEqual(['时间,外径', '2026-11-02 08:00:00,47.00125']);
    // Asked for GBK explicitly: the same text.
    expect(decodeGaugeText(bytes, 'gbk').text).toBe(r.text);
  });

  it('reads GB18030 four-byte characters (µ) that GBK lacks', () => {
    const bytes = Uint8Array.from([...ascii('D('), 0x81, 0x30, 0x85, 0x38, ...ascii('m)')]);
    expect(decodeGaugeText(bytes)).toEqual({ text: 'D(µm)', encoding: 'gb18030' });
  });

  it('reads UTF-8 with and without a BOM, and UTF-16 with one', () => {
    const utf8 = [0xe6, 0x97, 0xb6, ...ascii(',1.5')];
    expect(decodeGaugeText(Uint8Array.from(utf8))).toEqual({ text: '时,1.5', encoding: 'utf-8' });
    expect(decodeGaugeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8]))).toEqual({
      text: '时,1.5',
      encoding: 'utf-8',
    });
    // 时 is U+65F6: little-endian F6 65.
    expect(decodeGaugeText(Uint8Array.from([0xff, 0xfe, 0xf6, 0x65, 0x2c, 0x00, 0x31, 0x00]))).toEqual({
      text: '时,1',
      encoding: 'utf-16le',
    });
  });

  it('splits CRLF, LF and CR lines', () => {
    expect(textLines('a\r\nb\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
  });
});
