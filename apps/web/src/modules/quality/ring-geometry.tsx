import { SaveOutlined, UploadOutlined } from '@ant-design/icons';
import {
  characteristicLabel,
  decodeGaugeText,
  type GeometryCheck,
  type PlaneGeometry,
  READING_CHARACTERISTICS,
  type RingGeometry,
  type SpcFamily,
} from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Empty,
  type FormInstance,
  Input,
  Modal,
  Space,
  Statistic,
  Table,
  Tag,
  Tooltip,
  Upload,
} from 'antd';
import dayjs from 'dayjs';
import { useMemo, useRef, useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { toast } from '../../platform/feedback.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';

/**
 * Ring geometry from multi-point readings (issue 38 §3): the reading-set grid of 测量记录 entry
 * (points per radial plane × planes for each ring of the subgroup, the figures and the ISO 492
 * verdict shown as soon as a ring is complete), and the panel of the 统计报表 pages listing each
 * measured ring with what the report's name says: bore/OD with roundness (V_dsp) and taper
 * (V_dmp), raceway diameter and position, width and its variation.
 */

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const PLANE_NAMES = ['Ⅰ', 'Ⅱ', 'Ⅲ', 'Ⅳ', 'Ⅴ'];
const key = (i: number, p: number, k: number) => `${i}-${p}-${k}`;

interface Plan {
  characteristic: string;
  points: number;
  planes: number;
}

/** μm with its sign and at most 2 decimals: −5.5, +0.25, 0. */
export const um = (v: number | null | undefined) =>
  v == null ? '—' : v > 0 ? `+${+v.toFixed(2)}` : v === 0 ? '0' : `−${+Math.abs(v).toFixed(2)}`;

/** A variation or maximum (never negative): 3, 4.5. */
export const plain = (v: number | null | undefined) => (v == null ? '—' : String(+v.toFixed(2)));

const limitText = (c: Pick<GeometryCheck, 'lower' | 'upper' | 'unit' | 'missing'>) =>
  c.upper == null && c.lower == null
    ? (c.missing ?? '无限值')
    : c.unit === 'mm'
      ? `${c.lower ?? '—'} ~ ${c.upper ?? '—'} mm`
      : c.lower == null
        ? `≤ ${c.upper} μm`
        : `${um(c.upper)} / ${um(c.lower)} μm`;

const valueText = (c: GeometryCheck) =>
  c.unit === 'mm'
    ? `${c.value} mm`
    : c.valueMin != null
      ? c.valueMin !== c.value
        ? `${um(c.valueMin)} … ${um(c.value)} μm`
        : `${um(c.value)} μm`
      : `${plain(c.value)} μm`;

export function VerdictTag({ verdict, testId }: { verdict: string; testId?: string }) {
  const [color, text] =
    verdict === 'pass' ? ['green', '合格'] : verdict === 'fail' ? ['red', '超差'] : ['default', '限值不全'];
  return (
    <Tag color={color} data-testid={testId}>
      {text}
    </Tag>
  );
}

/** One check as a tag: symbol, measured value, limit; red when outside. */
function CheckTag({ c, testId }: { c: GeometryCheck; testId?: string }) {
  return (
    <Tooltip title={`${c.label}：限值 ${limitText(c)}`}>
      <Tag color={c.ok === false ? 'red' : c.ok ? 'green' : 'default'} data-testid={testId}>
        {c.symbol} {valueText(c)}
      </Tag>
    </Tooltip>
  );
}

export interface ReadingEntryProps {
  /** The subgroup header form of the entry page (product, characteristic, machine, operator…). */
  header: FormInstance;
  productId?: number;
  characteristic: string;
  /** Rings in the subgroup. */
  size: number;
  /** The typed limits differ from the standard's: the body carries the reason. */
  overridden: boolean;
  onSaved(): void;
}

/**
 * The reading sets of a subgroup: one grid per ring, planes as rows and points as columns, typed
 * from the keyboard (Enter goes to the next reading; on the last it saves). Each complete ring is
 * computed on the server as typed (`/ring-geometry/preview`), judged against the product's ring
 * standard limits.
 */
export function RingReadingsEntry({
  header,
  productId,
  characteristic,
  size,
  overridden,
  onSaved,
}: ReadingEntryProps) {
  const plans = useQuery({
    queryKey: ['ring-reading-plans'],
    queryFn: () => http.get<Plan[]>('/api/v1/ring-geometry/plans'),
    staleTime: 60_000,
  });
  const plan =
    plans.data?.find((p) => p.characteristic === characteristic) ??
    (READING_CHARACTERISTICS[characteristic]
      ? { characteristic, ...READING_CHARACTERISTICS[characteristic].plan }
      : undefined);
  const [cells, setCells] = useState<Record<string, string>>({});
  const [importing, setImporting] = useState(false);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const points = plan?.points ?? 0;
  const planes = plan?.planes ?? 0;
  const perRing = points * planes;
  const rings = useMemo(
    () =>
      Array.from({ length: size }, (_, i) =>
        Array.from({ length: planes }, (_, p) =>
          Array.from({ length: points }, (_, k) => (cells[key(i, p, k)] ?? '').trim()),
        ),
      ),
    [cells, size, planes, points],
  );
  const complete = rings.map((r) => r.every((pl) => pl.every((v) => NUMBER.test(v))));
  const filled = rings
    .map((r, i) => ({ i, readings: r.map((pl) => pl.map(Number)) }))
    .filter((_, i) => complete[i]);
  const lsl = header.getFieldValue('lsl');
  const usl = header.getFieldValue('usl');
  const preview = useQuery({
    queryKey: ['ring-geometry-preview', productId, characteristic, filled, lsl, usl],
    queryFn: () =>
      http.post<{ rings: RingGeometry[] }>(
        '/api/v1/ring-geometry/preview',
        {
          productId,
          characteristic,
          rings: filled.map((r) => ({ readings: r.readings })),
          lsl: lsl ?? null,
          usl: usl ?? null,
        },
        { silent: true },
      ),
    enabled: Boolean(productId && plan && filled.length),
    placeholderData: keepPreviousData,
  });
  const computed = new Map<number, RingGeometry>();
  if (preview.data && !preview.isPlaceholderData)
    filled.forEach((r, n) => {
      const g = preview.data.rings[n];
      if (g) computed.set(r.i, g);
    });
  const previewError = preview.error instanceof ApiError ? preview.error.message : undefined;

  const save = useMutation({
    mutationFn: async () => {
      const h = await header.validateFields();
      const bad = complete.findIndex((c) => !c);
      if (bad >= 0) {
        const at = rings[bad].flat().findIndex((v) => !NUMBER.test(v));
        inputs.current[bad * perRing + at]?.focus();
        throw new Error(`第 ${bad + 1} 件的读数未填完或不是数字`);
      }
      return http.post<{ id: number; rings: RingGeometry[] }>('/api/v1/ring-geometry/add', {
        productId: h.productId,
        characteristic: h.characteristic,
        equipmentId: h.equipmentId,
        operatorId: h.operatorId,
        measuredAt: (h.measuredAt ?? dayjs()).format('YYYY-MM-DD HH:mm:ss'),
        flowCardId: h.flowCardId ?? null,
        lsl: h.lsl ?? null,
        usl: h.usl ?? null,
        ...(overridden ? { specReason: h.specReason } : {}),
        rings: rings.map((r) => ({ readings: r.map((pl) => pl.map(Number)) })),
      });
    },
    onSuccess: (r) => {
      const fail = r.rings.filter((g) => g.verdict === 'fail').length;
      toast.success(`${r.rings.length} 件套圈的读数组已保存${fail ? `，其中 ${fail} 件超差` : ''}`);
      setCells({});
      header.setFieldValue('measuredAt', dayjs());
      onSaved();
      setTimeout(() => inputs.current[0]?.focus(), 0);
    },
    onError: (e) => {
      if (e instanceof ApiError && e.shown) return;
      if ((e as { errorFields?: unknown }).errorFields) return;
      toast.error(e instanceof Error ? e.message : String(e));
    },
  });

  if (!plan) return null;
  const onKey = (n: number, e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (n + 1 < size * perRing) inputs.current[n + 1]?.focus();
    else save.mutate();
  };

  return (
    <div data-testid="ring-readings">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={`读数方案：每件 ${planes} 个径向截面 × 每截面 ${points} 点（${characteristicLabel(characteristic)}）`}
        description={
          READING_CHARACTERISTICS[characteristic].kind === 'diameter'
            ? '每截面的单一直径 d_s；截面平均直径 d_mp =（最大 + 最小）/ 2，Δd_mp = d_mp − 公称，V_dsp = 截面内最大 − 最小（圆度），V_dmp = 各截面 d_mp 之差（锥度），按 ISO 492 判定'
            : READING_CHARACTERISTICS[characteristic].kind === 'width'
              ? '单一宽度 B_s（外圈 C_s）；ΔB_s = B_s − B，V_Bs = 最大 − 最小，按 ISO 492 判定'
              : '沟道读数的均值与变动量；有规格限时按规格限判定'
        }
      />
      {previewError && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={previewError} />}
      {rings.map((ring, i) => {
        const g = computed.get(i);
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: rings are fixed positions of the subgroup
            key={i}
            data-testid={`ring-${i}`}
            style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-start', marginBottom: 10 }}
          >
            <div>
              <div style={{ color: '#8c8c8c', marginBottom: 4 }}>第 {i + 1} 件</div>
              {ring.map((plane, p) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: planes are fixed positions of the grid
                <div key={p} style={{ display: 'flex', gap: 4, marginBottom: 4 }}>
                  <span style={{ width: 44, color: '#8c8c8c', lineHeight: '32px' }}>
                    截面{PLANE_NAMES[p]}
                  </span>
                  {plane.map((v, k) => {
                    const n = i * perRing + p * points + k;
                    return (
                      <Input
                        // biome-ignore lint/suspicious/noArrayIndexKey: points are fixed positions of the grid
                        key={k}
                        ref={(el) => {
                          inputs.current[n] = el?.input ?? null;
                        }}
                        value={cells[key(i, p, k)] ?? ''}
                        inputMode="decimal"
                        autoComplete="off"
                        placeholder={`${k + 1}`}
                        data-testid={`reading-${i}-${p}-${k}`}
                        status={v && !NUMBER.test(v) ? 'error' : ''}
                        style={{ width: 96 }}
                        onChange={(e) => setCells((old) => ({ ...old, [key(i, p, k)]: e.target.value }))}
                        onKeyDown={(e) => onKey(n, e)}
                      />
                    );
                  })}
                  {g?.planes?.[p] && <PlaneFigures plane={g.planes[p]} testId={`plane-${i}-${p}`} />}
                </div>
              ))}
            </div>
            {g && (
              <div data-testid={`ring-result-${i}`} style={{ paddingTop: 22 }}>
                <Space size={[4, 4]} wrap>
                  <VerdictTag verdict={g.verdict} testId={`ring-verdict-${i}`} />
                  {g.checks.map((c) => (
                    <CheckTag key={c.code} c={c} testId={`ring-check-${i}-${c.code}`} />
                  ))}
                </Space>
                <div className="rm-muted" style={{ marginTop: 4 }} data-testid={`ring-value-${i}`}>
                  {READING_CHARACTERISTICS[characteristic].kind === 'diameter' ? '平均直径' : '均值'}{' '}
                  {g.value} mm（{um(g.meanDeviation)} μm）
                </div>
              </div>
            )}
          </div>
        );
      })}
      <Space size={24} style={{ marginTop: 8 }}>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          loading={save.isPending}
          onClick={() => save.mutate()}
          data-testid="ring-readings-save"
        >
          保存读数组
        </Button>
        <Button
          icon={<UploadOutlined />}
          onClick={() => setImporting(true)}
          data-testid="ring-readings-import"
        >
          导入读数组
        </Button>
        <span className="rm-muted">
          回车跳到下一个读数，最后一个读数回车即保存；每件的 d_mp 为子组的测量值
        </span>
      </Space>
      {importing && (
        <ReadingImportModal
          header={header}
          plan={plan}
          size={size}
          onClose={() => setImporting(false)}
          onDone={onSaved}
        />
      )}
    </div>
  );
}

