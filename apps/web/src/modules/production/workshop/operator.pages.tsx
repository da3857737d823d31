import {
  ArrowLeftOutlined,
  FormOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  ScanOutlined,
} from '@ant-design/icons';
import {
  SCRAP_REASON_OPTIONS,
  SHIFT_OPTIONS,
  STOP_REASONS,
  WORK_DISPATCH_LIFECYCLE,
  type WorkshopKind,
  workshopPaths,
} from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Result,
  Select,
  Skeleton,
  Tag,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../../platform/api/client.ts';
import { type ApiError, isApiError } from '../../../platform/api/errors.ts';
import { useRecordAction } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { navigateTo } from '../../../platform/navigation.ts';
import type { PageProps } from '../../../platform/page.ts';
import { useRereadWhenShown } from '../../../platform/page-shown.ts';
import { idFromSearch, leavePage } from '../../../platform/resource/nav.ts';
import { invalidateResource } from '../../../platform/resource/use-options.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { DrawingButton } from '../../technology/drawing-link.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import { kindOf, type Row, workDispatchResource, workshopApi } from './workshop.api.ts';
import './workshop.css';

const STATE = new Map(WORK_DISPATCH_LIFECYCLE.states.map((s) => [s.value, s]));
const SHIFT = new Map(SHIFT_OPTIONS.map((s) => [s.value, s.label]));

function StateTag({ status }: { status: string }) {
  const s = STATE.get(status);
  return <Tag color={s?.color}>{s?.label ?? status}</Tag>;
}

/**
 * 已报工 of a dispatch as the operator counts it: what he has reported, posted or not — the reports
 * waiting for approval (or inspection) named apart, so a report counts the moment it is sent.
 */
function Reported({ row, testId }: { row: Row; testId: string }) {
  const pending = Number(row.pendingQuantity ?? 0);
  const all = Math.round((Number(row.reportedQuantity ?? 0) + pending) * 10_000) / 10_000;
  return (
    <span data-testid={testId}>
      {qty(all)}
      {pending > 0 && <span className="ws-muted">（含待审核 {qty(pending)}）</span>}
    </span>
  );
}

/** The sheet a dispatch opens on: 开工 for one waiting, the running sheet otherwise. */
function sheetOf(kind: WorkshopKind, row: { id: number; status: string }) {
  const p = workshopPaths(kind);
  return `${row.status === 'dispatched' ? p.sheetAdd : p.sheetStart}?id=${row.id}`;
}

/**
 * 操作工任务: the signed-in operator's own queue on a workshop tablet (10-inch, landscape): running
 * work first, then what is dispatched to him by date and shift. A USB scanner types the 派工单号
 * into the scan field (or the operator does) and Enter opens its sheet.
 */
