import { PlusOutlined } from '@ant-design/icons';
import { type FieldDef, RING_CHARACTERISTICS, ringStandardOverrideResource } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
} from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { FormModal } from '../../platform/ui/form-modal.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { LimitsTable } from './limits-table.tsx';
import { LIST_PATH, type LimitsAnswer, um } from './ring-standard.api.ts';

const customerField = ringStandardOverrideResource.fields.find((f) => f.name === 'customerId') as FieldDef;
const API = '/api/v1/ring-standard-override';

interface OverrideRow {
  id: number;
  materialId: number;
  customerId: number;
  customerName: string;
  characteristic: string;
  symbol: string;
  upperLimit: string | null;
  lowerLimit: string | null;
  reason: string;
  version: number;
  updatedAt: string;
}

interface OverrideForm {
  customerId: number;
  characteristic: string;
  upperLimit: number | null;
  lowerLimit: number | null;
  reason: string;
}

const kindOf = (code: string | undefined) => RING_CHARACTERISTICS.find((c) => c.code === code)?.kind;

/** One product's limits derived from the standard, and its customers' tightenings (add, edit, delete, with a reason). */
export function RingStandardDetailPage(_: PageProps) {
  const [search] = useSearchParams();
  const productId = idFromSearch(search);
  const may = usePermission();
  const client = useQueryClient();
  const [form] = Form.useForm<OverrideForm>();
  const [editing, setEditing] = useState<OverrideRow | null>(null);
  const [open, setOpen] = useState(false);
  const characteristic = Form.useWatch('characteristic', form);

  const limits = useQuery({
    queryKey: ['ring-standard', 'limits', productId, null],
    enabled: productId !== undefined,
    retry: false,
    queryFn: () =>
      http.get<LimitsAnswer>('/api/v1/bearing-ring-standard/limits', { productId }, { silent: true }),
  });
  const overrides = useQuery({
    queryKey: ['ring-standard', 'overrides', productId],
    enabled: productId !== undefined,
    queryFn: () => http.get<OverrideRow[]>('/api/v1/bearing-ring-standard/overrides', { productId }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['ring-standard'] });
  const remove = useMutation({
    mutationFn: (id: number) => http.delete(`${API}/delete/${id}`),
    onSuccess: () => {
      toast.success('删除成功');
      refresh();
    },
  });

  if (productId === undefined)
    return (
      <PageCard title="轴承套圈标准详情">
        <Empty description="请从轴承套圈标准页面选择产品">
          <Button onClick={() => openResourcePage(LIST_PATH)}>返回轴承套圈标准</Button>
        </Empty>
      </PageCard>
    );

  const p = limits.data?.product;
  const std = (code: string) => limits.data?.limits.find((l) => l.code === code);
  const openForm = (row: OverrideRow | null) => {
    setEditing(row);
    form.resetFields();
    if (row)
      form.setFieldsValue({
        customerId: row.customerId,
        characteristic: row.characteristic,
        upperLimit: row.upperLimit === null ? null : Number(row.upperLimit),
        lowerLimit: row.lowerLimit === null ? null : Number(row.lowerLimit),
        reason: row.reason,
      });
    setOpen(true);
  };
  const save = (v: OverrideForm) => {
    const body = {
      customerId: v.customerId,
      characteristic: v.characteristic,
      upperLimit: v.upperLimit ?? null,
      lowerLimit: kindOf(v.characteristic) === 'max' ? null : (v.lowerLimit ?? null),
      reason: v.reason,
    };
    return editing
      ? http.put(`${API}/edit/${editing.id}`, { ...body, version: editing.version })
      : http.post(`${API}/add`, { ...body, materialId: productId });
  };
  const chosen = characteristic ? std(characteristic) : undefined;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }} data-testid="ring-standard-detail">
      <PageCard
        title={p ? `${p.code} ${p.name} · 检验界限` : '产品检验界限'}
        extra={<Button onClick={() => openResourcePage(LIST_PATH)}>返回标准</Button>}
      >
        {limits.error ? (
          <Empty description={(limits.error as Error).message} />
        ) : (
          <>
            {p && (
              <Descriptions size="small" column={{ xs: 2, md: 6 }} style={{ marginBottom: 8 }}>
                <Descriptions.Item label="规格">{p.spec ?? '—'}</Descriptions.Item>
                <Descriptions.Item label="公差等级">{p.toleranceClass}</Descriptions.Item>
                <Descriptions.Item label="内径 d">{p.d} mm</Descriptions.Item>
                <Descriptions.Item label="外径 D">{p.D} mm</Descriptions.Item>
                <Descriptions.Item label="宽度 B">{p.B} mm</Descriptions.Item>
                <Descriptions.Item label="直径系列">
                  {p.diameterSeries ?? '未填'}
                  {p.capped ? '（带密封）' : ''}
                </Descriptions.Item>
              </Descriptions>
            )}
            <LimitsTable limits={limits.data?.limits ?? []} loading={limits.isFetching} />
          </>
        )}
      </PageCard>

      <PageCard
        title="客户收严要求"
        extra={
          may('quality:ringStandard:add') &&
          p && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
              新增收严
            </Button>
          )
        }
      >
        <Table<OverrideRow>
          rowKey="id"
          size="small"
          loading={overrides.isFetching}
          dataSource={overrides.data ?? []}
          pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 条` }}
          data-testid="ring-overrides"
          locale={{ emptyText: '没有客户收严要求，各客户按标准检验' }}
          columns={[
            { title: '客户', dataIndex: 'customerName', width: 180 },
            { title: '特性', dataIndex: 'symbol', width: 80 },
            {
              title: '标准(μm)',
              width: 120,
              render: (_, r) => {
                const s = std(r.characteristic);
                if (!s?.available) return '—';
                return s.kind === 'max'
                  ? `≤ ${s.standardUpper}`
                  : `${um(s.standardUpper)} / ${um(s.standardLower)}`;
              },
            },
            {
              title: '收严后(μm)',
              width: 120,
              render: (_, r) =>
                kindOf(r.characteristic) === 'max'
                  ? `≤ ${Number(r.upperLimit)}`
                  : `${um(Number(r.upperLimit))} / ${um(Number(r.lowerLimit))}`,
            },
            { title: '收严原因', dataIndex: 'reason' },
            { title: '更新时间', dataIndex: 'updatedAt', width: 160, render: (v) => formatTime(v) },
            {
              title: '操作',
              width: 120,
              render: (_, r) => (
                <Space>
                  {may('quality:ringStandard:edit') && (
                    <Button type="link" size="small" onClick={() => openForm(r)}>
                      编辑
                    </Button>
                  )}
                  {may('quality:ringStandard:delete') && (
                    <Popconfirm
                      title="确定删除该收严要求？删除后该客户按标准检验。"
                      onConfirm={() => remove.mutate(r.id)}
                    >
                      <Button type="link" size="small" danger>
                        删除
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </PageCard>

      <FormModal<OverrideForm>
        form={form}
        editing={Boolean(editing)}
        title={editing ? '编辑客户收严' : '新增客户收严'}
        open={open}
        width={640}
        name="ringOverrideForm"
        save={save}
        onSaved={refresh}
        onClose={() => setOpen(false)}
      >
        <Form.Item name="customerId" label="客户" rules={[{ required: true, message: '请选择客户' }]}>
          <RefSelect field={customerField} />
        </Form.Item>
        <Form.Item name="characteristic" label="特性" rules={[{ required: true, message: '请选择特性' }]}>
          <Select
            placeholder="请选择特性"
            options={RING_CHARACTERISTICS.map((c) => {
              const s = std(c.code);
              return {
                value: c.code,
                disabled: !s?.available,
                label: `${c.ringType === 'inner' ? '内圈' : '外圈'} ${c.symbol} ${c.label}${s?.available ? '' : '（标准无值）'}`,
              };
            })}
          />
        </Form.Item>
        <Form.Item
          name="upperLimit"
          label={kindOf(characteristic) === 'max' ? '最大值(μm)' : '上偏差(μm)'}
          extra={
            chosen?.available
              ? `标准：${chosen.kind === 'max' ? `≤ ${chosen.standardUpper}` : `${um(chosen.standardUpper)} / ${um(chosen.standardLower)}`} μm，只能收严`
              : undefined
          }
          rules={[
            { required: true, message: '请填写' },
            {
              validator: (_, v) =>
                v == null || !chosen?.available || chosen.standardUpper === null || v <= chosen.standardUpper
                  ? Promise.resolve()
                  : Promise.reject(new Error(`不得大于标准 ${chosen.standardUpper} μm`)),
            },
          ]}
        >
          <InputNumber step={0.5} precision={1} style={{ width: '100%' }} />
        </Form.Item>
        {kindOf(characteristic) !== 'max' && (
          <Form.Item
            name="lowerLimit"
            label="下偏差(μm)"
            rules={[
              { required: true, message: '请填写下偏差' },
              {
                validator: (_, v) =>
                  v == null ||
                  !chosen?.available ||
                  chosen.standardLower === null ||
                  v >= chosen.standardLower
                    ? Promise.resolve()
                    : Promise.reject(new Error(`不得小于标准 ${chosen.standardLower} μm`)),
              },
            ]}
          >
            <InputNumber step={0.5} precision={1} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label="收严原因"
          className="rm-span-2 rk-span-all"
          rules={[
            { required: true, whitespace: true, message: '请填写收严原因' },
            { max: 500, message: '不能超过 500 个字符' },
          ]}
        >
          <Input.TextArea rows={3} placeholder="如 客户图纸 XX-123 第 4 条要求" />
        </Form.Item>
      </FormModal>
    </div>
  );
}
