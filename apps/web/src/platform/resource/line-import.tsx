import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { LineDef, ResourceDef } from '@ringmes/domain';
import { Button, Modal, Table, Upload } from 'antd';
import { useState } from 'react';
import { ApiError } from '../api/errors.ts';
import { toast } from '../feedback.ts';
import { postWorkbook } from './import-modal.tsx';
import { type ImportReport, resourceApi } from './resource-api.ts';

interface LineImport {
  total: number;
  lines: Record<string, unknown>[];
  errors: ImportReport['errors'];
}

/**
 * 导入明细 and 明细模板 under a document's line table: the server reads the sheet (物料 by code or
 * name, units, numbers, dates) and checks every row as the save would; valid sheets add their
 * lines to the form, others show each bad cell by row and column and add nothing.
 */
export function LineImport({
  def,
  line,
  disabled,
  room,
  onLines,
}: {
  def: ResourceDef;
  line: LineDef;
  disabled?: boolean;
  /** How many more lines the table takes. */
  room: number;
  onLines: (lines: Record<string, unknown>[]) => void;
}) {
  const api = resourceApi(def);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ImportReport['errors']>();
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const answer = await postWorkbook<LineImport>(api.importLinesUrl, file, () => {});
      if (answer.errors.length) setErrors(answer.errors);
      else if (!answer.lines.length) toast.warning('表中没有明细行');
      else if (answer.lines.length > room)
        toast.error(`${line.label}最多还能添加 ${room} 行，表中有 ${answer.lines.length} 行`);
      else {
        onLines(answer.lines);
        toast.success(`已导入 ${answer.lines.length} 行${line.label}，保存单据后生效`);
      }
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : '导入失败');
    } finally {
      setBusy(false);
    }
    return false;
  };
  return (
    <>
      <Upload accept=".xlsx" showUploadList={false} beforeUpload={upload} disabled={disabled || busy}>
        <Button icon={<UploadOutlined />} loading={busy} disabled={disabled}>
          导入明细
        </Button>
      </Upload>
      <Button
        type="link"
        icon={<DownloadOutlined />}
        onClick={() => void api.downloadLineTemplate().catch((e: Error) => toast.error(e.message))}
      >
        明细模板
      </Button>
      <Modal
        open={!!errors}
        title={`导入明细：${new Set(errors?.map((e) => e.row)).size} 行有错误，未导入`}
        footer={<Button onClick={() => setErrors(undefined)}>知道了</Button>}
        onCancel={() => setErrors(undefined)}
        width={640}
      >
        <Table
          size="small"
          rowKey={(e) => `${e.row}-${e.column}`}
          dataSource={errors ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          data-testid="line-import-errors"
          columns={[
            { title: '行', dataIndex: 'row', width: 60 },
            { title: '列', dataIndex: 'column', width: 120 },
            { title: '错误', dataIndex: 'message' },
          ]}
        />
      </Modal>
    </>
  );
}
