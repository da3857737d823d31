/**
 * Text files a gauge writes (CSV or tab-separated exports): Chinese gauge software writes UTF-8
 * (often with a BOM) or the Windows code page 936 — GBK, and GB18030 on newer systems, which
 * extends GBK with four-byte sequences (µ is 81 30 85 38). GB18030 is a superset of GBK and
 * GB2312, so one GB18030 decoder reads all three. Both the server (量仪导入) and the browser
 * (导入读数组) decode with the platform's TextDecoder, which supports gb18030 in Node (full ICU)
 * and in every browser (WHATWG Encoding Standard).
 */

export const GAUGE_ENCODINGS = ['auto', 'utf-8', 'gbk', 'gb18030'] as const;
export type GaugeEncoding = (typeof GAUGE_ENCODINGS)[number];

export const GAUGE_ENCODING_LABELS: Record<GaugeEncoding, string> = {
  auto: '自动识别',
  'utf-8': 'UTF-8',
  gbk: 'GBK',
  gb18030: 'GB18030',
};

/**
 * Decodes a gauge file. `auto`: a byte-order mark decides (UTF-8, UTF-16LE/BE); else text that is
 * valid UTF-8 is UTF-8, and anything else is read as GB18030 (GBK bytes are GB18030 bytes).
 * Answers the text without its BOM and the encoding used, as the import reports it.
 */
export function decodeGaugeText(
  bytes: Uint8Array,
  encoding: GaugeEncoding = 'auto',
): { text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' } {
  const b = bytes;
  if (encoding === 'gbk' || encoding === 'gb18030')
    return { text: new TextDecoder('gb18030').decode(b), encoding: 'gb18030' };
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(b.subarray(3)), encoding: 'utf-8' };
  if (encoding === 'utf-8') return { text: new TextDecoder('utf-8').decode(b), encoding: 'utf-8' };
  if (b[0] === 0xff && b[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(b.subarray(2)), encoding: 'utf-16le' };
  if (b[0] === 0xfe && b[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(b.subarray(2)), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(b), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('gb18030').decode(b), encoding: 'gb18030' };
  }
}

/** The lines of a decoded file (CRLF, LF or a lone CR). */
export const textLines = (text: string) => text.split(/\r\n|\n|\r/);
