import { InboxOutlined } from '@ant-design/icons';
import { GAUGE_ENCODING_LABELS, GAUGE_ENCODINGS, type GaugeEncoding } from '@ringmes/domain';
import { Alert, Button, Checkbox, Descriptions, Modal, Select, Space, Steps, Table, Upload } from 'antd';
import type { FormInstance } from 'antd/es/form';
import dayjs from 'dayjs';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { ApiError } from '../../platform/api/errors.ts';
import { toast } from '../../platform/feedback.ts';
import type { EntryHeader } from './measure-entry.page.tsx';

type Role = 'ignore' | 'value' | 'time' | 'group';

interface Report {
  rows: number;
  subgroups: number;
  values: number;
  imported: number;
  alarms: number;
  errors: { row: number; message: string }[];
  /** The encoding the server read a CSV in (null for .xlsx). */
  encoding: string | null;
  preview: string[][];
}

const ENCODING_NAMES: Record<string, string> = {
  'utf-8': 'UTF-8',
  gb18030: 'GB18030/GBK',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
};

const ROLE_OPTIONS = [
  { value: 'ignore', label: '忽略' },
  { value: 'value', label: '测量值' },
  { value: 'time', label: '测量时间' },
  { value: 'group', label: '子组号' },
];

/** A first guess of each column's role from the header and the first data row. */
function guess(preview: string[][], headerRow: boolean): Role[] {
  const head = preview[0] ?? [];
  const sample = preview[headerRow ? 1 : 0] ?? [];
  return head.map((h, i) => {
    if (/时间|日期|time|date/i.test(h)) return 'time';
    if (/组|group|sample/i.test(h) && !/值|value/i.test(h)) return 'group';
    return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(sample[i] ?? '') ? 'value' : 'ignore';
  });
}

/**
 * 导入量仪数据: pick the gauge's CSV or Excel export, map its columns (测量值, 测量时间, 子组号),
 * preview (the server reads the whole file and reports bad rows by number), then import. The
 * subgroup's header (product, machine, …) comes from the entry form.
 */
