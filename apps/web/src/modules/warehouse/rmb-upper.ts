const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const PLACES = ['仟', '佰', '拾', ''];
const GROUPS = ['', '万', '亿', '万亿'];

/**
 * An amount in words as Chinese invoices and delivery notes print it (金额大写): 310.00 →
 * 叁佰壹拾元整, 10010.5 → 壹万零壹拾元伍角. Reads the decimal string (never a float); 元 to 分.
 */
export function rmbUpper(amount: string): string {
  const negative = amount.trim().startsWith('-');
  const [whole = '', fraction = ''] = amount.trim().replace(/^[-+]/, '').split('.');
  const digits = whole.replace(/^0+/, '');
  const jiao = Number((fraction + '00')[0]);
  const fen = Number((fraction + '00')[1]);
  let out = '';
  if (digits) {
    const groups: string[] = [];
    for (let end = digits.length; end > 0; end -= 4) groups.unshift(digits.slice(Math.max(0, end - 4), end));
    let zero = false;
    groups.forEach((g, i) => {
      let words = '';
      const four = g.padStart(4, '0');
      for (let k = 0; k < 4; k++) {
        const d = Number(four[k]);
        if (d === 0) {
          zero = true;
          continue;
        }
        if (zero && (out || words)) words += '零';
        zero = false;
        words += DIGITS[d] + PLACES[k];
      }
      if (words) out += words + GROUPS[groups.length - 1 - i];
    });
    out += '元';
  }
  if (!jiao && !fen) out += '整';
  else {
    if (jiao) out += `${DIGITS[jiao]}角`;
    else if (out) out += '零';
    if (fen) out += `${DIGITS[fen]}分`;
  }
  if (out === '整') return '零元整';
  return (negative ? '负' : '') + out;
}
