import { UploadOutlined } from '@ant-design/icons';
import { SALE_ORDER_ATTACHMENT_OWNER, SALE_ORDER_FILES_OPEN } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Space, Table, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { clientHooks, http } from '../../platform/api/client.ts';
import { buildAuthHeaders } from '../../platform/api/headers.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import {
  type Attachment,
  AttachmentActions,
  AttachmentPreview,
  fileIcon,
  fileSize,
} from '../technology/attachment-preview.tsx';

const OWNER = SALE_ORDER_ATTACHMENT_OWNER;

/**
 * 附件 of a sales order (合同、图纸、技术协议): the files with 预览 (PDF and images), 下载 and, for
 * whoever may edit orders while the order is open, 上传 (several at once, with progress) and 删除.
 * Files are stored as soon as they are uploaded, independent of saving the order's form.
 */
export function SaleOrderAttachments({ orderId, status }: { orderId: number; status: string }) {
  const can = usePermission();
  const client = useQueryClient();
  const key = ['attachment', OWNER, orderId];
  const files = useQuery({
    queryKey: key,
    queryFn: () => http.get<Attachment[]>(`/api/v1/attachment/list/${OWNER}/${orderId}`),
  });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const remove = useMutation({
    mutationFn: (id: number) => http.delete(`/api/v1/attachment/delete/${id}`),
    onSuccess: () => {
      toast.success('附件已删除');
      void refresh();
    },
  });
  const [preview, setPreview] = useState<Attachment>();
  const [uploading, setUploading] = useState<UploadFile[]>([]);
  const writable =
    SALE_ORDER_FILES_OPEN.includes(status) && (can('sale:order:edit') || can('sale:order:add'));
  const list = files.data ?? [];
  const hooks = clientHooks();

  return (
    <div className="rk-form-section" data-testid="sale-order-attachments">
      <div className="rk-form-section-title">
        附件<span className="rk-count">{list.length}</span>
      </div>
      {writable && (
        <div style={{ marginBottom: 8 }}>
          <Upload
            name="file"
            multiple
            action={`${hooks.baseUrl ?? ''}/api/v1/attachment/upload/${OWNER}/${orderId}`}
            headers={buildAuthHeaders(hooks.getToken(), hooks.getIdentity())}
            fileList={uploading}
            onChange={({ file, fileList }) => {
              if (file.status === 'done') {
                toast.success(`已上传 ${file.name}`);
                void refresh();
              }
              if (file.status === 'error') {
                const message = (file.response as { message?: string } | undefined)?.message;
                toast.error(message ? `${file.name}：${message}` : `${file.name} 上传失败`);
              }
              // Finished and failed uploads leave the list: the table shows the stored files.
              setUploading(fileList.filter((f) => f.status === 'uploading'));
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="sale-order-attachment-upload">
              上传附件
            </Button>
          </Upload>
          <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
            合同、图纸、技术协议等，可多选；上传即保存
          </Typography.Text>
        </div>
      )}
      <Table<Attachment>
        rowKey="id"
        size="small"
        bordered
        loading={files.isLoading}
        dataSource={list}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有附件' }}
        columns={[
          {
            title: '文件名',
            dataIndex: 'fileName',
            width: 320,
            render: (name: string, a) => (
              <Space size={4}>
                {fileIcon(a.mimeType)}
                <span data-testid={`attachment-${name}`}>{name}</span>
              </Space>
            ),
          },
          { title: '大小', dataIndex: 'size', width: 90, align: 'right', render: (v: number) => fileSize(v) },
          { title: '上传人', dataIndex: 'createdByName', width: 100, render: (v) => v || '-' },
          { title: '上传时间', dataIndex: 'createdAt', width: 160, render: (v) => formatTime(v) },
          {
            title: '操作',
            key: 'actions',
            width: 200,
            render: (_, a) => (
              <Space size={0}>
                <AttachmentActions
                  file={a}
                  onPreview={setPreview}
                  onRemove={writable ? (id) => remove.mutateAsync(id) : undefined}
                />
              </Space>
            ),
          },
        ]}
      />
      {preview && <AttachmentPreview file={preview} onClose={() => setPreview(undefined)} />}
    </div>
  );
}
