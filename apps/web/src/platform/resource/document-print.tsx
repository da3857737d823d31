import type { FieldDef, ResourceDef } from '@ringmes/domain';
import { PrintView } from '../ui/print-view.tsx';
import { codeFieldOf } from './fields.ts';
import { fieldText, formatNumber } from './format.tsx';
import type { ResourceRow } from './resource-api.ts';

/** Whether a resource's records print as documents: a numbered document with a line table. */
export function isPrintable(def: ResourceDef): boolean {
  return !!def.lifecycle && !!codeFieldOf(def) && (def.lines ?? []).some((l) => !l.readonly);
}

/** Sum of exact decimal strings (money), carried as scaled integers. */
function sumExact(values: unknown[]): string {
  const SCALE = 4;
  let total = 0n;
  for (const v of values) {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(v ?? ''));
    if (!m) continue;
    const digits = BigInt(`${m[2]}${(m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE)}`);
    total += m[1] ? -digits : digits;
  }
  const neg = total < 0n;
  const s = (neg ? -total : total).toString().padStart(SCALE + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, -SCALE)}.${s.slice(-SCALE)}`;
}

const shown = (f: FieldDef) => !f.hidden && f.kind !== 'json';

/**
 * The A4 printout of any document the kit defines (销售订单, 采购订单, 请购单…): its number as
 * a QR code, the header fields that have a value, the first editable line table with what was
 * typed and the amounts, money totals, and signature boxes.
 */
export function DocumentPrint({
  def,
  record,
  onClose,
  docName = def.label,
  signatures = ['制单', '审核', '批准'],
  totals = {},
  computed = [],
}: {
  def: ResourceDef;
  record: ResourceRow;
  onClose: () => void;
  /** The title when not the definition's label (采购入库单). */
  docName?: string;
  /** Who signs (a stock document: 制单, 仓管, 审核). */
  signatures?: string[];
  /** Totals beyond the money columns' (基本单位数量 per unit). */
  totals?: Record<string, string>;
  /** Computed line fields printed too (基本单位数量); amounts always are. */
  computed?: string[];
}) {
  const code = codeFieldOf(def) as string;
  const line = (def.lines ?? []).find((l) => !l.readonly);
  const lines = ((line && record[line.name]) ?? []) as Record<string, any>[];
  const columns = (line?.fields ?? []).filter(
    (f) => shown(f) && f.list !== false && (!f.readonly || f.kind === 'money' || computed.includes(f.name)),
  );
  return (
    <PrintView
      onClose={onClose}
      doc={{
        docName,
        docNo: String(record[code] ?? ''),
        fields: def.fields
          .filter((f) => shown(f) && f.name !== code && fieldText(f, record) !== '')
          .map((f) => ({ label: f.label, value: fieldText(f, record) })),
        columns: columns.map((f) => ({
          title: f.label,
          numeric: f.kind === 'quantity' || f.kind === 'money' || f.kind === 'price' || f.kind === 'decimal',
          render: (l) => fieldText(f, l),
        })),
        lines,
        totals: {
          ...Object.fromEntries(
            columns
              .filter((f) => f.kind === 'money')
              .map((f) => [f.label, formatNumber(f, sumExact(lines.map((l) => l[f.name])))]),
          ),
          ...totals,
        },
        signatures,
      }}
    />
  );
}
