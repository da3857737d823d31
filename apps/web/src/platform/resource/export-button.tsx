import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { type QueryParams, request } from '../api/client.ts';
import { download } from '../api/download.ts';
import { toast } from '../feedback.ts';

/** What `…/export` answers: the file at once, or a job to follow (server: platform/resource/excel-export.ts). */
type ExportAnswer =
  | { fileName: string; rows: number }
  | { jobId: string; total: number; background: boolean };

interface ExportJob {
  status: 'running' | 'done' | 'failed';
  total: number;
  done: number;
  fileName: string;
}

const POLL_MS = 1000;

/**
 * Runs an export and downloads the file. Small exports come back at once; from 20,000 rows the
 * server answers a job and the button shows its progress; above 100,000 rows the server finishes
 * in the background and sends the download link to 消息中心, so the user need not wait.
 */
async function runExport(url: string, params: QueryParams, onProgress: (percent: number) => void) {
  const answer = await request<ExportAnswer>({ url, params });
  if ('fileName' in answer) {
    await download('/common/download', { fileName: answer.fileName, delete: 'true' });
    return () => toast.success(`导出成功，共 ${answer.rows} 条`);
  }
  if (answer.background)
    return () => toast.info(`共 ${answer.total} 条，已转为后台导出；完成后请到消息中心下载`, 6);
  onProgress(0);
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const job = await request<ExportJob>({ url: `/api/v1/export-job/${answer.jobId}` });
    onProgress(Math.floor((job.done * 100) / Math.max(job.total, 1)));
    if (job.status === 'failed') return () => toast.error('导出失败，请稍后重试');
    if (job.status === 'done') {
      await download('/common/download', { fileName: job.fileName, delete: 'true' });
      return () => toast.success(`导出成功，共 ${job.done} 条`);
    }
  }
}

/** The 导出 button of a list: exports what `params()` filters, with progress for big exports. */
export function ExportButton({
  url,
  params,
  label = '导出',
  size,
}: {
  url: string;
  params: () => QueryParams;
  /** The button's text (导出所选 in a list's selection bar). */
  label?: string;
  size?: 'small' | 'middle';
}) {
  const [percent, setPercent] = useState<number>();
  // Failures of the calls are shown by the request layer.
  const run = useMutation({
    mutationFn: () => runExport(url, params(), setPercent).finally(() => setPercent(undefined)),
    onSuccess: (show) => show(),
  });
  return (
    <Button icon={<DownloadOutlined />} size={size} loading={run.isPending} onClick={() => run.mutate()}>
      {percent === undefined ? label : `导出中 ${percent}%`}
    </Button>
  );
}