/**
 * 导入读数组: a gauge's file (CSV or tab separated, one ring a line: an optional 件号, then the
 * readings plane by plane) pasted or chosen, checked first (the number of every bad line, rings,
 * subgroups, 超差 count), then imported all or nothing with the header's product, machine and time.
 */
function ReadingImportModal({
  header,
  plan,
  size,
  onClose,
  onDone,
}: {
  header: FormInstance;
  plan: Plan;
  size: number;
  onClose(): void;
  onDone(): void;
}) {
  const [text, setText] = useState('');
  const [checked, setChecked] = useState<{ rings: number; subgroups: number; fail: number } | null>(null);
  const [errors, setErrors] = useState<{ field: string; message: string }[]>([]);
  const send = useMutation({
    mutationFn: async (dryRun: boolean) => {
      const h = await header.validateFields();
      return http.post<{ rings: number; subgroups: number; fail: number; imported: number }>(
        '/api/v1/ring-geometry/import',
        {
          productId: h.productId,
          characteristic: h.characteristic,
          equipmentId: h.equipmentId,
          operatorId: h.operatorId,
          measuredAt: (h.measuredAt ?? dayjs()).format('YYYY-MM-DD HH:mm:ss'),
          flowCardId: h.flowCardId ?? null,
          lsl: h.lsl ?? null,
          usl: h.usl ?? null,
          subgroupSize: size,
          text,
          dryRun,
        },
        { silent: true },
      );
    },
    onSuccess: (r, dryRun) => {
      setErrors([]);
      if (dryRun) {
        setChecked(r);
        return;
      }
      toast.success(
        `已导入 ${r.rings} 件（${r.subgroups} 个子组）${r.fail ? `，其中 ${r.fail} 件超差` : ''}`,
      );
      onDone();
      onClose();
    },
    onError: (e) => {
      setChecked(null);
      if (e instanceof ApiError) setErrors(e.errors?.length ? e.errors : [{ field: '', message: e.message }]);
    },
  });
  return (
    <Modal
      open
      title="导入读数组"
      width={720}
      onCancel={onClose}
      okText={checked ? '导入' : '检查'}
      okButtonProps={{ disabled: !text.trim(), loading: send.isPending }}
      onOk={() => send.mutate(!checked)}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={`每行一件：可先写件号，再按截面顺序写 ${plan.planes * plan.points} 个读数（${plan.planes} 个截面 × ${plan.points} 点），逗号或制表符分隔；首行可为表头；每 ${size} 件为一个子组`}
      />
      <Upload
        accept=".csv,.txt"
        showUploadList={false}
        beforeUpload={(f) => {
          // A gauge's file in UTF-8 or GBK/GB18030 (Windows code page 936): decoded as it was written.
          f.arrayBuffer().then((b) => {
            setText(decodeGaugeText(new Uint8Array(b)).text);
            setChecked(null);
          });
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>选择文件</Button>
      </Upload>
      <Input.TextArea
        value={text}
        rows={8}
        style={{ marginTop: 8, fontFamily: 'monospace' }}
        placeholder="件号,Ⅰ1,Ⅰ2,Ⅰ3,Ⅰ4,Ⅱ1,Ⅱ2,Ⅱ3,Ⅱ4"
        data-testid="ring-import-text"
        onChange={(e) => {
          setText(e.target.value);
          setChecked(null);
        }}
      />
      {checked && (
        <Alert
          type={checked.fail ? 'warning' : 'success'}
          showIcon
          style={{ marginTop: 12 }}
          data-testid="ring-import-checked"
          title={`共 ${checked.rings} 件、${checked.subgroups} 个子组，${checked.fail} 件超差；确认后导入`}
        />
      )}
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="ring-import-errors"
          title="有错误，未导入任何数据"
          description={errors.slice(0, 20).map((e) => (
            <div key={`${e.field}-${e.message}`}>
              {e.field} {e.message}
            </div>
          ))}
        />
      )}
    </Modal>
  );
}