export function OperatorTaskPage({ path }: PageProps) {
  const kind = kindOf(path);
  const [code, setCode] = useState('');
  const [scanError, setScanError] = useState<string>();
  const queue = useQuery({
    queryKey: ['resource', 'work-dispatch', 'mine', kind.type],
    queryFn: () => workshopApi.mine(kind),
    refetchInterval: 30_000,
  });
  // Back on the queue (from a sheet, or the 车间主任 just dispatched): read it again at once, not
  // at the next 30-second poll.
  useRereadWhenShown(() => queue.refetch());
  const scan = async () => {
    const text = code.trim().toUpperCase();
    if (!text) return;
    setScanError(undefined);
    const mine = queue.data?.list.find((r) => r.docNo === text);
    const found = mine ?? (await workshopApi.findDispatch(text)).list.find((r) => r.docNo === text);
    // The search answers an operator his own dispatches only: a colleague's number finds nothing,
    // and he is told why rather than that it does not exist.
    if (!found)
      return setScanError(
        `派工单 ${text} 不在你的任务中：没有这张派工单，或它派给了别人（只能操作本人的派工单）`,
      );
    setCode('');
    navigateTo(sheetOf(kind, found as Row & { id: number; status: string }));
  };
  const rows = queue.data?.list ?? [];
  return (
    <PageCard className="op-page" title={`${kind.label} · 我的任务`}>
      <div className="op-scan">
        <Input
          autoFocus
          size="large"
          prefix={<ScanOutlined />}
          placeholder="扫描或输入派工单号，回车打开"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void scan()}
          aria-label="扫码"
          data-testid="operator-scan"
        />
        <Button size="large" type="primary" onClick={() => void scan()}>
          打开
        </Button>
      </div>
      {scanError && (
        <Alert
          type="warning"
          showIcon
          title={scanError}
          style={{ marginBottom: 16 }}
          data-testid="operator-scan-error"
        />
      )}
      {queue.isLoading ? (
        <Skeleton active />
      ) : rows.length === 0 ? (
        <Empty description="暂无派给你的任务" />
      ) : (
        <div className="op-queue" data-testid="operator-queue">
          {rows.map((r) => (
            <article key={r.id} className={`op-card${r.status === 'started' ? ' op-running' : ''}`}>
              <h3>
                <span>{r.docNo}</span>
                <StateTag status={r.status} />
              </h3>
              <div>
                <b>{r.productName}</b> {r.productSpec}
              </div>
              <div>工序：{r.processName}</div>
              <div>
                数量：<b>{qty(r.quantity)}</b>　已报工 <Reported row={r} testId="queue-reported" />
              </div>
              <div>
                {r.workDate} {SHIFT.get(r.shift)}
                {r.equipmentName ? ` · ${r.equipmentName}` : ''}
              </div>
              <div className="ws-muted">
                订单 {r.orderNo} · 任务 {r.taskNo}
              </div>
              <div className="op-actions">
                <Button
                  size="large"
                  type={r.status === 'completed' ? 'default' : 'primary'}
                  icon={r.status === 'dispatched' ? <PlayCircleOutlined /> : undefined}
                  onClick={() => navigateTo(sheetOf(kind, r as Row & { id: number; status: string }))}
                >
                  {r.status === 'dispatched' ? '开工单' : r.status === 'completed' ? '查看' : '进入作业'}
                </Button>
              </div>
            </article>
          ))}
        </div>
      )}
    </PageCard>
  );
}

const sheetKey = (id: number | undefined) => ['resource', 'work-dispatch', 'sheet', id] as const;

function useDispatch(id: number | undefined) {
  return useQuery({
    queryKey: sheetKey(id),
    // Silent: a refused or missing sheet is said on the page (Unavailable), not in a toast too.
    queryFn: () => workshopApi.sheet(id as number, { silent: true }),
    enabled: Boolean(id),
  });
}

/** 「查看图纸」: the drawing in force for the dispatch's product (「无图纸」 without one). */
function SheetDrawing({ row }: { row: Row }) {
  return (
    <DrawingButton drawing={row.drawing} url={workshopApi.drawingUrl(row.id)} label="查看图纸" size="large" />
  );
}

