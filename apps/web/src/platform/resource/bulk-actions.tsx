import { type ResourceDef, type TransitionDef, transitionAction } from '@ringmes/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { request } from '../api/client.ts';
import { FieldInput, fieldRules } from './field-input.tsx';
import { recordTitle } from './fields.ts';
import type { ResourceRow } from './resource-api.ts';
import { invalidateResource } from './use-options.ts';

/** The answer of `POST …/<transition>/batch` (server: platform/resource/lifecycle.ts). */
interface BatchAnswer {
  total: number;
  succeeded: number;
  failed: number;
  results: { id: number; docNo: string | null; ok: boolean; status: string | null; message: string | null }[];
}

/** The transitions of `def` the user may run in bulk: declared, permitted, starting from some selected row's state. */
export function bulkTransitions(
  def: ResourceDef,
  may: (action: string) => boolean,
  rows: ResourceRow[],
): TransitionDef[] {
  return (def.lifecycle?.transitions ?? []).filter(
    (t) => may(transitionAction(t)) && (!rows.length || rows.some((r) => t.from.includes(r.status))),
  );
}

/**
 * The selection bar of a kit list (issue 41 §6): the transitions the user may run on the chosen
 * rows, each under one confirmation (asking once for a reason or input it needs); the server runs
 * it row by row and the dialog then shows 成功 n 条，失败 m 条 with each refused row's reason.
 */
export function BulkActions({
  def,
  rows,
  may,
  extra,
  onClear,
  onDone,
}: {
  def: ResourceDef;
  /** The selected rows. */
  rows: ResourceRow[];
  may: (action: string) => boolean;
  /** Buttons beside the transitions (导出所选, 批量删除). */
  extra?: React.ReactNode;
  onClear: () => void;
  onDone?: () => void;
}) {
  const client = useQueryClient();
  const [asking, setAsking] = useState<TransitionDef>();
  const [answer, setAnswer] = useState<BatchAnswer>();
  const [form] = Form.useForm<Record<string, any>>();
  const run = useMutation({
    mutationFn: ({ t, values }: { t: TransitionDef; values: Record<string, any> }) =>
      request<BatchAnswer>({
        url: `/api/v1/${def.name}/${t.name}/batch`,
        method: 'POST',
        data: { ...values, rows: rows.map((r) => ({ id: r.id, version: r.version })) },
      }),
    onSuccess: (a) => {
      setAnswer(a);
      invalidateResource(client, def.name);
      onDone?.();
    },
  });
  const transitions = bulkTransitions(def, may, rows);
  const close = () => {
    if (answer) onClear();
    setAsking(undefined);
    setAnswer(undefined);
    form.resetFields();
  };
  const titleOf = (id: number, docNo: string | null) => {
    const row = rows.find((r) => r.id === id);
    return docNo ?? (row ? recordTitle(def, row) : `#${id}`);
  };

  return (
    <div className="rk-bulk-bar" data-testid="bulk-bar">
      <span className="rk-bulk-count">已选 {rows.length} 条</span>
      <Space size={8} wrap>
        {transitions.map((t) => (
          <Button
            key={t.name}
            size="small"
            type={t.tone === 'primary' ? 'primary' : 'default'}
            danger={t.tone === 'danger'}
            onClick={() => setAsking(t)}
            data-testid={`bulk-${t.name}`}
          >
            批量{t.label}
          </Button>
        ))}
        {extra}
        <Button size="small" type="link" onClick={onClear}>
          取消选择
        </Button>
      </Space>
      <Modal
        title={asking ? `批量${asking.label}${def.label}` : undefined}
        open={Boolean(asking)}
        width={answer ? 640 : 480}
        okText={answer ? '关闭' : asking?.label}
        cancelText="取消"
        cancelButtonProps={{ style: answer ? { display: 'none' } : undefined }}
        okButtonProps={{ danger: !answer && asking?.tone === 'danger', loading: !answer && run.isPending }}
        onCancel={close}
        onOk={() => {
          if (answer || !asking) return close();
          form
            .validateFields()
            .then((values) => run.mutateAsync({ t: asking, values }))
            .catch(() => undefined);
        }}
        destroyOnHidden
        data-testid="bulk-dialog"
      >
        {answer ? (
          <>
            <Alert
              type={answer.failed ? (answer.succeeded ? 'warning' : 'error') : 'success'}
              showIcon
              message={`成功 ${answer.succeeded} 条，失败 ${answer.failed} 条`}
              style={{ marginBottom: 12 }}
              data-testid="bulk-summary"
            />
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              scroll={{ y: 320 }}
              dataSource={[...answer.results].sort((a, b) => Number(a.ok) - Number(b.ok))}
              columns={[
                { key: 'doc', title: def.label, width: 180, render: (_, r) => titleOf(r.id, r.docNo) },
                {
                  key: 'ok',
                  title: '结果',
                  width: 80,
                  render: (_, r) => (r.ok ? <Tag color="green">成功</Tag> : <Tag color="red">失败</Tag>),
                },
                { key: 'message', title: '原因', render: (_, r) => r.message ?? '' },
              ]}
              data-testid="bulk-results"
            />
          </>
        ) : (
          <>
            <p>
              确定{asking?.label}选中的 {rows.length} 条{def.label}吗？每条单独处理，不符合条件的会列出原因。
            </p>
            {asking?.confirm && <p>{asking.confirm}</p>}
            <Form form={form} layout="vertical">
              {asking?.input?.map((f) => (
                <Form.Item key={f.name} name={f.name} label={f.label} tooltip={f.help} rules={fieldRules(f)}>
                  <FieldInput field={f} />
                </Form.Item>
              ))}
              {asking?.reason && (
                <Form.Item
                  name="reason"
                  label={`${asking.label}原因`}
                  rules={[{ required: true, whitespace: true, message: `请填写${asking.label}原因` }]}
                >
                  <Input.TextArea rows={3} maxLength={500} showCount />
                </Form.Item>
              )}
            </Form>
          </>
        )}
      </Modal>
    </div>
  );
}
