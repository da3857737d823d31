import { SaveOutlined, UploadOutlined } from '@ant-design/icons';
import {
  measurementSubgroupResource as def,
  MAX_SUBGROUP_SIZE,
  MEASURE_CHARACTERISTICS,
  type ResourceDef,
  takesReadingSet,
} from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { resourceKeys } from '../../platform/resource/resource-api.ts';
import { ResourceList } from '../../platform/resource/resource-list.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { useUser } from '../../platform/session.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { FlowCardPicker } from './flow-card-picker.tsx';
import { MeasureImportModal } from './measure-import.tsx';
import { RingReadingsEntry } from './ring-geometry.tsx';

/** The subgroup's header: what every value of the grid was measured on. */
export interface EntryHeader {
  productId?: number;
  characteristic: string;
  equipmentId?: number;
  operatorId?: number;
  measuredAt?: Dayjs;
  flowCardId?: number | null;
  lsl?: number | null;
  usl?: number | null;
  specReason?: string;
  subgroupSize: number;
}

/** The limits the ring standard gives the picked product and characteristic (`…/spec`). */
interface StandardSpec {
  lsl: string;
  usl: string;
  sourceText: string;
  symbol: string;
  nominal: string;
  lowerUm: number;
  upperUm: number;
}

/** μm with its sign: −11, +0, 2.5 → +2.5. */
const signedUm = (v: number) => (v > 0 ? `+${v}` : v === 0 ? '0' : `−${Math.abs(v)}`);

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const field = (name: string) => def.fields.find((f) => f.name === name) as ResourceDef['fields'][number];

/**
 * 外径测量: the header of a subgroup (product, characteristic, machine, operator, time, flow card,
 * specification limits) and a grid of its values, typed from the keyboard (Enter moves down; on
 * the last row it saves), values outside the limits in red as typed; the gauge import; the list
 * of recorded subgroups below.
 */
