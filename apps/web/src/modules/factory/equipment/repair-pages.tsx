import { CameraOutlined, DeleteOutlined } from '@ant-design/icons';
import { REPAIR_OPEN_STATES } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Image, Popconfirm, Space, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { clientHooks, http } from '../../../platform/api/client.ts';
import { buildAuthHeaders } from '../../../platform/api/headers.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { ResourceFormPage } from '../../../platform/resource/resource-form.page.tsx';
import type { ResourcePageProps } from '../../../platform/resource/routes.ts';

/**
 * 报修 with photos: the report form takes photos (sent once the request is saved), and the
 * detail and view pages show them (click to enlarge) and take more while the repair is open.
 * The files live in the attachment store under owner `equipment-repair`.
 */

const OWNER = 'equipment-repair';
const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

interface Photo {
  id: number;
  fileName: string;
  mimeType: string;
  size: number;
  createdAt: string;
  createdByName?: string | null;
}

const photoUrl = (id: number) => `/api/v1/attachment/download/${id}?inline=true`;
const uploadUrl = (repairId: number) =>
  `${clientHooks().baseUrl ?? ''}/api/v1/attachment/upload/${OWNER}/${repairId}`;
const authHeaders = () => buildAuthHeaders(clientHooks().getToken(), clientHooks().getIdentity());

/** Sends one file to a repair; answers the server's Chinese message on refusal. */
async function sendPhoto(repairId: number, file: File): Promise<string | undefined> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(uploadUrl(repairId), { method: 'POST', headers: authHeaders(), body: form });
  if (res.ok) return undefined;
  const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
  return body?.message ?? `上传失败（${res.status}）`;
}

/** 新增报修: the kit's form with a photo picker; the photos go up after the request is saved. */
export function RepairReportPage(props: ResourcePageProps) {
  const [files, setFiles] = useState<UploadFile[]>([]);
  return (
    <ResourceFormPage
      {...props}
      extra={
        <div className="rk-form-section">
          <div className="rk-form-section-title">现场照片</div>
          <Upload
            accept={ACCEPT}
            listType="picture"
            multiple
            fileList={files}
            beforeUpload={(file) => {
              setFiles((list) => [...list, file as UploadFile]);
              return false;
            }}
            onRemove={(file) => setFiles((list) => list.filter((f) => f.uid !== file.uid))}
          >
            <Button icon={<CameraOutlined />} data-testid="repair-photo-pick">
              选择照片
            </Button>
          </Upload>
          <Typography.Text type="secondary">可拍照或选择图片，保存报修单时一并上传</Typography.Text>
        </div>
      }
      afterSave={async (saved: ResourceRow) => {
        const failed: string[] = [];
        for (const f of files) {
          const message = await sendPhoto(Number(saved.id), (f.originFileObj ?? f) as File);
          if (message) failed.push(`${f.name}：${message}`);
        }
        if (failed.length) toast.error(`报修单已保存，但照片上传失败：${failed.join('；')}`);
        else if (files.length) toast.success(`已上传 ${files.length} 张照片`);
        setFiles([]);
      }}
    />
  );
}

/** The photos of one repair: thumbnails (antd Image previews on click), upload and delete while open. */
export function RepairPhotos({ repair }: { repair: ResourceRow }) {
  const id = Number(repair.id);
  const can = usePermission();
  const client = useQueryClient();
  const key = ['attachment', OWNER, id];
  const photos = useQuery({
    queryKey: key,
    queryFn: () => http.get<Photo[]>(`/api/v1/attachment/list/${OWNER}/${id}`),
  });
  const open = REPAIR_OPEN_STATES.includes(String(repair.status));
  const writable = open && can('factory:repair:add');
  const [uploading, setUploading] = useState(false);
  const remove = useMutation({
    mutationFn: (photoId: number) => http.delete(`/api/v1/attachment/delete/${photoId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  const list = photos.data ?? [];
  return (
    <div className="rk-form-section" data-testid="repair-photos">
      <div className="rk-form-section-title">现场照片{list.length ? `（${list.length}）` : ''}</div>
      {list.length === 0 && !photos.isLoading && <Typography.Text type="secondary">没有照片</Typography.Text>}
      <Image.PreviewGroup>
        <Space wrap size={12}>
          {list.map((p) => (
            <div key={p.id} style={{ textAlign: 'center' }}>
              <Image
                width={120}
                height={90}
                style={{ objectFit: 'cover' }}
                src={photoUrl(p.id)}
                alt={p.fileName}
                data-testid="repair-photo"
              />
              <div style={{ fontSize: 12 }}>
                <Typography.Text
                  type="secondary"
                  title={`${p.createdByName ?? ''} ${formatTime(p.createdAt)}`}
                >
                  {p.fileName.length > 14 ? `${p.fileName.slice(0, 12)}…` : p.fileName}
                </Typography.Text>
                {writable && (
                  <Popconfirm title="删除这张照片？" onConfirm={() => remove.mutate(p.id)}>
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label="删除照片" />
                  </Popconfirm>
                )}
              </div>
            </div>
          ))}
        </Space>
      </Image.PreviewGroup>
      {writable && (
        <div style={{ marginTop: 8 }}>
          <Upload
            accept={ACCEPT}
            multiple
            showUploadList={false}
            beforeUpload={(file) => {
              setUploading(true);
              void sendPhoto(id, file)
                .then((message) => {
                  if (message) toast.error(`${file.name}：${message}`);
                  else toast.success(`已上传 ${file.name}`);
                })
                .finally(() => {
                  setUploading(false);
                  void client.invalidateQueries({ queryKey: key });
                });
              return false;
            }}
          >
            <Button icon={<CameraOutlined />} loading={uploading} data-testid="repair-photo-upload">
              上传照片
            </Button>
          </Upload>
        </div>
      )}
    </div>
  );
}

/** 报修详情 and 查看报修: the kit's detail with the photos. */
export function RepairDetailPage(props: ResourcePageProps) {
  return <ResourceDetailPage {...props} sections={(row) => <RepairPhotos repair={row} />} />;
}