function PlaneFigures({ plane, testId }: { plane: PlaneGeometry; testId: string }) {
  return (
    <span className="rm-muted" style={{ lineHeight: '32px', marginLeft: 6 }} data-testid={testId}>
      d_mp {plane.mp}（{um(plane.deviation)}）V_dsp {plain(plane.variation)} μm
    </span>
  );
}

// ------------------------------------------------------------------ report panel

interface RingSetRow {
  id: number;
  subgroupId: number;
  lineNo: number;
  productName: string;
  characteristic: string;
  equipmentName: string;
  flowCardNo: string | null;
  measuredAt: string;
  ringType: 'inner' | 'outer';
  readings: number[][];
  meanMm: string;
  meanDeviationUm: number | null;
  deviationMinUm: number | null;
  deviationMaxUm: number | null;
  variationUm: number;
  meanVariationUm: number | null;
  planeMeans: string[] | null;
  checks: GeometryCheck[];
  verdict: string;
  lsl: string | null;
  usl: string | null;
}

interface Summary {
  characteristic: string;
  rings: number;
  pass: number;
  fail: number;
  meanDeviationUm: number | null;
  maxVariationUm: number | null;
  maxMeanVariationUm: number | null;
}

const checkOf = (r: RingSetRow, codes: string[]) => r.checks.find((c) => codes.includes(c.code));