export function MeasureEntryPage(props: ResourcePageProps) {
  const can = usePermission();
  const user = useUser();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EntryHeader>();
  const size = Form.useWatch('subgroupSize', form) ?? 5;
  const lsl = Form.useWatch('lsl', form);
  const usl = Form.useWatch('usl', form);
  const productId = Form.useWatch('productId', form);
  const characteristic = Form.useWatch('characteristic', form);
  // The standard's limits as soon as product and characteristic are picked: filled in, shown beside
  // the grid, and each value marked against them as it is typed.
  const spec = useQuery({
    queryKey: ['measurement-spec', productId, characteristic],
    queryFn: () =>
      http.get<StandardSpec | null>('/api/v1/measurement-subgroup/spec', { productId, characteristic }),
    enabled: Boolean(productId && characteristic),
    staleTime: 60_000,
  });
  const standard = productId && characteristic ? (spec.data ?? undefined) : undefined;
  const filled = useRef<{ lsl: number; usl: number }>(undefined);
  useEffect(() => {
    if (spec.isFetching) return;
    const was = filled.current;
    if (standard) {
      filled.current = { lsl: Number(standard.lsl), usl: Number(standard.usl) };
      form.setFieldsValue({ ...filled.current, specReason: undefined });
    } else if (was && form.getFieldValue('lsl') === was.lsl && form.getFieldValue('usl') === was.usl) {
      // Limits of the previous product's standard do not carry over to one without.
      filled.current = undefined;
      form.setFieldsValue({ lsl: null, usl: null });
    }
  }, [standard, spec.isFetching, form]);
  const overridden =
    standard !== undefined &&
    (lsl != null || usl != null) &&
    (lsl !== Number(standard.lsl) || usl !== Number(standard.usl));
  const [values, setValues] = useState<string[]>(() => Array(5).fill(''));
  const [importing, setImporting] = useState(false);
  // Reading sets per ring (points × planes, issue 38 §3) for the characteristics that take them.
  const [bySet, setBySet] = useState(false);
  const readingSets = bySet && takesReadingSet(characteristic ?? '');
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const canAdd = can(`${def.permission}:add`);
  // Flow cards are production documents: their readers include measurement entry (the server's
  // FLOW_CARD_READERS), so the inspector names the card of the rings he measured.
  const seesCards = can(['production:order:list', `${def.permission}:list`, `${def.permission}:add`]);

  const slots = useMemo(() => Array.from({ length: size }, (_, i) => `piece-${i + 1}`), [size]);
  const cells = useMemo(() => Array.from({ length: size }, (_, i) => values[i] ?? ''), [values, size]);
  const numbers = cells.filter((v) => NUMBER.test(v.trim())).map(Number);
  const mean = numbers.length ? numbers.reduce((s, v) => s + v, 0) / numbers.length : undefined;
  const range = numbers.length ? Math.max(...numbers) - Math.min(...numbers) : undefined;
  const outside = (v: string) =>
    NUMBER.test(v.trim()) && ((lsl != null && Number(v) < lsl) || (usl != null && Number(v) > usl));

  const save = useMutation({
    mutationFn: async () => {
      const header = await form.validateFields();
      const bad = cells.findIndex((v) => !NUMBER.test(v.trim()));
      if (bad >= 0) {
        inputs.current[bad]?.focus();
        throw new Error(`第 ${bad + 1} 个测量值${cells[bad].trim() ? '不是数字' : '未填写'}`);
      }
      return http.post<{ id: number }>('/api/v1/measurement-subgroup/add', {
        productId: header.productId,
        characteristic: header.characteristic,
        equipmentId: header.equipmentId,
        operatorId: header.operatorId,
        measuredAt: (header.measuredAt ?? dayjs()).format('YYYY-MM-DD HH:mm:ss'),
        flowCardId: header.flowCardId ?? null,
        lsl: header.lsl ?? null,
        usl: header.usl ?? null,
        ...(overridden ? { specReason: header.specReason } : {}),
        values: cells.map((v) => ({ value: v.trim() })),
      });
    },
    onSuccess: () => {
      toast.success('子组已保存');
      setValues(Array(size).fill(''));
      form.setFieldValue('measuredAt', dayjs());
      queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.name) });
      setTimeout(() => inputs.current[0]?.focus(), 0);
    },
    onError: (e) => {
      if (e instanceof ApiError && e.shown) return;
      if ((e as { errorFields?: unknown }).errorFields) return;
      toast.error(e instanceof Error ? e.message : String(e));
    },
  });

  const onKey = (i: number, e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === 'ArrowDown') {
      e.preventDefault();
      if (i + 1 < size) inputs.current[i + 1]?.focus();
      else if (e.key === 'Enter') save.mutate();
    } else if (e.key === 'ArrowUp' && i > 0) {
      e.preventDefault();
      inputs.current[i - 1]?.focus();
    }
  };

  return (
    <div className="rk-list-page" data-testid="page-measurement-subgroup">
      {canAdd && (
        <PageCard
          title="子组录入"
          extra={
            can(`${def.permission}:import`) && (
              <Button
                icon={<UploadOutlined />}
                onClick={() => setImporting(true)}
                data-testid="measure-import"
              >
                导入量仪数据
              </Button>
            )
          }
        >
          <Form<EntryHeader>
            form={form}
            layout="vertical"
            name="measure-entry"
            // A card is of the measured product: another product drops it.
            onValuesChange={(changed) => {
              if ('productId' in changed) form.setFieldValue('flowCardId', null);
            }}
            initialValues={{
              characteristic: 'outside-diameter',
              subgroupSize: 5,
              measuredAt: dayjs(),
              operatorId: user?.userId,
            }}
          >
            <Row gutter={16}>
              <Col xs={24} md={8} lg={6}>
                <Form.Item name="productId" label="产品" rules={[{ required: true, message: '请选择产品' }]}>
                  <RefSelect field={field('productId')} placeholder="被测套圈或轴承" />
                </Form.Item>
              </Col>
              <Col xs={12} md={8} lg={4}>
                <Form.Item
                  name="characteristic"
                  label="测量特性"
                  rules={[{ required: true, message: '请选择测量特性' }]}
                >
                  <Select options={MEASURE_CHARACTERISTICS.map(({ value, label }) => ({ value, label }))} />
                </Form.Item>
              </Col>
              <Col xs={12} md={8} lg={5}>
                <Form.Item
                  name="equipmentId"
                  label="机台"
                  rules={[{ required: true, message: '请选择机台' }]}
                >
                  <RefSelect field={field('equipmentId')} />
                </Form.Item>
              </Col>
              <Col xs={12} md={8} lg={4}>
                <Form.Item
                  name="operatorId"
                  label="操作工"
                  rules={[{ required: true, message: '请选择操作工' }]}
                >
                  <RefSelect field={field('operatorId')} />
                </Form.Item>
              </Col>
              <Col xs={12} md={8} lg={5}>
                <Form.Item
                  name="measuredAt"
                  label="测量时间"
                  rules={[{ required: true, message: '请选择测量时间' }]}
                >
                  <DatePicker showTime style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              {seesCards && (
                <Col xs={12} md={8} lg={6}>
                  <Form.Item name="flowCardId" label="流转卡" tooltip={field('flowCardId').help}>
                    <FlowCardPicker productId={productId} />
                  </Form.Item>
                </Col>
              )}
              <Col xs={8} md={5} lg={4}>
                <Form.Item name="lsl" label="下规格限 LSL">
                  <InputNumber style={{ width: '100%' }} step={0.001} precision={4} />
                </Form.Item>
              </Col>
              <Col xs={8} md={5} lg={4}>
                <Form.Item
                  name="usl"
                  label="上规格限 USL"
                  dependencies={['lsl']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_, v) =>
                        v == null || getFieldValue('lsl') == null || v > getFieldValue('lsl')
                          ? Promise.resolve()
                          : Promise.reject(new Error('上规格限必须大于下规格限')),
                    }),
                  ]}
                >
                  <InputNumber style={{ width: '100%' }} step={0.001} precision={4} />
                </Form.Item>
              </Col>
              <Col xs={8} md={4} lg={3}>
                <Form.Item
                  name="subgroupSize"
                  label="子组容量"
                  tooltip="每组测量的套圈数，通常 3–5；1 为单值（I-MR 图）"
                >
                  <InputNumber min={1} max={MAX_SUBGROUP_SIZE} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              {overridden && (
                <Col xs={24} md={10} lg={9}>
                  <Form.Item
                    name="specReason"
                    label="规格限覆盖理由"
                    tooltip={field('specReason').help}
                    rules={[
                      { required: true, whitespace: true, message: '规格限与标准不同，请填写覆盖理由' },
                    ]}
                  >
                    <Input maxLength={200} placeholder="如：客户图纸收严" />
                  </Form.Item>
                </Col>
              )}
            </Row>
          </Form>
          {standard ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="measure-spec"
              title={`标准规格限 ${standard.lsl} ~ ${standard.usl} mm（${standard.symbol} ${standard.nominal} ${signedUm(standard.lowerUm)}/${signedUm(standard.upperUm)} μm）`}
              description={standard.sourceText}
            />
          ) : (
            productId &&
            spec.data === null && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                data-testid="measure-spec"
                title="该产品的此测量特性没有标准规格限：请填写 LSL/USL（可不填，不填则不计算 Cp/Cpk）"
              />
            )
          )}
          {takesReadingSet(characteristic ?? '') && (
            <Space style={{ marginBottom: 12 }}>
              <Switch checked={bySet} onChange={setBySet} data-testid="measure-by-set" />
              <span>按读数组录入（每件多截面、多点，计算 d_mp、V_dsp、V_dmp 并按 ISO 492 判定）</span>
            </Space>
          )}
          {readingSets ? (
            <RingReadingsEntry
              header={form}
              productId={productId}
              characteristic={characteristic}
              size={size}
              overridden={overridden}
              onSaved={() => queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.name) })}
            />
          ) : (
            <>
              <div className="rm-measure-grid" data-testid="measure-grid">
                {slots.map((slot, i) => {
                  const v = cells[i];
                  return (
                    <div
                      key={slot}
                      style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 6 }}
                    >
                      <span style={{ width: 56, color: '#8c8c8c' }}>第 {i + 1} 件</span>
                      <Input
                        ref={(el) => {
                          inputs.current[i] = el?.input ?? null;
                        }}
                        value={v}
                        inputMode="decimal"
                        autoComplete="off"
                        data-testid={`measure-value-${i}`}
                        status={v.trim() && !NUMBER.test(v.trim()) ? 'error' : outside(v) ? 'warning' : ''}
                        style={{ width: 180, ...(outside(v) ? { color: '#cf1322', fontWeight: 600 } : {}) }}
                        onChange={(e) => setValues((old) => Object.assign([...old], { [i]: e.target.value }))}
                        onKeyDown={(e) => onKey(i, e)}
                      />
                      {standard && NUMBER.test(v.trim()) && (
                        <span className="rm-muted" data-testid={`measure-deviation-${i}`}>
                          {signedUm(Math.round((Number(v) - Number(standard.nominal)) * 10_000) / 10)} μm
                        </span>
                      )}
                      {outside(v) && <Tag color="red">超差</Tag>}
                    </div>
                  );
                })}
              </div>
              <Space size={24} style={{ marginTop: 8 }}>
                <span>
                  均值：<b data-testid="measure-mean">{mean === undefined ? '-' : mean.toFixed(4)}</b>
                </span>
                <span>
                  极差：<b>{range === undefined ? '-' : range.toFixed(4)}</b>
                </span>
                <span data-testid="measure-limits">
                  规格限：
                  <b>
                    {lsl == null && usl == null
                      ? '未设'
                      : `${lsl?.toFixed(4) ?? '—'} ~ ${usl?.toFixed(4) ?? '—'}`}
                  </b>
                </span>
                <Button
                  type="primary"
                  icon={<SaveOutlined />}
                  loading={save.isPending}
                  onClick={() => save.mutate()}
                  data-testid="measure-save"
                >
                  保存子组
                </Button>
                <span className="rm-muted">回车跳到下一件，最后一件回车即保存</span>
              </Space>
            </>
          )}
        </PageCard>
      )}
      <ResourceList def={props.def} hiddenFilters={seesCards ? [] : ['flowCardId']} />
      {importing && (
        <MeasureImportModal
          header={form}
          onClose={() => setImporting(false)}
          onDone={() => queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.name) })}
        />
      )}
    </div>
  );
}