function SheetDetails({ row }: { row: Row }) {
  return (
    <Descriptions bordered column={2} size="middle" className="op-sheet">
      <Descriptions.Item label="派工单">{row.docNo}</Descriptions.Item>
      <Descriptions.Item label="状态">
        <StateTag status={row.status} />
      </Descriptions.Item>
      <Descriptions.Item label="产品">{row.productName}</Descriptions.Item>
      <Descriptions.Item label="工序">{row.processName}</Descriptions.Item>
      <Descriptions.Item label="派工数量">{qty(row.quantity)}</Descriptions.Item>
      <Descriptions.Item label="已报工">
        <Reported row={row} testId="sheet-reported" />
      </Descriptions.Item>
      <Descriptions.Item label="生产日期">
        {row.workDate} {SHIFT.get(row.shift)}
      </Descriptions.Item>
      <Descriptions.Item label="设备">{row.equipmentName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="生产订单">{row.productionOrderName}</Descriptions.Item>
      <Descriptions.Item label="车间任务">{row.taskName}</Descriptions.Item>
      <Descriptions.Item label="计划工时">
        {row.plannedMinutes ? `${row.plannedMinutes} 分钟` : '—'}
      </Descriptions.Item>
      <Descriptions.Item label="实际开工">{row.startedAt ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="图纸" span={2}>
        <SheetDrawing row={row} />
      </Descriptions.Item>
      {row.remark && (
        <Descriptions.Item label="备注" span={2}>
          {row.remark}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

function useRun(id: number | undefined, after?: (name: string) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, row, reason }: { name: string; row: Row; reason?: string }) =>
      workshopApi.transition(name, row.id, row.version, reason),
    onSuccess: (_, { name }) => {
      const t = WORK_DISPATCH_LIFECYCLE.transitions.find((x) => x.name === name);
      toast.success(`${t?.label ?? ''}成功`);
      invalidateResource(client, 'work-dispatch');
      invalidateResource(client, 'workshop-task');
      void client.invalidateQueries({ queryKey: sheetKey(id) });
      after?.(name);
    },
  });
}

/**
 * A sheet that cannot be shown: someone else's dispatch (403, with the server's reason: 「只能操作
 * 本人的派工单，派工单 PG… 不属于你」), or none (404 or no id).
 */
function Unavailable({ error, back }: { error?: unknown; back: () => void }) {
  const refused = isApiError(error) && error.status === 403;
  const missing = !error || (isApiError(error) && error.status === 404);
  return (
    <PageCard>
      <Result
        status={refused ? '403' : missing ? '404' : 'error'}
        title={refused ? '不能打开此派工单' : missing ? '派工单不存在或已被删除' : '派工单暂时无法打开'}
        subTitle={missing ? undefined : (error as Error).message}
        extra={<Button onClick={back}>返回我的任务</Button>}
        data-testid="sheet-unavailable"
      />
    </PageCard>
  );
}

/**
 * 工序任务单新增 and 开工 are one sheet at two stages: moving from one to the other replaces its tab
 * (the tag bar showed 工序任务单新增 and 工序任务单开工 for one dispatch after 开工).
 */
const toStage = (from: string, to: string) => leavePage(from, to);

/** 工序任务单新增: the sheet of a waiting dispatch; 开工 records the actual start. */
export function ProcessTaskSheetAddPage({ path }: PageProps) {
  const kind = kindOf(path);
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const mayOn = useRecordAction(workDispatchResource);
  const info = useDispatch(id);
  const back = () => navigateTo(workshopPaths(kind).operatorTask);
  const run = useRun(id, () => toStage(path, `${workshopPaths(kind).sheetStart}?id=${id}`));
  if (!id || info.error) return <Unavailable error={info.error} back={back} />;
  const row = info.data;
  return (
    <PageCard
      className="op-page"
      title="工序任务单"
      extra={
        <Button size="large" icon={<ArrowLeftOutlined />} onClick={back}>
          我的任务
        </Button>
      }
    >
      {!row ? (
        <Skeleton active />
      ) : (
        <>
          <SheetDetails row={row} />
          <div className="op-actions op-sheet">
            {row.status === 'dispatched' ? (
              mayOn('start', row) && (
                <Button
                  size="large"
                  type="primary"
                  icon={<PlayCircleOutlined />}
                  loading={run.isPending}
                  onClick={() => run.mutate({ name: 'start', row })}
                  data-testid="sheet-start"
                >
                  开工
                </Button>
              )
            ) : (
              <Button
                size="large"
                type="primary"
                onClick={() => toStage(path, `${workshopPaths(kind).sheetStart}?id=${id}`)}
              >
                已开工，进入作业
              </Button>
            )}
          </div>
        </>
      )}
    </PageCard>
  );
}

function Elapsed({ since }: { since?: string | null }) {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const t = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(t);
  }, []);
  if (!since) return null;
  const s = Math.max(now.diff(dayjs(since), 'second'), 0);
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) =>
    String(n).padStart(2, '0'),
  );
  return <span className="op-elapsed">{hms.join(':')}</span>;
}

/**
 * Why the machine stops: a reason from the declared list (issue 42: it becomes the machine's state
 * and a bar of the OEE loss Pareto), with an optional note after it (「待料：外圈毛坯未到」).
 */
