import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Modal, Space, Table } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { http } from '../api/client.ts';
import type { Page } from '../api/types.ts';
import { SearchForm } from './search-form.tsx';
import { useServerTable } from './server-table.ts';

type Row = Record<string, any> & { lineId: number };

/** The chosen lines with what the user set on each (quantity, supplier…), and a setter for one line. */
export interface Picked<C> {
  chosen: Map<number, C>;
  set: (lineId: number, patch: Partial<C>) => void;
}

/**
 * A dialog that lists the open lines of source documents (paged on the server, with a search
 * form), lets the user tick lines and adjust each, and turns the ticked ones into new documents
 * with one call: 从销售订单生成生产订单, 从请购单生成采购订单, and the like.
 */
export function LinePicker<C>(props: {
  title: string;
  /** The OK button's text for n chosen lines. */
  okText: (n: number) => string;
  /** The GET call that pages the open lines (each row carries `lineId`). */
  url: string;
  queryKey: unknown[];
  /** Form items of the search form. */
  filters: ReactNode;
  emptyText: string;
  testId: string;
  /** The search form's name (its fields' ids are `<name>_<field>`). */
  formName: string;
  /** What a line holds when it is ticked. */
  initial: (r: Row) => C;
  columns: (p: Picked<C>) => ColumnType<Row>[];
  /** Why the chosen lines cannot be submitted yet (shown by the footer), or nothing. */
  blocked?: (chosen: Map<number, C>) => boolean;
  /** Makes the documents; its answer goes to onDone. */
  submit: (chosen: Map<number, C>) => Promise<unknown>;
  onDone: (answer: unknown) => void;
  footer: (chosen: Map<number, C>) => ReactNode;
  onClose: () => void;
  /** The dialog's width; the default leaves the columns room at 1280 px and up. */
  width?: number;
}) {
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [chosen, setChosen] = useState<Map<number, C>>(new Map());
  const [error, setError] = useState<string>();
  const paged = useServerTable({ pageSize: 10 });
  const query = { ...filters, pageNum: paged.query.pageNum, pageSize: paged.query.pageSize };
  const page = useQuery({
    queryKey: [...props.queryKey, query],
    queryFn: () => http.get<Page<Row>>(props.url, query),
    placeholderData: keepPreviousData,
  });
  const submit = useMutation({
    mutationFn: () => props.submit(chosen),
    onSuccess: (answer) => {
      props.onDone(answer);
      props.onClose();
    },
    onError: (e: Error) => setError(e.message),
  });
  const pick = (rows: Row[], on: boolean) =>
    setChosen((m) => {
      const next = new Map(m);
      for (const r of rows) {
        if (on) next.set(r.lineId, props.initial(r));
        else next.delete(r.lineId);
      }
      return next;
    });
  const set = (lineId: number, patch: Partial<C>) =>
    setChosen((m) => new Map(m).set(lineId, { ...(m.get(lineId) as C), ...patch }));
  const search = (v: Record<string, unknown>) => {
    setFilters(v);
    paged.firstPage();
  };
  return (
    <Modal
      open
      width={props.width ?? 1200}
      title={props.title}
      okText={props.okText(chosen.size)}
      okButtonProps={{ disabled: !chosen.size || props.blocked?.(chosen) }}
      confirmLoading={submit.isPending}
      onOk={() => {
        setError(undefined);
        submit.mutate();
      }}
      onCancel={props.onClose}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <SearchForm name={props.formName} form={form} onSearch={search} onReset={() => search({})}>
        {props.filters}
      </SearchForm>
      <Table<Row>
        rowKey="lineId"
        size="small"
        data-testid={props.testId}
        loading={page.isFetching}
        dataSource={page.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={paged.pagination(page.data?.total ?? 0)}
        onChange={paged.onChange}
        locale={{ emptyText: props.emptyText }}
        rowSelection={{
          selectedRowKeys: [...chosen.keys()],
          preserveSelectedRowKeys: true,
          onSelect: (r, on) => pick([r], on),
          onSelectAll: (on, _all, changed) => pick(changed, on),
        }}
        columns={props.columns({ chosen, set })}
      />
      <Space style={{ marginTop: 12 }} wrap>
        {props.footer(chosen)}
      </Space>
    </Modal>
  );
}

/** The "本次…" column: the open quantity, editable once the line is ticked (never above it). */
export function quantityColumn<C extends { quantity: string | number | null }>(
  p: Picked<C>,
  o: { title: string; open: string; aria: string; format: (v: unknown) => string },
): ColumnType<Row> {
  return {
    title: o.title,
    key: 'quantity',
    width: 120,
    render: (_, r) =>
      p.chosen.has(r.lineId) ? (
        <InputNumber
          size="small"
          min={0.0001}
          max={Number(r[o.open])}
          precision={4}
          style={{ width: '100%' }}
          aria-label={`${r.docNo} ${r.materialName} ${o.aria}`}
          value={p.chosen.get(r.lineId)?.quantity as number}
          onChange={(v) => p.set(r.lineId, { quantity: v } as Partial<C>)}
        />
      ) : (
        o.format(r[o.open])
      ),
  };
}

/** The quantity a chosen line sends: empty means "all that is open". */
export const sentQuantity = (q: string | number | null) => (q == null || q === '' ? undefined : String(q));
