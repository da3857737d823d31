import {
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
} from '@ant-design/icons';
import { Button, Empty, Image, Modal, Popconfirm, Space } from 'antd';
import type { ReactNode } from 'react';
import { download } from '../../platform/api/download.ts';

export interface Attachment {
  id: number;
  fileName: string;
  mimeType: string;
  size: number;
  createdAt?: string;
  createdByName?: string | null;
}

/** Shown in the browser (the server sends them inline): PDF and raster images. */
export const PREVIEWABLE = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** A file through the attachment routes (its owner's read permission). */
export const attachmentUrl = (id: number, inline = false) =>
  `/api/v1/attachment/download/${id}${inline ? '?inline=true' : ''}`;

/** 1.2 MB, 36 KB, 512 B. */
export function fileSize(bytes: number): string {
  if (bytes >= 1_048_576) return `${(bytes / 1_048_576).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export const fileIcon = (mime: string) =>
  mime === 'application/pdf' ? (
    <FilePdfOutlined />
  ) : mime.startsWith('image/') ? (
    <FileImageOutlined />
  ) : (
    <FileOutlined />
  );

/**
 * A file's buttons: 预览 (PDF and images), 下载, and 删除 with a confirmation when `onRemove` is
 * given (the owner's write permission and state allow it).
 */
export function AttachmentActions({
  file,
  onPreview,
  onRemove,
  noun = '附件',
}: {
  file: Attachment;
  onPreview: (file: Attachment) => void;
  onRemove?: (id: number) => Promise<unknown>;
  noun?: string;
}) {
  return (
    <>
      {PREVIEWABLE.includes(file.mimeType) && (
        <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => onPreview(file)}>
          预览
        </Button>
      )}
      <Button
        size="small"
        type="link"
        icon={<DownloadOutlined />}
        onClick={() => void download(attachmentUrl(file.id), undefined, file.fileName).catch(() => undefined)}
      >
        下载
      </Button>
      {onRemove && (
        <Popconfirm
          title={`删除${noun}「${file.fileName}」？`}
          okText="删除"
          cancelText="取消"
          onConfirm={() => onRemove(file.id).catch(() => undefined)}
        >
          <Button size="small" type="link" danger icon={<DeleteOutlined />}>
            删除
          </Button>
        </Popconfirm>
      )}
    </>
  );
}

/**
 * A file in a modal: PDF in a frame (the browser's viewer), images in antd Image (zoom and rotate
 * on click), other types a note with 下载. `url` is the route that serves it (default the attachment
 * download; a flow card's drawing has its own); `header` goes above the file (a file switcher).
 */
export function AttachmentPreview({
  file,
  onClose,
  url = attachmentUrl,
  title,
  header,
}: {
  file: Attachment;
  onClose: () => void;
  url?: (id: number, inline?: boolean) => string;
  title?: ReactNode;
  header?: ReactNode;
}) {
  const pdf = file.mimeType === 'application/pdf';
  return (
    <Modal
      open
      title={title ?? file.fileName}
      width={pdf ? 960 : 720}
      onCancel={onClose}
      footer={
        <Space>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void download(url(file.id), undefined, file.fileName).catch(() => undefined)}
          >
            下载
          </Button>
          <Button type="primary" onClick={onClose}>
            关闭
          </Button>
        </Space>
      }
      destroyOnHidden
    >
      {header}
      {!PREVIEWABLE.includes(file.mimeType) ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={`${file.fileName}（${fileSize(file.size)}）不能在浏览器中预览，请下载后查看`}
        />
      ) : pdf ? (
        <iframe
          title={file.fileName}
          src={url(file.id, true)}
          style={{ width: '100%', height: '70vh', border: 0 }}
          data-testid="pdf-preview"
        />
      ) : (
        <div style={{ textAlign: 'center' }}>
          <Image
            src={url(file.id, true)}
            alt={file.fileName}
            style={{ maxHeight: '70vh' }}
            data-testid="image-preview"
          />
        </div>
      )}
    </Modal>
  );
}