export function MeasureImportModal({
  header,
  onClose,
  onDone,
}: {
  header: FormInstance<EntryHeader>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [file, setFile] = useState<File>();
  const [headerRow, setHeaderRow] = useState(true);
  // Gauges write UTF-8 or GBK/GB18030 (Windows code page 936): auto reads either.
  const [encoding, setEncoding] = useState<GaugeEncoding>('auto');
  const [readAs, setReadAs] = useState<string | null>(null);
  const [roles, setRoles] = useState<Role[]>([]);
  const [report, setReport] = useState<Report>();
  const [preview, setPreview] = useState<string[][]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; errors: { field: string; message: string }[] }>();
  const step = report && !report.imported ? 2 : report?.imported ? 3 : file ? 1 : 0;

  async function send(
    f: File,
    mapping: Role[],
    dryRun: boolean,
    hasHeader = headerRow,
    enc = encoding,
  ): Promise<Report | undefined> {
    const h = await header.validateFields().catch(() => undefined);
    if (!h) {
      toast.warning('请先在录入区填写产品、测量特性、机台和操作工');
      return undefined;
    }
    const valueColumns = mapping.flatMap((r, i) => (r === 'value' ? [i] : []));
    const meta = {
      productId: h.productId,
      characteristic: h.characteristic,
      equipmentId: h.equipmentId,
      operatorId: h.operatorId,
      flowCardId: h.flowCardId ?? null,
      lsl: h.lsl ?? null,
      usl: h.usl ?? null,
      measuredAt: (h.measuredAt ?? dayjs()).format('YYYY-MM-DD HH:mm:ss'),
      subgroupSize: h.subgroupSize ?? 5,
      headerRow: hasHeader,
      valueColumns: valueColumns.length ? valueColumns : [0],
      timeColumn: mapping.indexOf('time') >= 0 ? mapping.indexOf('time') : null,
      groupColumn: mapping.indexOf('group') >= 0 ? mapping.indexOf('group') : null,
      encoding: enc,
      dryRun,
    };
    const body = new FormData();
    body.append('meta', JSON.stringify(meta));
    body.append('file', f, f.name);
    setBusy(true);
    setFailure(undefined);
    try {
      return await http.post<Report>('/api/v1/measurement-subgroup/importValues', body, {
        silent: true,
        timeout: 120_000,
      });
    } catch (e) {
      if (e instanceof ApiError) setFailure({ message: e.message, errors: e.errors });
      else toast.error(String(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function choose(f: File, enc = encoding) {
    setFile(f);
    setReport(undefined);
    const r = await send(f, ['value'], true, headerRow, enc);
    if (r) {
      setPreview(r.preview);
      setReadAs(r.encoding);
      setRoles(guess(r.preview, headerRow));
    }
  }

  const columns = (preview[0] ?? []).map((h, i) => ({
    key: i,
    width: 140,
    title: (
      <Space direction="vertical" size={4}>
        <Select<Role>
          size="small"
          style={{ width: 110 }}
          value={roles[i] ?? 'ignore'}
          options={ROLE_OPTIONS}
          onChange={(v) => {
            setReport(undefined);
            setRoles((old) => Object.assign([...old], { [i]: v }));
          }}
          data-testid={`map-col-${i}`}
        />
        <span>{headerRow ? h || `第 ${i + 1} 列` : `第 ${i + 1} 列`}</span>
      </Space>
    ),
    render: (_: unknown, row: { cells: string[] }) => row.cells[i] ?? '',
  }));
  const rows = preview.slice(headerRow ? 1 : 0).map((cells, k) => ({ key: k, cells }));

  return (
    <Modal
      open
      width={900}
      title="导入量仪数据"
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>{report?.imported ? '完成' : '取消'}</Button>
          {file && !report?.imported && (
            <Button
              loading={busy}
              onClick={async () => setReport(await send(file, roles, true))}
              disabled={!roles.includes('value')}
            >
              预览校验
            </Button>
          )}
          {report && !report.imported && (
            <Button
              type="primary"
              loading={busy}
              disabled={report.errors.length > 0}
              onClick={async () => {
                const r = await send(file as File, roles, false);
                if (r) {
                  setReport(r);
                  toast.success(`已导入 ${r.imported} 组、${r.values} 个测量值`);
                  onDone();
                }
              }}
              data-testid="import-confirm"
            >
              导入
            </Button>
          )}
        </Space>
      }
    >
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 16 }}
        items={[{ title: '选择文件' }, { title: '对应列' }, { title: '预览校验' }, { title: '完成' }]}
      />
      <Upload.Dragger
        accept=".csv,.txt,.xlsx"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(f) => {
          choose(f);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>
          {file ? `已选择：${file.name}（点击或拖入更换）` : '点击或拖入量仪导出的 CSV 或 Excel（.xlsx）文件'}
        </p>
        <p className="rm-muted">
          每行一组（多列测量值）或每行一个值（按子组容量或子组号分组）；产品、机台等取自录入区
        </p>
      </Upload.Dragger>
      {preview.length > 0 && (
        <>
          <Checkbox
            style={{ margin: '12px 0' }}
            checked={headerRow}
            onChange={(e) => {
              setHeaderRow(e.target.checked);
              setReport(undefined);
            }}
          >
            第一行是表头
          </Checkbox>
          {readAs && (
            <Space style={{ marginLeft: 16 }}>
              文件编码
              <Select<GaugeEncoding>
                size="small"
                style={{ width: 120 }}
                value={encoding}
                options={GAUGE_ENCODINGS.map((e) => ({ value: e, label: GAUGE_ENCODING_LABELS[e] }))}
                onChange={(v) => {
                  setEncoding(v);
                  if (file) choose(file, v);
                }}
                data-testid="import-encoding"
              />
              <span className="rm-muted" data-testid="import-encoding-read">
                按 {ENCODING_NAMES[readAs] ?? readAs} 读取
              </span>
            </Space>
          )}
          <Table
            size="small"
            bordered
            pagination={false}
            scroll={{ x: 'max-content' }}
            columns={columns}
            dataSource={rows}
            data-testid="import-preview"
          />
        </>
      )}
      {failure && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          message={failure.message}
          description={
            failure.errors.length > 0 && (
              <ul style={{ maxHeight: 200, overflow: 'auto', margin: 0 }} data-testid="import-errors">
                {failure.errors.slice(0, 100).map((e) => (
                  <li key={`${e.field}-${e.message}`}>
                    {e.field}：{e.message}
                  </li>
                ))}
              </ul>
            )
          }
        />
      )}
      {report && (
        <>
          <Descriptions size="small" bordered column={4} style={{ marginTop: 12 }}>
            <Descriptions.Item label="数据行">{report.rows}</Descriptions.Item>
            <Descriptions.Item label="子组">{report.subgroups}</Descriptions.Item>
            <Descriptions.Item label="测量值">{report.values}</Descriptions.Item>
            <Descriptions.Item label={report.imported ? '失控点' : '错误行'}>
              {report.imported ? report.alarms : report.errors.length}
            </Descriptions.Item>
          </Descriptions>
          {report.errors.length > 0 && (
            <Table
              style={{ marginTop: 12 }}
              size="small"
              rowKey={(e) => `${e.row}-${e.message}`}
              pagination={{ pageSize: 10 }}
              dataSource={report.errors}
              columns={[
                { title: '行号', dataIndex: 'row', width: 80 },
                { title: '问题', dataIndex: 'message' },
              ]}
              data-testid="import-errors"
            />
          )}
          {!report.errors.length && !report.imported && (
            <Alert style={{ marginTop: 12 }} type="success" message="全部数据校验通过，可以导入" />
          )}
        </>
      )}
    </Modal>
  );
}
