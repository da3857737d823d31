import { CheckCircleFilled, DownloadOutlined, FileExcelOutlined, InboxOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@ringmes/domain';
import { Alert, Button, Modal, Progress, Result, Steps, Table, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { clientHooks } from '../api/client.ts';
import { envelopeMessage, isEnvelope, isSuccessCode } from '../api/envelope.ts';
import { ApiError } from '../api/errors.ts';
import { buildAuthHeaders } from '../api/headers.ts';
import { toast } from '../feedback.ts';
import { type ImportReport, resourceApi } from './resource-api.ts';

type Phase = 'choose' | 'checking' | 'report' | 'importing' | 'done';

/**
 * Sends the workbook as the raw body with upload progress (fetch has none). Upload is the first
 * 60 % of the bar; the server's validation the rest, advancing slowly until it answers.
 */
export function postWorkbook<T = ImportReport>(
  url: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const hooks = clientHooks();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${hooks.baseUrl ?? ''}${url}`);
    const headers = {
      ...buildAuthHeaders(hooks.getToken(), hooks.getIdentity()),
      'Content-Type': 'application/octet-stream',
      Accept: 'application/json',
    };
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.timeout = 10 * 60_000;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 60));
    };
    let creep: ReturnType<typeof setInterval> | undefined;
    xhr.upload.onload = () => {
      let p = 60;
      creep = setInterval(() => {
        p = Math.min(95, p + Math.max(0.5, (95 - p) / 12));
        onProgress(Math.round(p));
      }, 250);
    };
    const done = () => creep && clearInterval(creep);
    xhr.onload = () => {
      done();
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (isEnvelope(body) && isSuccessCode(body.code)) {
        onProgress(100);
        resolve(body.result as T);
        return;
      }
      const message = isEnvelope(body)
        ? (envelopeMessage(body) ?? '导入失败')
        : `导入失败（HTTP ${xhr.status}）`;
      reject(
        new ApiError({
          message,
          code: isEnvelope(body) ? body.code : xhr.status,
          status: xhr.status,
          kind: 'business',
          errors: isEnvelope(body) ? body.errors : undefined,
        }),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError({ message: '网络连接失败，文件未上传', kind: 'network' }));
    };
    xhr.ontimeout = () => {
      done();
      reject(new ApiError({ message: '导入超时，请稍后重试', kind: 'timeout' }));
    };
    xhr.send(file);
  });
}

/** `第12行 物料编码` (a refused real import) → row 12, column 物料编码. */
function errorsFromRefusal(error: ApiError): ImportReport['errors'] {
  return error.errors.map((e) => {
    const m = /^第(\d+)行\s*(.*)$/.exec(e.field);
    return { row: m ? Number(m[1]) : 0, column: m ? m[2] : e.field, message: e.message };
  });
}

/**
 * 导入: download the template, upload a workbook, see the per-row report of a dry run (行 / 列 /
 * 错误), then 确认导入 writes every row or none.
 */
export function ImportModal({
  def,
  open,
  onClose,
  onImported,
}: {
  def: ResourceDef;
  open: boolean;
  onClose: () => void;
  onImported: (count: number) => void;
}) {
  const api = resourceApi(def);
  const [phase, setPhase] = useState<Phase>('choose');
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState(0);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [templateLoading, setTemplateLoading] = useState(false);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    if (open) {
      setPhase('choose');
      setFile(null);
      setReport(null);
      setFailure(null);
      setPercent(0);
    }
  }, [open]);

  const run = async (chosen: File, dryRun: boolean) => {
    setFailure(null);
    setPercent(0);
    setPhase(dryRun ? 'checking' : 'importing');
    try {
      const result = await postWorkbook(api.importUrl(dryRun), chosen, (p) => alive.current && setPercent(p));
      if (!alive.current) return;
      setReport(result);
      if (dryRun) setPhase('report');
      else {
        setPhase('done');
        toast.success(`成功导入 ${result.imported} 条${def.label}`);
        onImported(result.imported);
      }
    } catch (error) {
      if (!alive.current) return;
      const e = error instanceof ApiError ? error : new ApiError({ message: String(error), kind: 'http' });
      const rows = errorsFromRefusal(e);
      if (!dryRun && rows.length) {
        setReport((r) => ({ total: r?.total ?? 0, valid: r?.valid ?? 0, imported: 0, errors: rows }));
        setPhase('report');
      } else {
        setPhase(report && !dryRun ? 'report' : 'choose');
      }
      setFailure(e.message);
      toast.error(e.message);
    }
  };

  const choose = (f: File) => {
    if (!/\.xlsx$/i.test(f.name)) {
      toast.warning('请选择 .xlsx 格式的 Excel 文件');
      return false;
    }
    setFile(f);
    void run(f, true);
    return false;
  };

  const stepIndex = { choose: 0, checking: 1, report: 2, importing: 2, done: 3 }[phase];
  const errorRows = report ? new Set(report.errors.map((e) => e.row)).size : 0;
  const canImport = phase === 'report' && report && report.errors.length === 0 && report.valid > 0;

  const footer = [
    <Button key="close" onClick={onClose} disabled={phase === 'importing'}>
      {phase === 'done' ? '完成' : '取消'}
    </Button>,
  ];
  if (phase === 'report') {
    footer.unshift(
      <Button key="again" onClick={() => setPhase('choose')}>
        重新选择文件
      </Button>,
    );
    footer.push(
      <Button
        key="import"
        type="primary"
        disabled={!canImport}
        onClick={() => file && void run(file, false)}
        data-testid="import-confirm"
      >
        确认导入{report?.valid ? `（${report.valid} 条）` : ''}
      </Button>,
    );
  }

  return (
    <Modal
      title={`导入${def.label}`}
      open={open}
      onCancel={phase === 'importing' ? undefined : onClose}
      footer={footer}
      width={760}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Steps
        size="small"
        current={stepIndex}
        className="rk-import-steps"
        items={[{ title: '选择文件' }, { title: '上传校验' }, { title: '校验结果' }, { title: '完成导入' }]}
      />
      {phase === 'choose' && (
        <>
          <div className="rk-import-template">
            <FileExcelOutlined className="rk-import-xls" />
            <div>
              <div className="rk-import-template-title">第一步：下载导入模板</div>
              <div className="rm-muted">
                按模板第一行的列名填写，带 * 的列必填；引用类列填写编码或名称。「填写说明」页列出每列的要求。
              </div>
            </div>
            <Button
              icon={<DownloadOutlined />}
              loading={templateLoading}
              onClick={() => {
                setTemplateLoading(true);
                api
                  .downloadTemplate()
                  .catch(() => undefined)
                  .finally(() => setTemplateLoading(false));
              }}
            >
              下载模板
            </Button>
          </div>
          {failure && <Alert type="error" showIcon title={failure} className="rk-import-alert" />}
          <Upload.Dragger
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            multiple={false}
            showUploadList={false}
            beforeUpload={choose}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">第二步：点击或将 Excel 文件拖到此处上传</p>
            <p className="ant-upload-hint">仅支持 .xlsx，单次最多 20,000 行；先校验，确认无误后再导入</p>
          </Upload.Dragger>
        </>
      )}
      {(phase === 'checking' || phase === 'importing') && (
        <div className="rk-import-progress" data-testid="import-progress">
          <Progress type="circle" percent={percent} size={96} />
          <div className="rk-import-progress-text">
            {percent < 60 ? '正在上传' : phase === 'checking' ? '正在逐行校验' : '正在写入数据'}
            {file ? `：${file.name}` : ''}
          </div>
          <div className="rm-muted">大文件可能需要数十秒，请勿关闭窗口</div>
        </div>
      )}
      {phase === 'report' && report && (
        <div data-testid="import-report">
          {report.errors.length === 0 ? (
            <Alert
              type="success"
              showIcon
              title={`校验通过：共 ${report.total} 行，全部有效`}
              description="点击「确认导入」写入全部数据。"
              className="rk-import-alert"
            />
          ) : (
            <Alert
              type="error"
              showIcon
              title={`校验未通过：共 ${report.total} 行，其中 ${errorRows} 行有错误（${report.errors.length} 处）`}
              description="导入是全部成功或全部不导入：请按下表修改 Excel 后重新上传。"
              className="rk-import-alert"
            />
          )}
          {failure && <Alert type="error" showIcon title={failure} className="rk-import-alert" />}
          {report.errors.length > 0 && (
            <Table
              size="small"
              bordered
              rowKey={(e) => `${e.row}-${e.column}-${e.message}`}
              dataSource={report.errors}
              pagination={{ pageSize: 8, size: 'small', showTotal: (t) => `共 ${t} 处错误` }}
              columns={[
                { title: '行', dataIndex: 'row', width: 70, align: 'center' },
                { title: '列', dataIndex: 'column', width: 140 },
                { title: '错误', dataIndex: 'message' },
              ]}
              data-testid="import-errors"
            />
          )}
        </div>
      )}
      {phase === 'done' && report && (
        <Result
          icon={<CheckCircleFilled style={{ color: '#52c41a' }} />}
          title={`成功导入 ${report.imported} 条${def.label}`}
          subTitle="列表已刷新。"
        />
      )}
    </Modal>
  );
}
