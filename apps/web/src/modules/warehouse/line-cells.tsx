import { ratioText } from '@ringmes/domain';
import { type QueryClient, useQueries, useQuery } from '@tanstack/react-query';
import { Select, TreeSelect } from 'antd';
import { useEffect, useState } from 'react';
import { request } from '../../platform/api/client.ts';
import { compareQuantity, type Shortage, shortages, toBaseQuantity } from './quantities.ts';
import { Dash, UnitTotals } from './shared.tsx';
import { type AvailableKey, qty, type Row, stockApi, type UnitConversion, whKeys } from './warehouse.api.ts';

const STALE = 5 * 60_000;

const unitsQuery = (materialId: number) => ({
  queryKey: whKeys.units(materialId),
  queryFn: () => stockApi.units(materialId),
  staleTime: STALE,
});

/** The unit conversions of each material named (shared with the unit selects through the cache). */
export function useConversions(materialIds: readonly (number | undefined)[]): Map<number, UnitConversion> {
  const ids = [...new Set(materialIds.filter((id): id is number => Boolean(id)))];
  const results = useQueries({ queries: ids.map(unitsQuery) });
  const out = new Map<number, UnitConversion>();
  ids.forEach((id, i) => {
    const data = results[i]?.data;
    if (data) out.set(id, data);
  });
  return out;
}

/**
 * A line's quantity in its material's base unit, converted once as posting converts it (quantity ×
 * base ÷ unit, to the base unit's precision); undefined while the material, quantity or unit is
 * unknown. An issue in another unit may take slightly other figures: it takes its share of what
 * came in in that unit first (docs/architecture.md, "Unit conversion").
 */
export function lineBase(
  line: Row | undefined,
  conv: UnitConversion | undefined,
): { quantity?: string; unitName?: string } {
  if (!line || !conv) return {};
  const unitId = line.unitId ?? conv.baseUnitId;
  const unit = conv.units.find((u) => u.unitId === unitId);
  return { quantity: toBaseQuantity(line.quantity, unit, conv.basePrecision), unitName: conv.baseUnitName };
}

/** The 基本单位数量 cell of a line being edited: 2 箱 of 50 show 100 个 as you type. */
export function BaseQuantityCell({ line, index }: { line?: Row; index: number }) {
  const convs = useConversions([line?.materialId]);
  const base = lineBase(line, convs.get(line?.materialId));
  return (
    <div className="wh-cell-text wh-num" data-testid={`line-${index}-base`}>
      {base.quantity === undefined ? <Dash /> : `${qty(base.quantity)} ${base.unitName ?? ''}`}
    </div>
  );
}

/** 合计 of the lines being edited, per base unit, live. */
export function LineBaseTotals({ lines }: { lines?: (Row | undefined)[] }) {
  const list = lines ?? [];
  const convs = useConversions(list.map((l) => l?.materialId));
  const bases = list.map((l) => lineBase(l, convs.get(l?.materialId)));
  return (
    <div className="wh-totals wh-line-totals" data-testid="line-totals">
      <UnitTotals label="基本单位数量合计" totals={bases} />
    </div>
  );
}

/** A value that settles `ms` after the last change (a batch number being typed). */
function useSettled(value: string, ms = 400): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** The key an outbound line draws its stock by (undefined until material and warehouse are known). */
export function availableKey(
  line: Row | undefined,
  warehouseId: number | undefined,
): AvailableKey | undefined {
  if (!line?.materialId || !warehouseId) return undefined;
  const batchNo = typeof line.batchNo === 'string' ? line.batchNo.trim() : '';
  return {
    materialId: line.materialId,
    warehouseId,
    ...(line.locationId ? { locationId: line.locationId } : {}),
    ...(batchNo ? { batchNo } : {}),
    qualityStatus: line.qualityStatus ?? 'qualified',
  };
}

export const availableQuery = (key: AvailableKey) => ({
  queryKey: whKeys.available(key),
  queryFn: () => stockApi.available(key),
  staleTime: 10_000,
});

/**
 * 可用 of an outbound line: what its material, warehouse, quality status, location and batch
 * hold now, in the base unit; red when the line asks for more.
 */
export function AvailableCell({
  line,
  warehouseId,
  index,
}: {
  line?: Row;
  warehouseId?: number;
  index: number;
}) {
  const wanted = availableKey(line, warehouseId);
  const settled = useSettled(wanted ? JSON.stringify(wanted) : '');
  const key: AvailableKey | undefined = settled ? JSON.parse(settled) : undefined;
  const available = useQuery({ ...availableQuery(key as AvailableKey), enabled: Boolean(key) });
  const convs = useConversions([line?.materialId]);
  const base = lineBase(line, convs.get(line?.materialId));
  const have = available.data;
  const short = have && base.quantity !== undefined && compareQuantity(base.quantity, have.quantity) > 0;
  return (
    <div
      className={`wh-cell-text wh-num${short ? ' wh-loss' : ''}`}
      data-testid={`line-${index}-available`}
      title={short ? '超过可用库存' : undefined}
    >
      {!key || !have ? <Dash /> : `${qty(have.quantity) || '0'} ${have.unitName}`}
    </div>
  );
}

