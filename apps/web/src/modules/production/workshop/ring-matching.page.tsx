import { CheckOutlined, ExperimentOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Col,
  Empty,
  Form,
  InputNumber,
  Row,
  Select,
  Space,
  Statistic,
  Switch,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import type { PageProps } from '../../../platform/page.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';

/** Clearance groups as ISO 5753-1 / GB/T 4604.1 name them (domain CLEARANCE_GROUPS). */
const CLEARANCE = [
  { value: 'C2', label: 'C2（小于基本组）' },
  { value: 'CN', label: 'CN（基本组）' },
  { value: 'C3', label: 'C3（大于基本组）' },
  { value: 'C4', label: 'C4' },
  { value: 'C5', label: 'C5' },
];
const GRADES = [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5];
const signed = (v: number) => (v > 0 ? `+${v}` : String(v));

interface BearingOption {
  id: number;
  code: string;
  name: string;
  innerRings: number;
  outerRings: number;
}
interface Group {
  label: string;
  count: number;
}
interface SetRow {
  lineNo: number;
  innerGroup: string;
  outerGroup: string;
  ballGradeUm: number;
  ballMm: number;
  clearanceLowUm: number;
  clearanceHighUm: number;
  count: number;
  innerLots: { cardNo: string; count: number }[];
  outerLots: { cardNo: string; count: number }[];
}
interface Proposal {
  bearing: {
    code: string;
    name: string;
    boreMm: number;
    ballMm: number;
    inner: { code: string };
    outer: { code: string };
  };
  clearanceGroup: string;
  clearance: { min: number; max: number };
  groupWidthUm: number;
  /** Balls in stock by grade as given, the bearings they fill and the sets using them. */
  ballStock: { gradeUm: number; quantity: number; sets: number; used: number }[] | null;
  offered: { inner: number; outer: number };
  assembled: number;
  yieldPercent: number | null;
  sets: SetRow[];
  innerGroups: Group[];
  outerGroups: Group[];
  leftover: { inner: Group[]; outer: Group[] };
}
interface Params {
  bearingId: number;
  clearanceGroup: string;
  groupWidthUm: number;
  ballGradesUm: number[];
  ballStock?: { gradeUm: number; quantity: number }[];
}
/** The form: the stock of each grade (粒) when 按钢球库存 is on. */
interface FormValues extends Omit<Params, 'ballStock'> {
  limitBalls?: boolean;
  balls?: Record<string, number | null>;
}

const lots = (l: { cardNo: string; count: number }[]) => l.map((x) => `${x.cardNo}×${x.count}`).join('、');

function GroupTable({ title, groups, testId }: { title: string; groups: Group[]; testId: string }) {
  return (
    <Table<Group>
      data-testid={testId}
      size="small"
      rowKey="label"
      title={() => title}
      dataSource={groups}
      pagination={false}
      scroll={{ y: 240 }}
      columns={[
        { title: '尺寸组（mm）', dataIndex: 'label' },
        { title: '件数', dataIndex: 'count', width: 80, align: 'right' },
      ]}
    />
  );
}

/**
 * 装配车间 › 选配 (issue 38 §4): for a bearing and clearance group, the measured rings in stock
 * sorted into size groups by groove diameter, the sets proposed (inner group × outer group × ball
 * grade, clearance inside the group's limits), the rings left over, and 接受方案 for a bearing card.
 */
export function RingMatchingPage(_: PageProps) {
  const can = usePermission();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [params, setParams] = useState<Params>();
  const [cardId, setCardId] = useState<number>();
  const [reportId, setReportId] = useState<number>();
  const bearings = useQuery({
    queryKey: ['ring-matching', 'bearings'],
    queryFn: () => http.get<BearingOption[]>('/api/v1/ring-matching/bearings'),
  });
  const proposal = useQuery({
    queryKey: ['ring-matching', 'propose', params],
    enabled: !!params,
    queryFn: () => http.post<Proposal>('/api/v1/ring-matching/propose', params),
  });
  const cards = useQuery({
    queryKey: ['ring-matching', 'cards', params?.bearingId],
    enabled: !!params?.bearingId,
    queryFn: () =>
      http.get<{ id: number; docNo: string; quantity: number; matched: number; orderNo: string }[]>(
        '/api/v1/ring-matching/cards',
        { bearingId: params?.bearingId },
      ),
  });
  const reports = useQuery({
    queryKey: ['ring-matching', 'reports', cardId],
    enabled: !!cardId,
    queryFn: () =>
      http.get<{ id: number; docNo: string; reportDate: string; goodQuantity: number }[]>(
        '/api/v1/ring-matching/reports',
        { flowCardId: cardId },
      ),
  });
  const history = useQuery({
    queryKey: ['ring-matching', 'page', params?.bearingId],
    enabled: !!params?.bearingId,
    queryFn: () =>
      http.get<{ list: any[]; total: number }>('/api/v1/ring-matching/page', {
        bearingId: params?.bearingId,
        pageSize: 10,
      }),
  });
  const accept = useMutation({
    mutationFn: () =>
      http.post<{ id: number; assembled: number; issues: { docNo: string }[] }>(
        '/api/v1/ring-matching/accept',
        {
          ...params,
          flowCardId: cardId,
          ...(reportId ? { workReportId: reportId } : {}),
        },
      ),
    onSuccess: (r) => {
      // The matched rings go out of the ring store by a 领料出库 draft the keeper posts.
      const issued = r.issues?.length
        ? `；已生成领料出库草稿 ${r.issues.map((x) => x.docNo).join('、')}`
        : '';
      toast.success(`已接受选配方案：${r.assembled} 套${issued}`);
      void qc.invalidateQueries({ queryKey: ['ring-matching'] });
    },
  });
  const p = proposal.data;
  return (
    <PageCard title="装配 · 选配">
      <Form<FormValues>
        form={form}
        layout="inline"
        initialValues={{ clearanceGroup: 'CN', groupWidthUm: 2, ballGradesUm: [-2, -1, 0, 1, 2] }}
        onFinish={({ limitBalls, balls, ...v }) => {
          const grades = [...v.ballGradesUm].sort((a, b) => a - b);
          setParams({
            ...v,
            ballGradesUm: grades,
            // A grade left empty has no balls in stock.
            ...(limitBalls
              ? { ballStock: grades.map((g) => ({ gradeUm: g, quantity: Number(balls?.[String(g)] ?? 0) })) }
              : {}),
          });
        }}
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item name="bearingId" label="轴承" rules={[{ required: true, message: '请选择轴承' }]}>
          <Select
            aria-label="轴承"
            style={{ width: 300 }}
            showSearch
            optionFilterProp="label"
            loading={bearings.isFetching}
            placeholder="选择轴承"
            options={(bearings.data ?? []).map((b) => ({
              value: b.id,
              label: `${b.code} ${b.name}（内圈 ${b.innerRings} / 外圈 ${b.outerRings}）`,
            }))}
          />
        </Form.Item>
        <Form.Item name="clearanceGroup" label="游隙组别" rules={[{ required: true }]}>
          <Select aria-label="游隙组别" style={{ width: 150 }} options={CLEARANCE} />
        </Form.Item>
        <Form.Item
          name="groupWidthUm"
          label="分组宽度(µm)"
          rules={[{ required: true, message: '请填写分组宽度' }]}
        >
          <InputNumber aria-label="分组宽度" min={0.5} max={20} step={0.5} style={{ width: 90 }} />
        </Form.Item>
        <Form.Item
          name="ballGradesUm"
          label="钢球规值(µm)"
          rules={[{ required: true, message: '请选择钢球规值' }]}
        >
          <Select
            aria-label="钢球规值"
            mode="multiple"
            style={{ minWidth: 240 }}
            options={GRADES.map((g) => ({ value: g, label: signed(g) }))}
          />
        </Form.Item>
        <Form.Item name="limitBalls" label="按钢球库存" valuePropName="checked">
          <Switch aria-label="按钢球库存" data-testid="rm-limit-balls" />
        </Form.Item>
        <Form.Item noStyle shouldUpdate>
          {() =>
            form.getFieldValue('limitBalls') ? (
              <Space wrap data-testid="rm-ball-stock">
                {[...((form.getFieldValue('ballGradesUm') as number[] | undefined) ?? [])]
                  .sort((a, b) => a - b)
                  .map((g) => (
                    <Form.Item
                      key={g}
                      name={['balls', String(g)]}
                      label={`${signed(g)} µm(粒)`}
                      style={{ margin: 0 }}
                    >
                      <InputNumber
                        aria-label={`规值 ${signed(g)} 钢球库存`}
                        min={0}
                        precision={0}
                        style={{ width: 100 }}
                      />
                    </Form.Item>
                  ))}
              </Space>
            ) : null
          }
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<ExperimentOutlined />}
            loading={proposal.isFetching}
          >
            生成方案
          </Button>
        </Form.Item>
      </Form>
      {!p ? (
        <Empty description="选择轴承和游隙组别，生成选配方案" />
      ) : (
        <>
          <Row gutter={16} style={{ marginBottom: 16 }}>
            <Col span={4}>
              <Statistic title="游隙范围(µm)" value={`${p.clearance.min} ~ ${p.clearance.max}`} />
            </Col>
            <Col span={4}>
              <Statistic title={`在库已测内圈 ${p.bearing.inner.code}`} value={p.offered.inner} suffix="件" />
            </Col>
            <Col span={4}>
              <Statistic title={`在库已测外圈 ${p.bearing.outer.code}`} value={p.offered.outer} suffix="件" />
            </Col>
            <Col span={4} data-testid="rm-assembled">
              <Statistic title="可配成" value={p.assembled} suffix="套" />
            </Col>
            <Col span={4} data-testid="rm-yield">
              <Statistic
                title="选配合格率"
                value={p.yieldPercent ?? '—'}
                suffix={p.yieldPercent == null ? '' : '%'}
              />
            </Col>
            <Col span={4}>
              <Statistic title="钢球 Dw(mm)" value={p.bearing.ballMm} />
            </Col>
          </Row>
          {p.ballStock && (
            <Space wrap style={{ marginBottom: 16 }} data-testid="rm-ball-use">
              钢球库存：
              {p.ballStock.map((b) => (
                <Tag key={b.gradeUm} color={b.used >= b.sets && b.sets > 0 ? 'orange' : undefined}>
                  {signed(b.gradeUm)} µm：{b.quantity} 粒，够 {b.sets} 套，用 {b.used} 套
                </Tag>
              ))}
            </Space>
          )}
          <Row gutter={16} style={{ marginBottom: 16 }}>
            <Col span={12}>
              <GroupTable title="内圈沟道尺寸组" groups={p.innerGroups} testId="rm-inner-groups" />
            </Col>
            <Col span={12}>
              <GroupTable title="外圈沟道尺寸组" groups={p.outerGroups} testId="rm-outer-groups" />
            </Col>
          </Row>
          <Table<SetRow>
            data-testid="rm-sets"
            size="middle"
            rowKey="lineNo"
            title={() => `选配方案（${p.clearanceGroup}，分组宽度 ${p.groupWidthUm} µm）`}
            dataSource={p.sets}
            pagination={false}
            locale={{ emptyText: '在库已测套圈配不出该游隙组的轴承' }}
            columns={[
              { title: '行', dataIndex: 'lineNo', width: 50 },
              { title: '内圈组（mm）', dataIndex: 'innerGroup' },
              { title: '外圈组（mm）', dataIndex: 'outerGroup' },
              {
                title: '钢球规值',
                render: (_, r) => (
                  <span>
                    {signed(r.ballGradeUm)} µm <span className="ws-muted">Φ{r.ballMm.toFixed(4)}</span>
                  </span>
                ),
              },
              {
                title: '游隙(µm)',
                render: (_, r) => `${r.clearanceLowUm} ~ ${r.clearanceHighUm}`,
              },
              { title: '套数', dataIndex: 'count', width: 80, align: 'right' },
              { title: '内圈批次', render: (_, r) => lots(r.innerLots) },
              { title: '外圈批次', render: (_, r) => lots(r.outerLots) },
            ]}
          />
          <Row gutter={16} style={{ margin: '16px 0' }}>
            <Col span={12}>
              <GroupTable title="剩余内圈（按组）" groups={p.leftover.inner} testId="rm-left-inner" />
            </Col>
            <Col span={12}>
              <GroupTable title="剩余外圈（按组）" groups={p.leftover.outer} testId="rm-left-outer" />
            </Col>
          </Row>
          {can('production:assemblyMatching:accept') && (
            <Space wrap style={{ marginBottom: 16 }}>
              <span>装配流转卡</span>
              <Select
                id="flowCardId"
                aria-label="装配流转卡"
                style={{ width: 320 }}
                value={cardId}
                onChange={(v) => {
                  setCardId(v);
                  setReportId(undefined);
                }}
                placeholder="选择该轴承的装配流转卡"
                loading={cards.isFetching}
                options={(cards.data ?? []).map((c) => ({
                  value: c.id,
                  label: `${c.docNo}（${c.orderNo}，${c.quantity} 套，已选配 ${c.matched}）`,
                }))}
              />
              <Select
                id="workReportId"
                aria-label="装配报工"
                style={{ width: 260 }}
                allowClear
                value={reportId}
                onChange={setReportId}
                placeholder="记入装配报工（可选）"
                disabled={!cardId}
                options={(reports.data ?? []).map((r) => ({
                  value: r.id,
                  label: `${r.docNo}（${r.reportDate}，良品 ${r.goodQuantity}）`,
                }))}
              />
              <Button
                type="primary"
                icon={<CheckOutlined />}
                disabled={!cardId || !p.assembled}
                loading={accept.isPending}
                onClick={() => accept.mutate()}
              >
                接受方案
              </Button>
            </Space>
          )}
          <Table
            data-testid="rm-history"
            size="small"
            rowKey="id"
            title={() => '选配记录'}
            dataSource={history.data?.list ?? []}
            pagination={false}
            columns={[
              { title: '时间', dataIndex: 'createdAt', render: (v) => formatTime(v) },
              { title: '流转卡', dataIndex: 'cardNo' },
              { title: '装配报工', dataIndex: 'workReportNo', render: (v) => v ?? '—' },
              { title: '游隙组别', dataIndex: 'clearanceGroup', render: (v) => <Tag>{v}</Tag> },
              { title: '内圈/外圈', render: (_, r) => `${r.innerOffered} / ${r.outerOffered}` },
              { title: '配成套数', dataIndex: 'assembled', align: 'right' },
              { title: '操作人', dataIndex: 'createdByName' },
            ]}
          />
        </>
      )}
    </PageCard>
  );
}
