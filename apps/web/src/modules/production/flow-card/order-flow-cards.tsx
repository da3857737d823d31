import { MergeCellsOutlined, PlusOutlined, ScissorOutlined, TagOutlined } from '@ant-design/icons';
import type { PrintDocTypeName } from '@ringmes/domain';
import { FLOW_CARD_ORIGINS, precisionRule, precisionStep } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import { TemplatePrint } from '../../../platform/print/template-print.tsx';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { unitPrecisionRule, useCountingUnit } from '../../../platform/resource/unit-precision.tsx';
import { invalidateResource } from '../../../platform/resource/use-options.ts';
import { qty } from '../../warehouse/warehouse.api.ts';
import { currentStep, type FlowCard, flowCardApi, flowCardKeys } from './flow-card.api.ts';
import { FlowCardDrawer, StatusTag } from './flow-card-detail.tsx';
import { FlowCardScan } from './flow-card-scan.tsx';

const OPENABLE = ['released', 'producing'];
const DISPATCH = 'production:order:dispatch';

/** Decimal strings added without binary floating point (4 places, as quantities are stored). */
const sum4 = (xs: (string | number | null | undefined)[]) =>
  xs.reduce<bigint>((s, x) => s + BigInt(Math.round(Number(x ?? 0) * 10_000)), 0n);
const fromUnits = (n: bigint) => (Number(n) / 10_000).toString();

/**
 * 流转卡 of a production order (a tab of its detail): the cards with state, current step and
 * heat number; 开卡 (batch size, 炉号), 拆分 a card, 合并 the selected ones, and the scan field.
 * The card number opens its detail drawer.
 */
