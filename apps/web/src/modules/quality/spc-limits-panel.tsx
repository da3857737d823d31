import {
  ALL_NELSON_RULES,
  NELSON_RULES,
  type NelsonRule,
  SPC_FAMILIES,
  type SpcFamily,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, DatePicker, Input, Modal, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { fmt } from './spc-charts.ts';

/**
 * 控制限 of a series (product × characteristic × machine) on the 统计报表 page: which limits the
 * chart uses (a frozen revision, Phase II, or the period's own, Phase I), 建立控制限 (a baseline
 * period, points removed each with its reason, limits previewed) and the revisions with 批准.
 */

interface Key {
  productId: number;
  characteristic: string;
  equipmentId: number;
}

interface Revision {
  id: number;
  version: number;
  status: 'draft' | 'approved' | 'superseded';
  chartKind: string;
  subgroupSize: number;
  baselineFrom: string;
  baselineTo: string;
  baselineSubgroups: number;
  center: number;
  ucl: number;
  lcl: number;
  remark: string | null;
  createdByName: string | null;
  approvedAt: string | null;
  approvedByName: string | null;
  exclusions: { subgroupId: number | null; measuredAt: string; mean: number; reason: string }[];
}

interface Study {
  kind: string;
  n: number;
  subgroups: number;
  basisSubgroups: number;
  enough: boolean;
  minimum: number;
  limits: { center: number; ucl: number; lcl: number } | null;
  points: { id: number[]; t: number[]; x: number[]; excluded: boolean[] };
  violations: { subgroupId: number; rule: number; chart: string; label: string }[];
}

const STATUS = {
  draft: ['待批准', 'gold'],
  approved: ['已冻结', 'green'],
  superseded: ['已替代', 'default'],
} as const;

export function SpcLimitsPanel({
  family,
  seriesKey,
  revision,
  period,
}: {
  family: SpcFamily;
  /** The period the page shows: the baseline a new revision starts from. */
  period?: [Dayjs, Dayjs];
  seriesKey: Key | null;
  revision: { version: number; baselineFrom: string; baselineTo: string } | null | undefined;
}) {
  const can = usePermission();
  const resource = SPC_FAMILIES[family].permission.replace(/:query$/, '');
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['spc-limit-revisions', seriesKey],
    queryFn: () => http.get<Revision[]>('/api/v1/spc/limit-revision/list', { ...seriesKey }),
    enabled: Boolean(seriesKey),
  });
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: ['spc-limit-revisions'] });
    queryClient.invalidateQueries({ queryKey: ['spc-chart'] });
  };
  const approve = async (id: number) => {
    await http.post(`/api/v1/spc/limit-revision/approve/${id}`);
    toast.success('控制限已批准并冻结');
    refresh();
  };
  return (
    <PageCard
      title="控制限"
      extra={
        seriesKey &&
        can(`${resource}:limit`) && (
          <Button type="primary" onClick={() => setOpen(true)} data-testid="spc-limit-build">
            建立控制限
          </Button>
        )
      }
    >
      <div data-testid="spc-limit-phase" style={{ marginBottom: 12 }}>
        {revision ? (
          <Tag color="green">
            阶段 II：第 {revision.version} 版冻结控制限（基准期 {revision.baselineFrom} 至{' '}
            {revision.baselineTo}）
          </Tag>
        ) : (
          <Tag>阶段 I：控制限按所示期间的数据计算{seriesKey ? '' : '（选择产品后可建立冻结控制限）'}</Tag>
        )}
      </div>
      {seriesKey && <SeriesRules seriesKey={seriesKey} editable={can(`${resource}:limit`)} />}
      {seriesKey && (
        <Table<Revision>
          size="small"
          rowKey="id"
          data-testid="spc-limit-revisions"
          dataSource={list.data ?? []}
          pagination={false}
          locale={{ emptyText: '尚未建立控制限' }}
          columns={[
            { title: '版本', dataIndex: 'version', width: 60 },
            {
              title: '状态',
              dataIndex: 'status',
              width: 90,
              render: (s: Revision['status']) => <Tag color={STATUS[s][1]}>{STATUS[s][0]}</Tag>,
            },
            {
              title: '基准期',
              width: 200,
              render: (_, r) => `${r.baselineFrom} 至 ${r.baselineTo}（${r.baselineSubgroups} 组）`,
            },
            { title: 'LCL', dataIndex: 'lcl', width: 100, render: (v: number) => fmt(v) },
            { title: 'CL', dataIndex: 'center', width: 100, render: (v: number) => fmt(v) },
            { title: 'UCL', dataIndex: 'ucl', width: 100, render: (v: number) => fmt(v) },
            {
              title: '剔除点',
              render: (_, r) =>
                r.exclusions.length
                  ? r.exclusions
                      .map((e) => `${dayjs(e.measuredAt).format('MM-DD HH:mm')} ${fmt(e.mean)}：${e.reason}`)
                      .join('；')
                  : '—',
            },
            { title: '建立人', dataIndex: 'createdByName', width: 90 },
            {
              title: '批准',
              width: 170,
              render: (_, r) =>
                r.approvedAt ? (
                  `${r.approvedByName ?? ''} ${dayjs(r.approvedAt).format('YYYY-MM-DD HH:mm')}`
                ) : r.status === 'draft' && can(`${resource}:limitApprove`) ? (
                  <Button
                    size="small"
                    type="link"
                    onClick={() => approve(r.id)}
                    data-testid={`spc-limit-approve-${r.version}`}
                  >
                    批准冻结
                  </Button>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      )}
      {open && seriesKey && (
        <BuildLimitsModal
          seriesKey={seriesKey}
          period={period}
          onClose={(saved) => {
            setOpen(false);
            if (saved) refresh();
          }}
        />
      )}
    </PageCard>
  );
}

function BuildLimitsModal({
  seriesKey,
  period,
  onClose,
}: {
  seriesKey: Key;
  period?: [Dayjs, Dayjs];
  onClose: (saved: boolean) => void;
}) {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(period ?? [dayjs().subtract(30, 'day'), dayjs()]);
  const [excluded, setExcluded] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const body = {
    ...seriesKey,
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
    exclusions: Object.entries(excluded)
      .filter(([, reason]) => reason.trim())
      .map(([id, reason]) => ({ subgroupId: Number(id), reason })),
  };
  const study = useQuery({
    queryKey: ['spc-limit-preview', body],
    queryFn: () => http.post<Study>('/api/v1/spc/limit-revision/preview', body),
  });
  const s = study.data;
  const flagged = new Map<number, string[]>();
  for (const v of s?.violations ?? [])
    flagged.set(v.subgroupId, [...(flagged.get(v.subgroupId) ?? []), v.label]);
  const rows = (s?.points.id ?? [])
    .map((id, i) => ({ id, t: s?.points.t[i] ?? 0, x: s?.points.x[i] ?? 0 }))
    .filter((r) => !onlyFlagged || flagged.has(r.id) || r.id in excluded);
  const missingReason = Object.values(excluded).some((r) => !r.trim());
  const save = async () => {
    setSaving(true);
    try {
      await http.post('/api/v1/spc/limit-revision/add', body);
      toast.success('控制限草稿已建立，待批准后冻结');
      onClose(true);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      width={900}
      title="建立控制限（阶段 I）"
      onCancel={() => onClose(false)}
      okText="保存待批准"
      okButtonProps={
        { disabled: !s?.enough || missingReason, loading: saving, 'data-testid': 'spc-limit-save' } as any
      }
      onOk={save}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          基准期
          <DatePicker.RangePicker
            allowClear={false}
            value={range}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            data-testid="spc-limit-range"
          />
          <Checkbox
            checked={onlyFlagged}
            onChange={(e) => setOnlyFlagged(e.target.checked)}
            data-testid="spc-limit-only-flagged"
          >
            只看判异点
          </Checkbox>
        </Space>
        {s && (
          <Alert
            type={s.enough ? 'info' : 'warning'}
            data-testid="spc-limit-preview"
            message={
              s.limits
                ? `${s.basisSubgroups} 个子组（容量 ${s.n}）：LCL ${fmt(s.limits.lcl)} / CL ${fmt(s.limits.center)} / UCL ${fmt(s.limits.ucl)}` +
                  (s.enough ? '' : `；至少需要 ${s.minimum} 个子组`)
                : `基准期子组不足（${s.basisSubgroups} 个），至少需要 ${s.minimum} 个`
            }
          />
        )}
        <Table
          size="small"
          rowKey="id"
          dataSource={rows}
          pagination={{ pageSize: 8 }}
          data-testid="spc-limit-points"
          columns={[
            {
              title: '剔除',
              width: 60,
              render: (_, r) => (
                <Checkbox
                  checked={r.id in excluded}
                  data-testid={`spc-exclude-${r.id}`}
                  onChange={(e) =>
                    setExcluded((x) => {
                      const next = { ...x };
                      if (e.target.checked) next[r.id] = '';
                      else delete next[r.id];
                      return next;
                    })
                  }
                />
              ),
            },
            {
              title: '测量时间',
              width: 140,
              render: (_, r) => dayjs(r.t * 60_000).format('YYYY-MM-DD HH:mm'),
            },
            { title: '均值', width: 100, render: (_, r) => fmt(r.x) },
            {
              title: '判异',
              render: (_, r) =>
                (flagged.get(r.id) ?? []).map((l) => (
                  <Tag key={l} color="red">
                    {l}
                  </Tag>
                )),
            },
            {
              title: '剔除原因（可查明的异常原因）',
              width: 240,
              render: (_, r) =>
                r.id in excluded ? (
                  <Input
                    size="small"
                    maxLength={200}
                    value={excluded[r.id]}
                    placeholder="必填，如：量仪校零错误"
                    data-testid={`spc-exclude-reason-${r.id}`}
                    onChange={(e) => setExcluded((x) => ({ ...x, [r.id]: e.target.value }))}
                  />
                ) : null,
            },
          ]}
        />
      </Space>
    </Modal>
  );
}

interface Setting {
  rules: NelsonRule[];
  inspectorId: number | null;
  inspectorName: string | null;
}

/**
 * 判异规则 and 负责检验员 of the series: which of the eight Nelson rules its charts and alarms check
 * (the four Western Electric ones until chosen) and who gets its 失控 messages (the quality role
 * when nobody is named). Saved with 建立控制限's permission.
 */
function SeriesRules({ seriesKey, editable }: { seriesKey: Key; editable: boolean }) {
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: ['spc-series-setting', seriesKey],
    queryFn: () => http.get<Setting>('/api/v1/spc/series-setting', { ...seriesKey }),
  });
  const [draft, setDraft] = useState<{ rules: NelsonRule[]; inspectorId: number | null }>();
  const [saving, setSaving] = useState(false);
  const current = draft ?? setting.data;
  if (!current) return null;
  const save = async () => {
    setSaving(true);
    try {
      await http.put('/api/v1/spc/series-setting', {
        ...seriesKey,
        rules: current.rules,
        inspectorId: current.inspectorId,
      });
      toast.success('判异规则与负责检验员已保存');
      setDraft(undefined);
      queryClient.invalidateQueries({ queryKey: ['spc-series-setting'] });
      queryClient.invalidateQueries({ queryKey: ['spc-chart'] });
    } finally {
      setSaving(false);
    }
  };
  return (
    <div data-testid="spc-series-setting" style={{ marginBottom: 12 }}>
      <div style={{ marginBottom: 6 }}>判异规则（Nelson）：</div>
      <Checkbox.Group
        disabled={!editable}
        value={current.rules}
        onChange={(v) => setDraft({ ...current, rules: (v as NelsonRule[]).sort((a, b) => a - b) })}
        options={ALL_NELSON_RULES.map((r) => ({ value: r, label: NELSON_RULES[r] }))}
        data-testid="spc-rules"
      />
      <Space style={{ marginTop: 8 }} wrap>
        负责检验员
        <RefSelect
          field={{ name: 'inspectorId', label: '负责检验员', kind: 'ref', ref: 'user' }}
          value={current.inspectorId ?? undefined}
          fallbackLabel={draft ? undefined : (setting.data?.inspectorName ?? undefined)}
          placeholder="未指定：失控消息发给质检角色"
          disabled={!editable}
          style={{ width: 240 }}
          onChange={(v: unknown) => setDraft({ ...current, inspectorId: v == null ? null : Number(v) })}
          id="spc-inspector"
        />
        {editable && (
          <Button size="small" onClick={save} loading={saving} disabled={!draft} data-testid="spc-rules-save">
            保存规则
          </Button>
        )}
        {!current.rules.length && <Tag color="orange">未选任何规则：不判异、不报警</Tag>}
      </Space>
    </div>
  );
}
