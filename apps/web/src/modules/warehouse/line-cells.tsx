import { useQuery } from '@tanstack/react-query';
import { Select, TreeSelect } from 'antd';
import { request } from '../../platform/api/client.ts';
import { stockApi, whKeys } from './warehouse.api.ts';

const STALE = 5 * 60_000;

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
            : `${u.unitName}（=${Number(u.factor)}${conv.baseUnitName}）`,
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