/** The units a material can be counted in (base unit first), from its unit conversions. */
export function UnitSelect({
  materialId,
  value,
  onChange,
  id,
  status,
  disabled,
}: {
  materialId?: number;
  value?: number | null;
  onChange?: (v: number | null) => void;
  id?: string;
  status?: 'error' | '';
  disabled?: boolean;
}) {
  const units = useQuery({
    queryKey: whKeys.units(materialId ?? 0),
    queryFn: () => stockApi.units(materialId as number),
    enabled: Boolean(materialId),
    staleTime: STALE,
  });
  const conv = units.data;
  const options = conv
    ? conv.units.map((u) => ({
        value: u.unitId,
        label:
          u.unitId === conv.baseUnitId
            ? `${u.unitName}（基本）`
            : `${u.unitName}（${ratioText(u, u.unitName, conv.baseUnitName)}）`,
      }))
    : [];
  return (
    <Select<number>
      id={id}
      status={status}
      aria-label="单位"
      value={value ?? conv?.baseUnitId ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      loading={units.isFetching}
      disabled={disabled || !materialId}
      placeholder={materialId ? '基本单位' : '先选物料'}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}

/** The active locations of one warehouse. */
export function useLocations(warehouseId?: number) {
  return useQuery({
    queryKey: whKeys.locations(warehouseId ?? 0),
    queryFn: () => stockApi.locations(warehouseId as number),
    enabled: Boolean(warehouseId),
    staleTime: STALE,
  });
}

export function LocationSelect({
  warehouseId,
  value,
  onChange,
  id,
  status,
  placeholder,
  label = '库位',
}: {
  warehouseId?: number;
  value?: number | null;
  onChange?: (v: number | null) => void;
  id?: string;
  status?: 'error' | '';
  placeholder?: string;
  label?: string;
}) {
  const locations = useLocations(warehouseId);
  const options = (locations.data ?? [])
    .filter((l) => l.status !== '0' || l.value === value)
    .map((l) => ({ value: l.value, label: l.label }));
  return (
    <Select<number>
      id={id}
      status={status}
      aria-label={label}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={locations.isFetching}
      disabled={!warehouseId}
      placeholder={warehouseId ? (placeholder ?? '请选择库位') : '先选仓库'}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}

interface DeptNode {
  id: number;
  deptName: string;
  childDept?: DeptNode[];
}

/** 领用部门: the department tree (`/api/v1/dept/listDeptTree`). */
export function DeptSelect({
  value,
  onChange,
  id,
}: {
  value?: number | null;
  onChange?: (v: number | null) => void;
  id?: string;
}) {
  const depts = useQuery({
    queryKey: ['warehouse', 'dept-tree'],
    queryFn: () => request<DeptNode[]>({ url: '/api/v1/dept/listDeptTree', method: 'POST', data: {} }),
    staleTime: STALE,
  });
  return (
    <TreeSelect
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.((v as number | undefined) ?? null)}
      placeholder="请选择领用部门"
      allowClear
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'deptName' }}
      loading={depts.isLoading}
      treeData={depts.data ?? []}
      fieldNames={{ label: 'deptName', value: 'id', children: 'childDept' }}
      style={{ width: '100%' }}
    />
  );
}

/**
 * Before saving an outbound document: the lines asking for more than is available now (fresh
 * reads), for a warning that names them. Answers [] when the stock cannot be read.
 */
export async function outboundShortages(
  client: QueryClient,
  lines: readonly Row[],
  warehouseId: number | undefined,
): Promise<(Shortage & { unitName: string })[]> {
  try {
    const entries = await Promise.all(
      lines.map(async (l) => {
        const key = availableKey(l, warehouseId);
        if (!key) return { line: {} };
        const [conv, have] = await Promise.all([
          client.fetchQuery(unitsQuery(key.materialId)),
          client.fetchQuery({ ...availableQuery(key), staleTime: 0 }),
        ]);
        const json = JSON.stringify(key);
        return { line: { key: json, need: lineBase(l, conv).quantity }, json, have };
      }),
    );
    const have = new Map(entries.filter((e) => e.json).map((e) => [e.json as string, e.have]));
    return shortages(
      entries.map((e) => e.line),
      (k) => have.get(k)?.quantity,
    ).map((s) => ({ ...s, unitName: have.get(entries[s.lines[0] - 1].json as string)?.unitName ?? '' }));
  } catch {
    return [];
  }
}
