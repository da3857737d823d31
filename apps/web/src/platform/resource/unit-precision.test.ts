import { saleOrderResource } from '@ringmes/domain';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { resourceKeys } from './resource-api.ts';
import { countingUnit, unitPaths, unitPrecisionRule } from './unit-precision.tsx';

/** A client whose option caches hold a bearing in 套 (boxes of 10 possible) and steel in kg. */
function client() {
  const c = new QueryClient();
  c.setQueryData(resourceKeys.options('material-unit'), [
    { value: 1, label: '套', name: '套', precision: 0 },
    { value: 2, label: 'kg', name: 'kg', precision: 3 },
    { value: 3, label: '箱', name: '箱', precision: 0 },
  ]);
  c.setQueryData(
    [...resourceKeys.options('material-info'), 'ids', '7'],
    [{ value: 7, label: '6204', unitId: 1 }],
  );
  c.setQueryData(
    [...resourceKeys.options('material-info'), 'ids', '8'],
    [{ value: 8, label: 'GCr15', unitId: 2 }],
  );
  return c;
}

const check = (c: QueryClient, value: unknown, materialId: number, unitId?: number) => {
  const rule = unitPrecisionRule('数量', c, () => ({ materialId, unitId }));
  return (rule as any).validator({}, value) as Promise<void>;
};

describe('quantities in forms fit their unit', () => {
  it('find the unit: the chosen one, else the material base unit', async () => {
    const c = client();
    expect(await countingUnit(c, 7, null)).toEqual({ id: 1, name: '套', precision: 0 });
    expect(await countingUnit(c, 8, 3)).toEqual({ id: 3, name: '箱', precision: 0 });
    expect(await countingUnit(c, null, null)).toBeUndefined();
  });

  it('flag 1.5 套 in the server words, let 2 套 and 2.125 kg through', async () => {
    const c = client();
    await expect(check(c, '1.5', 7)).rejects.toThrow('数量 1.5 不符合单位「套」的精度：只能填整数');
    await expect(check(c, '2', 7)).resolves.toBeUndefined();
    await expect(check(c, 2.125, 8)).resolves.toBeUndefined();
    await expect(check(c, '2.1234', 8)).rejects.toThrow('数量 2.1234 不符合单位「kg」的精度：最多 3 位小数');
    await expect(check(c, '1.5', 8, 3)).rejects.toThrow('不符合单位「箱」');
  });

  it('read a line quantity material and unit from its own row', () => {
    const line = saleOrderResource.lines?.[0];
    const quantity = line?.fields.find((f) => f.name === 'quantity');
    expect(quantity?.unitFrom).toEqual({ material: 'materialId', unit: 'unitId' });
    if (!line || !quantity) return;
    expect(unitPaths(quantity, { def: line, row: 2 })).toEqual({
      material: ['lines', 2, 'materialId'],
      unit: ['lines', 2, 'unitId'],
    });
  });
});
