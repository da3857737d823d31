import { FilePdfOutlined } from '@ant-design/icons';
import { Button, Segmented, Tooltip } from 'antd';
import { useState } from 'react';
import { type Attachment, AttachmentPreview, fileIcon } from './attachment-preview.tsx';

/**
 * The drawing in force for a product, as a flow card or a dispatch answers it (`drawing`; null
 * without a published one). Server: `drawingLinkFor` in technical-document.ts.
 */
export interface DrawingLink {
  documentId: number;
  docNo: string;
  title: string;
  revisionId: number;
  revisionNo: string;
  publishedAt: string | null;
  files: Attachment[];
}

/** `JS20261102-0001 版本 B`: the drawing as the button and the printed card name it. */
export const drawingText = (d: DrawingLink) => `${d.docNo} 版本 ${d.revisionNo}`;

/**
 * 「图纸」 of a flow card or an operator's sheet: opens the current revision's files in the
 * preview (a switcher when there are several). `url` is the route of the record the user reads
 * (`/api/v1/flow-card/drawing/{cardId}`), which serves only the current revision's files; without a
 * published drawing it shows 「无图纸」 muted.
 */
export function DrawingButton({
  drawing,
  url,
  label = '图纸',
  size,
}: {
  drawing: DrawingLink | null | undefined;
  url: string;
  label?: string;
  size?: 'small' | 'middle' | 'large';
}) {
  const [open, setOpen] = useState<number>();
  if (!drawing?.files.length)
    return (
      <span className="rm-muted" data-testid="drawing-none">
        无图纸
      </span>
    );
  const file = drawing.files.find((f) => f.id === open);
  return (
    <>
      <Tooltip title={drawing.title}>
        <Button
          size={size}
          icon={<FilePdfOutlined />}
          onClick={() => setOpen(drawing.files[0].id)}
          data-testid="drawing-open"
        >
          {label} {drawingText(drawing)}
        </Button>
      </Tooltip>
      {file && (
        <AttachmentPreview
          file={file}
          url={(id, inline) => `${url}/${id}${inline ? '?inline=true' : ''}`}
          title={`图纸 ${drawingText(drawing)} · ${drawing.title}`}
          header={
            drawing.files.length > 1 && (
              <Segmented
                style={{ marginBottom: 12 }}
                value={file.id}
                onChange={(v) => setOpen(Number(v))}
                options={drawing.files.map((f) => ({
                  value: f.id,
                  label: (
                    <span>
                      {fileIcon(f.mimeType)} {f.fileName}
                    </span>
                  ),
                }))}
              />
            )
          }
          onClose={() => setOpen(undefined)}
        />
      )}
    </>
  );
}