function CheckCell({ c, value }: { c: GeometryCheck | undefined; value: string }) {
  if (!c) return <span>{value}</span>;
  return (
    <span style={c.ok === false ? { color: '#cf1322', fontWeight: 600 } : undefined}>
      {value}
      <span className="rm-muted" style={{ marginLeft: 6, fontWeight: 400 }}>
        （{limitText(c)}）
      </span>
    </span>
  );
}

/** The columns a family's report shows of each ring. */
function familyColumns(family: SpcFamily) {
  const common = [
    {
      title: '测量时间',
      dataIndex: 'measuredAt',
      width: 140,
      render: (v: string) => dayjs(v).format('MM-DD HH:mm'),
    },
    { title: '产品', dataIndex: 'productName', width: 140, ellipsis: true },
    {
      title: '特性',
      dataIndex: 'characteristic',
      width: 80,
      render: (v: string) => characteristicLabel(v),
    },
    { title: '件', dataIndex: 'lineNo', width: 44 },
    { title: '流转卡', dataIndex: 'flowCardNo', width: 130, render: (v: string | null) => v ?? '—' },
  ];
  const verdict = {
    title: '判定',
    dataIndex: 'verdict',
    width: 90,
    render: (v: string, r: RingSetRow) => <VerdictTag verdict={v} testId={`geometry-verdict-${r.id}`} />,
  };
  const mean = (title: string) => ({
    title,
    dataIndex: 'meanMm',
    width: 110,
    render: (v: string) => Number(v).toFixed(5),
  });
  /** A checked value with its limits, red when out of them. */
  const checked = (title: string, key: string, codes: string[], value: (r: RingSetRow) => string) => ({
    title,
    key,
    render: (_: unknown, r: RingSetRow) => <CheckCell c={checkOf(r, codes)} value={value(r)} />,
  });
  const deviations = (r: RingSetRow) => `${um(r.deviationMinUm)} … ${um(r.deviationMaxUm)}`;
  if (family === 'neiwaijing')
    return [
      ...common,
      mean('平均直径 mm'),
      checked('Δd_mp / ΔD_mp μm（截面最小…最大）', 'dmp', ['dmp', 'Dmp'], deviations),
      checked('圆度 V_dsp μm', 'vdsp', ['Vdsp', 'VDsp'], (r) => plain(r.variationUm)),
      checked('锥度 V_dmp μm', 'vdmp', ['Vdmp', 'VDmp'], (r) => plain(r.meanVariationUm)),
      verdict,
    ];
  if (family === 'height')
    return [
      ...common,
      mean('平均宽度 mm'),
      checked('ΔB_s / ΔC_s μm（最小…最大）', 'bs', ['Bs', 'Cs'], deviations),
      checked('宽度变动 V_Bs / V_Cs μm', 'vbs', ['VBs', 'VCs'], (r) => plain(r.variationUm)),
      verdict,
    ];
  return [
    ...common,
    {
      title: '均值 mm',
      dataIndex: 'meanMm',
      width: 110,
      render: (v: string, r: RingSetRow) => (
        <CheckCell c={checkOf(r, ['raceway-diameter', 'raceway-position'])} value={Number(v).toFixed(5)} />
      ),
    },
    { title: '读数变动 μm', dataIndex: 'variationUm', width: 110, render: (v: number) => plain(v) },
    verdict,
  ];
}

