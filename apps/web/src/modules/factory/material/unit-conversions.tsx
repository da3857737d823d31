import '../factory.css';
import { isKilogram, ratioProblem, ratioSentences, weightOf } from '@ringmes/domain';
import { Form } from 'antd';
import { useOptions } from '../../../platform/resource/use-options.ts';

type Line = {
  unitId?: number | null;
  unitQuantity?: string | number | null;
  baseQuantity?: string | number | null;
};

/**
 * Under the material form's 单位换算 lines: each conversion read both ways as it is typed
 * (「1 kg ≈ 4.255319 套；1 套 = 0.235 kg」), so that 「1 套 = 0.235 kg」 can be entered in whichever
 * direction is exact (0.235 kg = 1 套) and checked at a glance; and the unit weight the kilogram
 * line makes (单重 is never typed: it is that line read the other way).
 */
export function UnitConversionSentences() {
  const form = Form.useFormInstance();
  const baseId = Form.useWatch('unitId', form) as number | undefined;
  const lines = (Form.useWatch('unitConversions', form) ?? []) as (Line | undefined)[];
  const { options } = useOptions('material-unit');
  const unit = (id: number | null | undefined) => options.find((o) => o.value === id);
  const base = unit(baseId);
  const name = (o: ReturnType<typeof unit>) => String(o?.name ?? o?.label ?? '');
  const read = lines.flatMap((l, i) => {
    const u = unit(l?.unitId);
    if (!base || !u || u.value === base.value || !l) return [];
    const ratio = { unitQuantity: String(l.unitQuantity ?? '1'), baseQuantity: String(l.baseQuantity ?? '') };
    if (ratioProblem(ratio)) return [];
    return [{ i, u, ratio, text: ratioSentences(ratio, name(u), name(base)).join('；') }];
  });
  const kg = read.find((r) => isKilogram({ code: r.u.code, name: name(r.u) }));
  if (!read.length) return null;
  return (
    <div className="fm-conversion-hint" data-testid="unit-conversion-sentences" aria-live="polite">
      {read.map((r) => (
        <div key={r.i}>
          第 {r.i + 1} 行：{r.text}
        </div>
      ))}
      {kg && <div>单重：{Number(weightOf(kg.ratio))} kg（由 kg 换算得出）</div>}
    </div>
  );
}