function PauseReason({
  onOk,
  onCancel,
  busy,
}: {
  onOk: (reason: string) => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const [reason, setReason] = useState<string>();
  const [note, setNote] = useState('');
  return (
    <Modal
      open
      title="暂停原因"
      okText="暂停"
      onCancel={onCancel}
      confirmLoading={busy}
      okButtonProps={{ disabled: !reason, size: 'large' }}
      cancelButtonProps={{ size: 'large' }}
      onOk={() => reason && onOk(note.trim() ? `${reason}：${note.trim()}` : reason)}
    >
      <Radio.Group
        data-testid="pause-reasons"
        size="large"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        optionType="button"
        buttonStyle="solid"
        options={STOP_REASONS.map((r) => ({ label: r.label, value: r.label }))}
      />
      <Input
        style={{ marginTop: 16 }}
        size="large"
        maxLength={200}
        placeholder="说明（可选）"
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
    </Modal>
  );
}

/** 工序任务单开工: the running sheet — time since the start, 暂停 / 继续 / 完工. */
export function ProcessTaskSheetStartPage({ path }: PageProps) {
  const kind = kindOf(path);
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const mayOn = useRecordAction(workDispatchResource);
  const info = useDispatch(id);
  const back = () => navigateTo(workshopPaths(kind).operatorTask);
  const run = useRun(id, (name) => name === 'complete' && back());
  const [reporting, setReporting] = useState(false);
  const [pausing, setPausing] = useState(false);
  if (!id || info.error) return <Unavailable error={info.error} back={back} />;
  const row = info.data;
  // His own dispatch only, unless he dispatches in the workshop (the owner rule, as the server's).
  const can = row ? mayOn('start', row) : false;
  const mayReport = row ? mayOn('report', row) : false;
  const go = (name: string) => row && run.mutate({ name, row });
  return (
    <PageCard
      className="op-page"
      title="工序任务单 · 作业中"
      extra={
        <Button size="large" icon={<ArrowLeftOutlined />} onClick={back}>
          我的任务
        </Button>
      }
    >
      {!row ? (
        <Skeleton active />
      ) : (
        <>
          {row.status === 'started' && (
            <div style={{ marginBottom: 16 }}>
              已开工 <Elapsed since={row.startedAt} />
            </div>
          )}
          <SheetDetails row={row} />
          <div className="op-actions op-sheet">
            {row.status === 'dispatched' && (
              <Button
                size="large"
                type="primary"
                onClick={() => toStage(path, `${workshopPaths(kind).sheetAdd}?id=${id}`)}
              >
                去开工
              </Button>
            )}
            {can && row.status === 'started' && (
              <Button
                size="large"
                icon={<PauseCircleOutlined />}
                loading={run.isPending}
                onClick={() => setPausing(true)}
              >
                暂停
              </Button>
            )}
            {row && pausing && (
              <PauseReason
                onCancel={() => setPausing(false)}
                busy={run.isPending}
                onOk={(reason) =>
                  run.mutate({ name: 'pause', row, reason }, { onSuccess: () => setPausing(false) })
                }
              />
            )}
            {can && row.status === 'paused' && (
              <Button
                size="large"
                type="primary"
                icon={<PlayCircleOutlined />}
                loading={run.isPending}
                onClick={() => go('resume')}
              >
                继续
              </Button>
            )}
            {mayReport && ['started', 'paused', 'completed'].includes(row.status) && (
              <Button
                size="large"
                type="primary"
                icon={<FormOutlined />}
                onClick={() => setReporting(true)}
                data-testid="sheet-report"
              >
                报工
              </Button>
            )}
            {can && ['started', 'paused'].includes(row.status) && (
              <Button
                size="large"
                type="primary"
                loading={run.isPending}
                data-testid="sheet-complete"
                onClick={() =>
                  Modal.confirm({
                    title: '完工',
                    content: `确定 ${row.docNo} 完工？完工后不再开工。`,
                    okText: '完工',
                    cancelText: '取消',
                    onOk: () => run.mutateAsync({ name: 'complete', row }).catch(() => undefined),
                  })
                }
              >
                完工
              </Button>
            )}
          </div>
          {reporting && <ReportModal dispatch={row} onClose={() => setReporting(false)} />}
        </>
      )}
    </PageCard>
  );
}

interface ReportValues {
  goodQuantity?: number | string;
  workScrapQuantity?: number | string;
  materialScrapQuantity?: number | string;
  scrapReason?: string;
  reworkQuantity?: number | string;
  hours?: number | string;
}

/**
 * 报工 on the tablet: scan the flow card (or type its number), then good, scrap and rework
 * pieces; submitted at once for the workshop to approve.
 */
function ReportModal({ dispatch, onClose }: { dispatch: Row; onClose: () => void }) {
  const client = useQueryClient();
  const [form] = Form.useForm<ReportValues>();
  const [code, setCode] = useState('');
  const [card, setCard] = useState<Row>();
  const [error, setError] = useState<string>();
  const scan = async () => {
    setError(undefined);
    try {
      const found = await http.get<Row>('/api/v1/flow-card/scan', { code: code.trim() }, { silent: true });
      if (Number(found.productionOrderId) !== Number(dispatch.productionOrderId)) {
        setCard(undefined);
        return setError(`流转卡 ${found.docNo} 不是本派工单生产订单的卡`);
      }
      setCard(found);
    } catch (e) {
      setCard(undefined);
      setError((e as Error).message);
    }
  };
  const step = card?.steps?.find((s: Row) => Number(s.processId) === Number(dispatch.processId));
  const submit = useMutation({
    mutationFn: (v: ReportValues) =>
      http.post<Row>(
        `/api/v1/work-dispatch/report/${dispatch.id}`,
        {
          flowCardId: card?.id,
          goodQuantity: String(v.goodQuantity ?? 0),
          workScrapQuantity: String(v.workScrapQuantity ?? 0),
          materialScrapQuantity: String(v.materialScrapQuantity ?? 0),
          scrapReason: v.scrapReason ?? null,
          reworkQuantity: String(v.reworkQuantity ?? 0),
          hours: v.hours == null || v.hours === '' ? null : String(v.hours),
        },
        { silent: true },
      ),
    onSuccess: (r) => {
      toast.success(`已报工 ${r.docNo}，等待审核`);
      invalidateResource(client, 'work-report');
      invalidateResource(client, 'work-dispatch');
      onClose();
    },
    onError: (e: ApiError) => setError(e.message),
  });
  const big = { size: 'large' as const, style: { width: '100%' } };
  return (
    <Modal
      open
      width={760}
      title={`报工 · ${dispatch.docNo}`}
      okText="提交报工"
      okButtonProps={{ size: 'large', disabled: !card, 'data-testid': 'report-submit' } as never}
      cancelButtonProps={{ size: 'large' }}
      confirmLoading={submit.isPending}
      onCancel={onClose}
      onOk={() =>
        form
          .validateFields()
          .then((v) => submit.mutate(v))
          .catch(() => undefined)
      }
      className="op-page"
      destroyOnHidden
    >
      <div className="op-scan">
        <Input
          autoFocus
          size="large"
          prefix={<ScanOutlined />}
          placeholder="扫描流转卡二维码或输入卡号，回车"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void scan()}
          aria-label="流转卡号"
          data-testid="report-card"
        />
        <Button size="large" onClick={() => void scan()}>
          查找
        </Button>
      </div>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {card && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 12 }}
          title={`流转卡 ${card.docNo}${card.heatNo ? ` · 炉号 ${card.heatNo}` : ''}：本工序到达 ${qty(step?.inputQuantity ?? 0)}，已报合格 ${qty(step?.goodQuantity ?? 0)}`}
        />
      )}
      <Form form={form} layout="vertical" name="quick-report" initialValues={{ goodQuantity: undefined }}>
        <Form.Item name="goodQuantity" label="合格数" rules={[{ required: true, message: '请填写合格数' }]}>
          <InputNumber min={0} precision={4} stringMode {...big} />
        </Form.Item>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr 1fr', gap: 12 }}>
          <Form.Item name="workScrapQuantity" label="工废">
            <InputNumber min={0} precision={4} stringMode {...big} />
          </Form.Item>
          <Form.Item name="materialScrapQuantity" label="料废">
            <InputNumber min={0} precision={4} stringMode {...big} />
          </Form.Item>
          <Form.Item name="reworkQuantity" label="返工">
            <InputNumber min={0} precision={4} stringMode {...big} />
          </Form.Item>
        </div>
        <div style={{ display: 'grid', gridTemplateColumns: '2fr 1fr', gap: 12 }}>
          <Form.Item
            name="scrapReason"
            label="废品原因"
            dependencies={['workScrapQuantity', 'materialScrapQuantity']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_r, v) =>
                  v ||
                  !(
                    Number(getFieldValue('workScrapQuantity') || 0) +
                    Number(getFieldValue('materialScrapQuantity') || 0)
                  )
                    ? Promise.resolve()
                    : Promise.reject(new Error('有废品时请选择废品原因')),
              }),
            ]}
          >
            <Select size="large" allowClear options={SCRAP_REASON_OPTIONS} placeholder="有废品时必填" />
          </Form.Item>
          <Form.Item name="hours" label="工时(小时)">
            <InputNumber min={0} max={24} precision={2} stringMode {...big} />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}
