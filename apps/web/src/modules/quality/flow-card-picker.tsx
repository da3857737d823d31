import { FLOW_CARD_LIFECYCLE, stateLabel } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { qty } from '../warehouse/warehouse.api.ts';

interface PickCard {
  id: number;
  docNo: string;
  status: string;
  quantity: string;
  heatNo: string | null;
  partName: string | null;
  orderNo: string;
  processName: string | null;
}

/**
 * 流转卡 of one product to name on a measurement (`GET /api/v1/flow-card/pick`): open cards first,
 * newest first, each with its heat, quantity and where it waits; typing searches number and heat.
 * Disabled until the product is picked; the server refuses a card of another product.
 */
export function FlowCardPicker({
  productId,
  value,
  onChange,
  id,
}: {
  productId?: number;
  value?: number | null;
  onChange?: (v: number | null) => void;
  id?: string;
}) {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const q = useQuery({
    queryKey: ['resource', 'flow-card', 'pick', productId, keyword],
    queryFn: () =>
      http.get<PickCard[]>('/api/v1/flow-card/pick', { productId, ...(keyword ? { keyword } : {}) }),
    enabled: Boolean(productId),
  });
  const options = (q.data ?? []).map((c) => ({
    value: c.id,
    label: c.docNo,
    card: c,
  }));
  return (
    <Select<number | null>
      id={id}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value ?? null}
      onChange={(v) => onChange?.(v ?? null)}
      disabled={!productId}
      loading={q.isFetching}
      placeholder={productId ? '可选：该产品的流转卡' : '先选择产品'}
      notFoundContent={q.isFetching ? '加载中…' : '该产品没有流转卡'}
      options={options}
      optionRender={(o) => {
        const c = (o.data as { card: PickCard }).card;
        return (
          <div data-testid={`pick-card-${c.docNo}`}>
            <b>{c.docNo}</b>
            <span className="rm-muted">
              {' '}
              炉号 {c.heatNo ?? '-'} · {qty(c.quantity)} · {stateLabel(FLOW_CARD_LIFECYCLE, c.status)}
              {c.processName ? ` @${c.processName}` : ''}
            </span>
          </div>
        );
      }}
      style={{ width: '100%' }}
      aria-label="流转卡"
    />
  );
}