export function OrderFlowCards({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const client = useQueryClient();
  const [openId, setOpenId] = useState<number>();
  const [opening, setOpening] = useState(false);
  const [splitting, setSplitting] = useState<FlowCard>();
  const [selected, setSelected] = useState<number[]>([]);
  const [labels, setLabels] = useState<PrintDocTypeName>();
  const cards = useQuery({
    queryKey: flowCardKeys.ofOrder(order.id),
    queryFn: () => flowCardApi.ofOrder(order.id),
  });
  const list = cards.data ?? [];
  const covered = sum4(
    list.filter((c) => c.origin === 'open' && c.status !== 'closed').map((c) => c.quantity),
  );
  const remaining = BigInt(Math.round(Number(order.quantity) * 10_000)) - covered;
  const mayWrite = can(DISPATCH);
  const stepName = (seq: number | null) =>
    (order.steps as ResourceRow[] | undefined)?.find((s) => s.seq === seq)?.processName ?? '';
  const refresh = () => {
    invalidateResource(client, 'flow-card');
    setSelected([]);
  };
  const merge = useMutation({
    mutationFn: () => flowCardApi.merge(selected),
    onSuccess: (r) => {
      toast.success(`已合并为流转卡 ${r.card.docNo}，数量 ${qty(r.card.quantity)}`);
      refresh();
    },
  });

  if (order.status === 'draft') {
    return <Alert type="info" showIcon title="订单下达后按批量开流转卡。" />;
  }
  return (
    <div data-testid="order-flow-cards">
      <Space style={{ marginBottom: 8 }} wrap>
        {mayWrite && OPENABLE.includes(order.status) && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={remaining <= 0n}
            onClick={() => setOpening(true)}
          >
            开卡
          </Button>
        )}
        {mayWrite && (
          <Button
            icon={<MergeCellsOutlined />}
            disabled={selected.length < 2}
            loading={merge.isPending}
            onClick={() =>
              Modal.confirm({
                title: `合并所选 ${selected.length} 张流转卡？`,
                content: '合并后原卡结束（已合并），数量转入一张新卡。只有同一道工序、尚未开工的卡可以合并。',
                okText: '合并',
                onOk: () => merge.mutateAsync(),
              })
            }
          >
            合并{selected.length ? `（${selected.length}）` : ''}
          </Button>
        )}
        {/* Labels of the selected cards, or of every card of the order when none is selected. */}
        <Button icon={<TagOutlined />} disabled={!list.length} onClick={() => setLabels('flow-card')}>
          打印标签{selected.length ? `（${selected.length}）` : ''}
        </Button>
        <Button icon={<TagOutlined />} disabled={!list.length} onClick={() => setLabels('finished-box')}>
          打印箱标签{selected.length ? `（${selected.length}）` : ''}
        </Button>
        <Tag color={remaining > 0n ? 'orange' : 'green'} data-testid="flow-card-coverage">
          已开卡 {qty(fromUnits(covered))} / 订单 {qty(order.quantity)}
        </Tag>
        <FlowCardScan onFound={(c) => setOpenId(c.id)} />
      </Space>
      {labels && (
        <TemplatePrint
          docType={labels}
          records={{ ids: selected.length ? selected : list.map((c) => c.id) }}
          onClose={() => setLabels(undefined)}
        />
      )}
      <Table<FlowCard>
        rowKey="id"
        size="small"
        bordered
        loading={cards.isFetching}
        dataSource={list}
        pagination={list.length > 50 ? { pageSize: 50, size: 'small' } : false}
        scroll={{ x: 'max-content' }}
        rowSelection={
          mayWrite
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(Number)),
                getCheckboxProps: (c) => ({ disabled: c.status !== 'open', 'aria-label': `选择 ${c.docNo}` }),
              }
            : undefined
        }
        locale={{ emptyText: '尚未开卡' }}
        columns={[
          {
            title: '卡号',
            dataIndex: 'docNo',
            width: 160,
            render: (v, c) => (
              <Typography.Link onClick={() => setOpenId(c.id)} style={{ fontFamily: 'monospace' }}>
                {v}
              </Typography.Link>
            ),
          },
          { title: '状态', dataIndex: 'status', width: 80, render: (v) => <StatusTag status={v} /> },
          { title: '数量', dataIndex: 'quantity', width: 90, align: 'right', render: qty },
          {
            title: '当前工序',
            dataIndex: 'currentSeq',
            width: 150,
            render: (v, c) => (c.status === 'open' && v ? `${v} ${stepName(v)}` : '-'),
          },
          { title: '炉号', dataIndex: 'heatNo', width: 120 },
          { title: '零件/套圈', dataIndex: 'partName', width: 90 },
          {
            title: '来源',
            dataIndex: 'origin',
            width: 70,
            render: (v) => {
              const o = FLOW_CARD_ORIGINS.find((x) => x.value === v);
              return <Tag color={o?.color}>{o?.label ?? v}</Tag>;
            },
          },
          { title: '开卡时间', dataIndex: 'createdAt', width: 150, render: (v) => formatTime(v) },
          {
            title: '操作',
            key: 'actions',
            width: 120,
            fixed: 'right',
            render: (_, c) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setOpenId(c.id)}>
                  详情
                </Button>
                {mayWrite && c.status === 'open' && (
                  <Button type="link" size="small" icon={<ScissorOutlined />} onClick={() => setSplitting(c)}>
                    拆分
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <OpenModal
        order={order}
        remaining={fromUnits(remaining)}
        open={opening}
        onClose={() => setOpening(false)}
        onDone={refresh}
      />
      <SplitModal card={splitting} onClose={() => setSplitting(undefined)} onDone={refresh} />
      <FlowCardDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </div>
  );
}

function OpenModal({
  order,
  remaining,
  open,
  onClose,
  onDone,
}: {
  order: ResourceRow;
  remaining: string;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ batchSize: number; heatNo?: string; partName?: string }>();
  const batch = Form.useWatch('batchSize', form);
  // A card counts pieces of the order's product, in its unit (no cards of 100.5 套).
  const client = useQueryClient();
  const unit = useCountingUnit(order.productId, undefined);
  const run = useMutation({
    mutationFn: (v: { batchSize: number; heatNo?: string; partName?: string }) =>
      flowCardApi.open(order.id, {
        batchSize: String(v.batchSize),
        ...(v.heatNo ? { heatNo: v.heatNo } : {}),
        ...(v.partName ? { partName: v.partName } : {}),
      }),
    onSuccess: (r) => {
      toast.success(`已开流转卡 ${r.cards.length} 张`);
      form.resetFields();
      onClose();
      onDone();
    },
  });
  const count = batch && Number(batch) > 0 ? Math.ceil(Number(remaining) / Number(batch)) : 0;
  return (
    <Modal
      title={`开流转卡：${order.docNo}`}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="开卡"
      confirmLoading={run.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        待开卡数量 {qty(remaining)}，按每卡数量分批，最后一张为余数；每张卡带订单冻结工艺路线的全部工序。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" name="flow-card-open" onFinish={(v) => run.mutate(v)}>
        <Form.Item
          name="batchSize"
          label="每卡数量"
          rules={[
            { required: true, message: '请填写每卡数量' },
            unitPrecisionRule('每卡数量', client, () => ({ materialId: order.productId })),
          ]}
          extra={count ? `将开 ${count} 张卡` : undefined}
        >
          <InputNumber
            min={0.0001}
            precision={unit ? undefined : 4}
            step={unit ? Number(precisionStep(unit.precision)) : undefined}
            placeholder={unit ? precisionRule(unit.precision) : undefined}
            style={{ width: '100%' }}
            aria-label="每卡数量"
          />
        </Form.Item>
        <Form.Item name="heatNo" label="炉号" extra="原材料（钢材）批次的炉号，用于质量追溯">
          <Input maxLength={100} aria-label="炉号" />
        </Form.Item>
        <Form.Item name="partName" label="零件/套圈">
          <Input maxLength={50} placeholder="如 内圈、外圈" aria-label="零件/套圈" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SplitModal({
  card,
  onClose,
  onDone,
}: {
  card: FlowCard | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ parts: { quantity?: number }[] }>();
  const full = useQuery({
    queryKey: flowCardKeys.card(card?.id),
    queryFn: () => flowCardApi.card(card?.id as number),
    enabled: Boolean(card),
  });
  const step = full.data ? currentStep(full.data) : undefined;
  const onHand = step?.inputQuantity ?? card?.quantity ?? '0';
  const parts = Form.useWatch('parts', form) ?? [];
  const client = useQueryClient();
  const unit = useCountingUnit(card?.productId, undefined);
  const total = sum4(parts.map((p) => p?.quantity));
  const run = useMutation({
    mutationFn: (v: { parts: { quantity?: number }[] }) =>
      flowCardApi.split(
        card?.id as number,
        v.parts.map((p) => String(p.quantity)),
      ),
    onSuccess: (r) => {
      toast.success(`已拆分为 ${r.children.map((c) => `${c.docNo}（${qty(c.quantity)}）`).join('、')}`);
      onClose();
      onDone();
    },
  });
  // Two parts: the second follows the first (200 → 120 + 80).
  const follow = (changed: Partial<{ parts: { quantity?: number }[] }>) => {
    const list = form.getFieldValue('parts') as { quantity?: number }[];
    if (list.length !== 2 || changed.parts?.[0]?.quantity === undefined) return;
    const rest = Number(fromUnits(BigInt(Math.round(Number(onHand) * 10_000)) - sum4([list[0].quantity])));
    if (rest > 0) form.setFieldValue(['parts', 1, 'quantity'], rest);
  };
  return (
    <Modal
      title={card ? `拆分流转卡：${card.docNo}` : '拆分流转卡'}
      open={Boolean(card)}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="拆分"
      confirmLoading={run.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        卡上当前数量 {qty(onHand)}
        {step ? `（第 ${step.seq} 道 ${step.processName ?? ''}）` : ''}
        。拆分后原卡结束（已拆分），各新卡带剩余工序继续流转；各卡数量之和须等于当前数量。
      </Typography.Paragraph>
      <Form
        form={form}
        name="flow-card-split"
        initialValues={{ parts: [{}, {}] }}
        onValuesChange={follow}
        onFinish={(v) => run.mutate(v)}
      >
        <Form.List name="parts">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, i) => (
                <Space key={f.key} align="baseline">
                  <Form.Item
                    name={[f.name, 'quantity']}
                    label={`新卡 ${i + 1}`}
                    rules={[
                      { required: true, message: '请填写数量' },
                      unitPrecisionRule('拆分数量', client, () => ({ materialId: card?.productId })),
                    ]}
                  >
                    <InputNumber
                      min={0.0001}
                      precision={unit ? undefined : 4}
                      step={unit ? Number(precisionStep(unit.precision)) : undefined}
                      placeholder={unit ? precisionRule(unit.precision) : undefined}
                      aria-label={`新卡 ${i + 1} 数量`}
                    />
                  </Form.Item>
                  {fields.length > 2 && (
                    <Button type="link" onClick={() => remove(f.name)}>
                      删除
                    </Button>
                  )}
                </Space>
              ))}
              <Button
                type="dashed"
                onClick={() => add({})}
                icon={<PlusOutlined />}
                disabled={fields.length >= 50}
              >
                再加一张
              </Button>
            </>
          )}
        </Form.List>
        <div style={{ marginTop: 8 }}>
          合计 {qty(fromUnits(total))} / {qty(onHand)}
          {total !== BigInt(Math.round(Number(onHand) * 10_000)) && (
            <Typography.Text type="warning"> （与当前数量不一致）</Typography.Text>
          )}
        </div>
      </Form>
    </Modal>
  );
}