export interface GeometryPanelProps {
  family: SpcFamily;
  characteristic?: string;
  productId?: number;
  equipmentId?: number;
  from?: string;
  to?: string;
}

/**
 * 套圈几何: what the report's name says, ring by ring, from the reading sets of the period (the
 * product and machine when chosen). 角度测量 has none: angles are single values, recorded only for
 * products that have an angle.
 */
export function RingGeometryPanel({
  family,
  characteristic,
  productId,
  equipmentId,
  from,
  to,
}: GeometryPanelProps) {
  const [page, setPage] = useState(1);
  const takes = characteristic ? Boolean(READING_CHARACTERISTICS[characteristic]) : true;
  const query = {
    family,
    ...(characteristic && takes ? { characteristic } : {}),
    productId,
    equipmentId,
    from,
    to,
    pageNum: page,
    pageSize: 10,
  };
  const sets = useQuery({
    queryKey: ['ring-geometry-page', query],
    queryFn: () =>
      http.get<{ list: RingSetRow[]; total: number; summary: Summary[] }>(
        '/api/v1/ring-geometry/page',
        query,
      ),
    enabled: family !== 'angle' && takes,
    placeholderData: keepPreviousData,
  });
  const title = {
    neiwaijing: '套圈几何：内径/外径、圆度 V_dsp、锥度 V_dmp（ISO 492）',
    track: '套圈几何：沟道直径与沟道位置',
    height: '套圈几何：宽度 ΔB_s 与宽度变动 V_Bs（ISO 492）',
    angle: '角度',
  }[family];
  if (family === 'angle')
    return (
      <PageCard title={title}>
        <Alert
          type="info"
          showIcon
          data-testid="geometry-angle-note"
          title="角度为单值测量，只对有角度的产品录入：角接触球轴承的接触角、圆锥滚子轴承的挡边角度等；深沟球轴承套圈没有挡边，不录挡边角度。"
        />
      </PageCard>
    );
  if (!takes) return null;
  const data = sets.data;
  return (
    <PageCard title={title}>
      <div data-testid={`geometry-panel-${family}`}>
        {data?.summary.length ? (
          <Space size={24} wrap style={{ marginBottom: 12 }} data-testid="geometry-summary">
            {data.summary.map((s) => (
              <Space key={s.characteristic} size={16}>
                <Statistic title={`${characteristicLabel(s.characteristic)} 件数`} value={s.rings} />
                <Statistic title="合格 / 超差" value={`${s.pass} / ${s.fail}`} />
                {family === 'neiwaijing' && (
                  <>
                    <Statistic title="最大 V_dsp μm" value={plain(s.maxVariationUm)} />
                    <Statistic title="最大 V_dmp μm" value={plain(s.maxMeanVariationUm)} />
                  </>
                )}
                {family === 'height' && <Statistic title="最大 V_Bs μm" value={plain(s.maxVariationUm)} />}
              </Space>
            ))}
          </Space>
        ) : null}
        {data && !data.total ? (
          <Empty description="所选条件下没有按读数组测量的套圈" />
        ) : (
          <Table<RingSetRow>
            size="small"
            rowKey="id"
            loading={sets.isFetching}
            dataSource={data?.list ?? []}
            columns={familyColumns(family)}
            scroll={{ x: 1000 }}
            data-testid="geometry-table"
            pagination={{
              current: page,
              pageSize: 10,
              total: data?.total ?? 0,
              onChange: setPage,
              showTotal: (n) => `共 ${n} 件`,
            }}
            expandable={{
              expandedRowRender: (r) => (
                <div data-testid={`geometry-readings-${r.id}`}>
                  {r.readings.map((plane, p) => (
                    <div key={`p-${PLANE_NAMES[p]}`}>
                      截面{PLANE_NAMES[p]}：{plane.join('、')} mm
                      {r.planeMeans?.[p] && (
                        <span className="rm-muted">
                          {'  '}d_mp {Number(r.planeMeans[p])}，V_dsp{' '}
                          {plain((Math.max(...plane) - Math.min(...plane)) * 1000)} μm
                        </span>
                      )}
                    </div>
                  ))}
                </div>
              ),
            }}
          />
        )}
      </div>
    </PageCard>
  );
}
