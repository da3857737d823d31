import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useEffect, useState } from 'react';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { toast } from '../../platform/feedback.ts';
import type { DocKind, Row } from './warehouse.api.ts';

/** The documents that take their lines from an order: 入库 and 出库. */
type Kind = 'stock-inbound' | 'stock-outbound';
/** An order a document of a type can be made against (`GET …/source-orders`). */
type SourceOrder = ApiResult<`/api/v1/${Kind}/source-orders`>[number];

/**
 * The order of an inbound or outbound document (采购入库 / 采购退货 → 采购订单; 委外发料 / 委外入库 /
 * 委外退货 → 委外订单; 领料出库 → 生产订单): a search of the orders open for the document's type — of
 * the chosen supplier when there is one. Choosing one fills the supplier and, unless lines were typed by
 * hand, takes the order's open lines (to receive, to send, returnable), each linked to its order
 * line so posting is bounded by it. The server decides what is open; the
 * keeper needs no read permission on the orders.
 */
export function SourceOrderSelect({
  kind,
  type,
  label,
  partyField = 'supplierId',
  placeholder,
  id,
  value,
  onChange,
}: {
  kind: DocKind;
  type: string;
  /** 采购订单, 委外订单. */
  label: string;
  /** The header field of the order's party, filled from the order; null: the document has none (领料出库). */
  partyField?: string | null;
  placeholder?: string;
  /** The input id the Form.Item hands down. */
  id?: string;
  value?: number | null;
  onChange?: (v: number | null) => void;
}) {
  const form = Form.useFormInstance();
  const watched = Form.useWatch(partyField ?? 'supplierId', form) as number | undefined;
  const partyId = partyField ? watched : undefined;
  const base = kind.def.name as Kind;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const search = useQuery({
    queryKey: ['stock-source', kind.def.name, type, 'orders', keyword, partyId ?? null],
    queryFn: (): Promise<SourceOrder[]> =>
      api.get(`/api/v1/${base}/source-orders`, { query: { type, keyword: keyword || undefined, partyId } }),
    enabled: open || keyword.length > 0,
    placeholderData: keepPreviousData,
  });
  const found = search.data ?? [];
  // The chosen order (an edited draft's, or one no longer open) named by id.
  const chosen = useQuery({
    queryKey: ['stock-source', kind.def.name, type, 'ids', value],
    queryFn: (): Promise<SourceOrder[]> =>
      api.get(`/api/v1/${base}/source-orders`, { query: { type, ids: String(value) } }),
    enabled: typeof value === 'number' && !found.some((o) => o.value === value),
    staleTime: 60_000,
  });
  const options = [...found, ...(chosen.data ?? []).filter((o) => !found.some((f) => f.value === o.value))];

  const take = async (orderId: number) => {
    const order = await api.get(`/api/v1/${base}/source-lines/{id}`, {
      path: { id: orderId },
      query: { type },
    });
    if (partyField && order.partyId != null) form.setFieldValue(partyField, order.partyId);
    // Lines typed by hand stay; lines taken from an order give way to the new order's.
    const typed = ((form.getFieldValue('lines') ?? []) as (Row | undefined)[]).some(
      (l) => l?.materialId && l.sourceLineId == null,
    );
    if (typed) {
      toast.info('明细已有手工录入的物料，未带出订单明细；过账时按物料关联订单行');
      return;
    }
    if (!order.lines.length) {
      toast.warning(`${label} ${order.docNo} 没有未完成的明细`);
      return;
    }
    form.setFieldsValue({
      lines: order.lines.map((l) => ({
        materialId: l.materialId,
        materialName: l.materialName,
        unitId: l.unitId ?? undefined,
        quantity: Number(l.quantity),
        sourceLineId: l.sourceLineId,
        qualityStatus: 'qualified',
      })),
    });
  };

  return (
    <Select<number, SourceOrder>
      id={id}
      value={value ?? undefined}
      onChange={(v) => {
        onChange?.(v ?? null);
        // The client has shown a refusal (an order closed meanwhile) already.
        if (typeof v === 'number') take(v).catch(() => undefined);
      }}
      options={options}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      onOpenChange={setOpen}
      loading={search.isFetching}
      placeholder={placeholder ?? `搜索${label}编号或供应商`}
      notFoundContent={search.isFetching ? '加载中…' : `没有可选的${label}`}
      style={{ width: '100%' }}
    />
  );
}
