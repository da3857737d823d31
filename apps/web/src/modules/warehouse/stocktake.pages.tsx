import '../../platform/resource/kit.css';
import './warehouse.css';
import {
  ArrowLeftOutlined,
  CloudDownloadOutlined,
  DownloadOutlined,
  FileSearchOutlined,
  PrinterOutlined,
  SaveOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { QUALITY_STATUS } from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Result,
  Skeleton,
  Space,
  Table,
  Upload,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../platform/api/errors.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import type { PageProps } from '../../platform/page.ts';
import { LifecycleActions } from '../../platform/resource/lifecycle-actions.tsx';
import { idFromSearch, leavePage, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { PrintView } from '../../platform/ui/print-view.tsx';
import { Dash, QualityTag, SignedQty, StatusTag, useRefreshDocs } from './shared.tsx';
import { DocLedger } from './stock-doc-kit.tsx';
import { docApi, qty, type Row, STOCKTAKE_PATHS, stockApi, stocktakeResource } from './warehouse.api.ts';

const api = docApi(stocktakeResource);
const warehouseField = {
  name: 'warehouseId',
  label: '盘点仓库',
  kind: 'ref' as const,
  ref: 'warehouse-management',
};

function NewStocktakeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ warehouseId: number; bizDate?: Dayjs; remark?: string }>();
  const [saving, setSaving] = useState(false);
  const refresh = useRefreshDocs(stocktakeResource);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const created = await api.add({
        warehouseId: v.warehouseId,
        bizDate: v.bizDate ? v.bizDate.format('YYYY-MM-DD') : null,
        remark: v.remark || null,
        lines: [],
      });
      // Fill the book quantities straight away: counting starts from the snapshot.
      await stockApi.snapshot(created.id);
      toast.success(`已创建盘点单 ${created.docNo} 并取数`);
      refresh();
      onClose();
      form.resetFields();
      openResourcePage(STOCKTAKE_PATHS.detail, created.id);
    } catch (e) {
      if (isApiError(e)) toast.error(e.message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title="新增盘点单"
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText="创建并取数"
      cancelText="取消"
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="wh-new-stocktake">
        <Form.Item
          name="warehouseId"
          label="盘点仓库"
          rules={[{ required: true, message: '请选择盘点仓库' }]}
        >
          <RefSelect field={warehouseField} />
        </Form.Item>
        <Form.Item name="bizDate" label="业务日期" tooltip="不填则为今天">
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 500, message: '不超过 500 个字符' }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A count is entered on its detail page: 编辑 of a draft opens it there. */
const ROUTES = {
  list: STOCKTAKE_PATHS.list,
  detail: STOCKTAKE_PATHS.detail,
  edit: STOCKTAKE_PATHS.detail,
  formOnPage: true,
};

/** 盘点单 list: the kit's; 新增盘点单 names the warehouse and takes its book quantities (取数) at once. */
export function StocktakeListPage({ path }: PageProps) {
  const [adding, setAdding] = useState(false);
  return (
    <>
      <ResourceListPage
        def={stocktakeResource}
        path={path}
        routes={ROUTES}
        onAdd={() => setAdding(true)}
        onTransition={useRefreshDocs(stocktakeResource)}
      />
      <NewStocktakeModal open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

type Counts = Record<number, number | null>;

/**
 * 盘点单详情: 取数 (book quantities of the warehouse), 实盘数量 entered in the table or by the
 * Excel count sheet, 盈亏 coloured, 保存 and 过账 (gains and losses become ledger moves).
 */
export function StocktakeDetailPage({ path }: PageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const can = usePermission();
  const client = useQueryClient();
  const refresh = useRefreshDocs(stocktakeResource);
  const [counts, setCounts] = useState<Counts>({});
  const [busy, setBusy] = useState<string | undefined>();
  const [printing, setPrinting] = useState(false);
  const [onlyDiff, setOnlyDiff] = useState(false);
  const record = useQuery({
    queryKey: ['resource', 'stocktake', 'info', id],
    queryFn: () => api.info(id as number),
    enabled: Boolean(id),
  });
  const row = record.data;
  const lines: Row[] = useMemo(() => row?.lines ?? [], [row]);
  useEffect(() => {
    setCounts(
      Object.fromEntries(
        lines.map((l) => [l.id, l.countedQuantity == null ? null : Number(l.countedQuantity)]),
      ),
    );
  }, [lines]);
  const back = () => leavePage(path, STOCKTAKE_PATHS.list);
  if (!id || record.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title="盘点单不存在或已被删除"
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  if (!row) {
    return (
      <PageCard>
        <Skeleton active paragraph={{ rows: 8 }} />
      </PageCard>
    );
  }
  const draft = row.status === 'draft';
  const editable = draft && can('warehouse:stocktake:edit');
  const dirty = lines.some(
    (l) => (l.countedQuantity == null ? null : Number(l.countedQuantity)) !== (counts[l.id] ?? null),
  );
  const diffOf = (l: Record<string, any>) => {
    const c = counts[l.id];
    if (c === null || c === undefined) return null;
    return c - Number(l.bookQuantity ?? 0);
  };
  const reload = async () => {
    await client.invalidateQueries({ queryKey: ['resource', 'stocktake'] });
  };

  const save = async (quiet = false) => {
    setBusy('save');
    try {
      await api.edit(row.id, {
        warehouseId: row.warehouseId,
        bizDate: row.bizDate,
        remark: row.remark,
        version: row.version,
        lines: lines.map((l) => ({
          materialId: l.materialId,
          locationId: l.locationId,
          batchNo: l.batchNo,
          qualityStatus: l.qualityStatus,
          countedQuantity: counts[l.id] ?? null,
          remark: l.remark,
        })),
      });
      if (!quiet) toast.success('实盘数量已保存');
      await reload();
      return true;
    } catch (e) {
      if (isApiError(e)) toast.error(e.message);
      return false;
    } finally {
      setBusy(undefined);
    }
  };

  const snapshot = () => {
    const run = async () => {
      setBusy('snapshot');
      try {
        await stockApi.snapshot(row.id);
        toast.success('已按当前账面库存取数');
        await reload();
      } catch {
        // shown
      } finally {
        setBusy(undefined);
      }
    };
    if (!lines.length) return void run();
    Modal.confirm({
      title: '重新取数',
      content: '重新取数会按仓库当前账面库存重建明细，已录入的实盘数量将被清空。确定继续吗？',
      okText: '取数',
      cancelText: '取消',
      onOk: run,
    });
  };

  const sheet = async () => {
    setBusy('sheet');
    try {
      if (dirty && !(await save(true))) return;
      await stockApi.countSheet(row.id);
    } catch {
      // shown
    } finally {
      setBusy(undefined);
    }
  };

  // The report reads saved counts: unsaved ones are saved first.
  const report = async () => {
    if (dirty && !(await save(true))) return;
    openResourcePage(STOCKTAKE_PATHS.report, row.id);
  };

  const importFile = async (file: File) => {
    setBusy('import');
    try {
      await stockApi.importCounts(row.id, file);
      toast.success('盘点表已导入');
      await reload();
    } catch {
      // shown
    } finally {
      setBusy(undefined);
    }
  };

  const counted = lines.filter((l) => counts[l.id] !== null && counts[l.id] !== undefined);
  const gains = counted.reduce((s, l) => s + Math.max(0, diffOf(l) ?? 0), 0);
  const losses = counted.reduce((s, l) => s + Math.min(0, diffOf(l) ?? 0), 0);
  const shown = onlyDiff ? lines.filter((l) => (diffOf(l) ?? 0) !== 0) : lines;

  return (
    <>
      <PageCard
        title={
          <span className="wh-detail-head">
            盘点单 <span data-testid="doc-no">{row.docNo}</span> <StatusTag value={row.status} />
          </span>
        }
        extra={
          <Space wrap>
            {editable && (
              <Button icon={<CloudDownloadOutlined />} loading={busy === 'snapshot'} onClick={snapshot}>
                取数
              </Button>
            )}
            <Button
              icon={<DownloadOutlined />}
              loading={busy === 'sheet'}
              onClick={() => void sheet()}
              disabled={!lines.length}
            >
              下载盘点表
            </Button>
            {editable && (
              <Upload
                accept=".xlsx"
                showUploadList={false}
                beforeUpload={(file) => {
                  void importFile(file);
                  return false;
                }}
              >
                <Button icon={<UploadOutlined />} loading={busy === 'import'}>
                  导入盘点表
                </Button>
              </Upload>
            )}
            {editable && (
              <Button
                icon={<SaveOutlined />}
                loading={busy === 'save'}
                disabled={!dirty}
                onClick={() => void save()}
              >
                保存实盘
              </Button>
            )}
            {draft && dirty ? (
              <Button type="primary" onClick={() => toast.warning('请先保存实盘数量再过账')}>
                过账
              </Button>
            ) : (
              <LifecycleActions
                def={stocktakeResource}
                record={row}
                onDone={() => {
                  refresh();
                  void reload();
                }}
              />
            )}
            <Button icon={<FileSearchOutlined />} onClick={() => void report()} disabled={!lines.length}>
              差异报告
            </Button>
            <Button icon={<PrinterOutlined />} onClick={() => setPrinting(true)}>
              打印
            </Button>
            <Button icon={<ArrowLeftOutlined />} onClick={back}>
              返回
            </Button>
          </Space>
        }
      >
        <Descriptions
          size="small"
          column={3}
          bordered
          items={[
            { key: 'wh', label: '盘点仓库', children: row.warehouseName },
            { key: 'date', label: '业务日期', children: row.bizDate },
            { key: 'post', label: '过账时间', children: row.postedAt || <Dash /> },
            { key: 'lines', label: '明细行数', children: `${lines.length}（已录入 ${counted.length}）` },
            {
              key: 'diff',
              label: '盘盈 / 盘亏',
              children: (
                <span data-testid="stocktake-summary">
                  <SignedQty value={gains} /> / <SignedQty value={losses} />
                </span>
              ),
            },
            { key: 'remark', label: '备注', children: row.remark || <Dash /> },
          ]}
        />
        <div className="wh-section-title" style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>盘点明细</span>
          <Button size="small" type={onlyDiff ? 'primary' : 'default'} onClick={() => setOnlyDiff((v) => !v)}>
            {onlyDiff ? '显示全部' : '只看有差异'}
          </Button>
        </div>
        <Table<Row>
          size="small"
          rowKey="id"
          dataSource={shown}
          data-testid="stocktake-lines"
          scroll={{ x: 'max-content' }}
          pagination={shown.length > 50 ? { pageSize: 50, showTotal: (t) => `共 ${t} 条` } : false}
          locale={{ emptyText: draft ? '暂无明细：点击「取数」按仓库账面库存生成' : '无明细' }}
          columns={[
            { title: '行', dataIndex: 'lineNo', width: 48 },
            { title: '物料', dataIndex: 'materialName', width: 180 },
            { title: '库位', dataIndex: 'locationName', width: 120, render: (v) => v || <Dash /> },
            { title: '批次号', dataIndex: 'batchNo', width: 110, render: (v) => v || <Dash /> },
            {
              title: '质量状态',
              dataIndex: 'qualityStatus',
              width: 88,
              render: (v) => <QualityTag value={v} />,
            },
            {
              title: '账面数量',
              dataIndex: 'bookQuantity',
              width: 110,
              align: 'right',
              render: (v) => qty(v),
            },
            {
              title: '实盘数量',
              key: 'counted',
              width: 140,
              render: (_, l) =>
                editable ? (
                  <InputNumber
                    aria-label={`第${l.lineNo}行实盘数量`}
                    value={counts[l.id] ?? null}
                    min={0}
                    precision={4}
                    style={{ width: '100%' }}
                    onChange={(v) => setCounts((c) => ({ ...c, [l.id]: v === null ? null : Number(v) }))}
                  />
                ) : (
                  qty(l.countedQuantity) || <Dash />
                ),
            },
            {
              title: '盈亏数量',
              key: 'diff',
              width: 110,
              align: 'right',
              render: (_, l) => <SignedQty value={diffOf(l)} />,
            },
            { title: '备注', dataIndex: 'remark', width: 140, render: (v) => v || <Dash /> },
          ]}
        />
        {row.status !== 'draft' && (
          <>
            <div className="wh-section-title">盘盈盘亏流水</div>
            <DocLedger docNo={row.docNo} />
          </>
        )}
        <div className="rm-muted" style={{ marginTop: 12, fontSize: 12 }}>
          创建 {formatTime(row.createdAt)}，最后更新 {formatTime(row.updatedAt)}
          。过账时按当时的账面数量重新计算盈亏。
        </div>
      </PageCard>
      {printing && (
        <PrintView
          onClose={() => setPrinting(false)}
          doc={{
            docName: '盘点单',
            docNo: row.docNo,
            fields: [
              { label: '盘点仓库', value: row.warehouseName },
              { label: '业务日期', value: row.bizDate },
              {
                label: '状态',
                value: row.status === 'draft' ? '草稿' : row.status === 'posted' ? '已过账' : '已冲销',
              },
              { label: '备注', value: row.remark },
            ],
            columns: [
              { title: '物料', render: (l) => l.materialName, width: '24%' },
              { title: '库位', render: (l) => l.locationName ?? '' },
              { title: '批次号', render: (l) => l.batchNo ?? '' },
              {
                title: '质量',
                render: (l) => QUALITY_STATUS.find((q) => q.value === l.qualityStatus)?.label ?? '',
              },
              { title: '账面数量', render: (l) => qty(l.bookQuantity), numeric: true },
              { title: '实盘数量', render: (l) => qty(counts[l.id] ?? l.countedQuantity), numeric: true },
              { title: '盈亏', render: (l) => qty(diffOf(l)), numeric: true },
            ],
            lines,
            signatures: ['盘点人', '仓管', '审核'],
          }}
        />
      )}
    </>
  );
}
