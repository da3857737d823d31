import { UploadOutlined } from '@ant-design/icons';
import { REVISION_ATTACHMENT_OWNER, REVISION_STATES, type ResourceDef } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Space, Table, type TableColumnsType, Tag, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { clientHooks, http } from '../../platform/api/client.ts';
import { buildAuthHeaders } from '../../platform/api/headers.ts';
import { useRecordPermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import { type ResourceRow, resourceKeys } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import {
  type Attachment,
  AttachmentActions,
  AttachmentPreview,
  fileIcon,
  fileSize,
} from './attachment-preview.tsx';

interface Revision {
  id: number;
  revisionNo: string;
  changeNote: string | null;
  status: string;
  approvedAt: string | null;
  approvedByName: string | null;
  publishedAt: string | null;
  publishedByName: string | null;
  supersededAt: string | null;
  createdAt: string;
  createdByName: string | null;
  attachments: Attachment[];
}

const revisionsKey = (id: number) => [...resourceKeys.all('technical-document'), 'revisions', id] as const;

/**
 * 技术文档详情: the kit's detail (fields, 新版本/审批/发布/作废 from the lifecycle) and the
 * revisions, newest first, each with its files: upload with progress into the draft revision,
 * preview of PDFs (in a frame) and images, download.
 */
export function TechnicalDocumentDetailPage(props: ResourcePageProps) {
  return <ResourceDetailPage {...props} sections={(doc) => <Revisions def={props.def} doc={doc} />} />;
}

function Revisions({ def, doc }: { def: ResourceDef; doc: ResourceRow }) {
  const may = useRecordPermission(def);
  const client = useQueryClient();
  const [preview, setPreview] = useState<Attachment>();
  const revisions = useQuery({
    queryKey: revisionsKey(doc.id),
    queryFn: () => http.get<Revision[]>(`/api/v1/technical-document/revisions/${doc.id}`),
  });
  const refresh = () => client.invalidateQueries({ queryKey: resourceKeys.all('technical-document') });
  const remove = useMutation({
    mutationFn: (id: number) => http.delete(`/api/v1/attachment/delete/${id}`),
    onSuccess: () => {
      toast.success('文件已删除');
      void refresh();
    },
  });
  const canEdit = may('edit');

  const columns: TableColumnsType<Revision> = [
    {
      title: '版本',
      key: 'revisionNo',
      width: 110,
      render: (_, r) => {
        const s = REVISION_STATES.find((x) => x.value === r.status);
        return (
          <Space size={4}>
            <Typography.Text strong>{r.revisionNo}</Typography.Text>
            <Tag color={s?.color} data-testid={`revision-status-${r.revisionNo}`}>
              {s?.label ?? r.status}
            </Tag>
          </Space>
        );
      },
    },
    { title: '变更说明', dataIndex: 'changeNote', width: 200, render: (v) => v || '-' },
    {
      title: '文件',
      key: 'files',
      width: 420,
      render: (_, r) => (
        <div className="td-files">
          {r.attachments.map((a) => (
            <div key={a.id} className="td-file" data-testid={`file-${a.fileName}`}>
              <Space size={4} wrap>
                {fileIcon(a.mimeType)}
                <span>{a.fileName}</span>
                <Typography.Text type="secondary">{fileSize(a.size)}</Typography.Text>
                <AttachmentActions
                  file={a}
                  noun="文件"
                  onPreview={setPreview}
                  onRemove={canEdit && r.status === 'draft' ? (id) => remove.mutateAsync(id) : undefined}
                />
              </Space>
            </div>
          ))}
          {canEdit && r.status === 'draft' && <RevisionUpload revision={r} onDone={refresh} />}
          {!r.attachments.length && r.status !== 'draft' && (
            <Typography.Text type="secondary">-</Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: '审批',
      key: 'approved',
      width: 170,
      render: (_, r) =>
        r.approvedAt ? (
          `${r.approvedByName ?? ''} ${formatTime(r.approvedAt)}`
        ) : (
          <span className="rm-muted">-</span>
        ),
    },
    {
      title: '发布',
      key: 'published',
      width: 170,
      render: (_, r) =>
        r.publishedAt ? (
          `${r.publishedByName ?? ''} ${formatTime(r.publishedAt)}`
        ) : (
          <span className="rm-muted">-</span>
        ),
    },
    {
      title: '创建',
      key: 'created',
      width: 170,
      render: (_, r) => `${r.createdByName ?? ''} ${formatTime(r.createdAt)}`,
    },
  ];

  return (
    <div className="rk-form-section" data-testid="document-revisions">
      <div className="rk-form-section-title">
        版本与文件
        <span className="rk-count">{revisions.data?.length ?? 0}</span>
      </div>
      <Table<Revision>
        rowKey="id"
        size="small"
        bordered
        loading={revisions.isLoading}
        columns={columns}
        dataSource={revisions.data ?? []}
        pagination={false}
        scroll={{ x: 1240 }}
        locale={{ emptyText: '暂无版本：点「新版本」建立版本后上传文件' }}
      />
      {preview && <AttachmentPreview file={preview} onClose={() => setPreview(undefined)} />}
    </div>
  );
}

/** Upload into a draft revision, one or more files, each with its progress bar. */
function RevisionUpload({ revision, onDone }: { revision: Revision; onDone: () => void }) {
  const [files, setFiles] = useState<UploadFile[]>([]);
  const hooks = clientHooks();
  return (
    <Upload
      name="file"
      multiple
      action={`${hooks.baseUrl ?? ''}/api/v1/attachment/upload/${REVISION_ATTACHMENT_OWNER}/${revision.id}`}
      headers={buildAuthHeaders(hooks.getToken(), hooks.getIdentity())}
      fileList={files}
      onChange={({ file, fileList }) => {
        if (file.status === 'done') {
          toast.success(`已上传 ${file.name}`);
          onDone();
        }
        if (file.status === 'error') {
          const message = (file.response as { message?: string } | undefined)?.message;
          toast.error(message ? `${file.name}：${message}` : `${file.name} 上传失败`);
        }
        // Finished and failed uploads leave the list: the revision's files show the stored ones.
        setFiles(fileList.filter((f) => f.status === 'uploading'));
      }}
    >
      <Button size="small" icon={<UploadOutlined />} data-testid={`upload-${revision.revisionNo}`}>
        上传文件
      </Button>
    </Upload>
  );
}
