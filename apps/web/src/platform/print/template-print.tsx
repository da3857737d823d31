import { CloseOutlined, PrinterOutlined } from '@ant-design/icons';
import { PRINT_DOC_TYPES, type PrintDocTypeName, type PrintLayout, pageBox } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Select, Spin, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { LayoutPage, type PrintData } from './layout-page.tsx';
import { printDataOf } from './print-sources.ts';
import { printTemplateApi, printTemplateKeys } from './print-template.api.ts';

/**
 * The printout of records with a template, over the app: the type's default template (the
 * factory's, else the code's) or another of its templates chosen in the toolbar, one page per
 * record, 打印 through the browser (whose dialog also saves a PDF). The page size is the
 * template's, set as a named @page so other printouts keep theirs.
 */
export function TemplatePrint({
  docType,
  records,
  layout: fixedLayout,
  onClose,
}: {
  docType: PrintDocTypeName;
  /** Print data, or the ids to read it by (a list's selected rows). */
  records: PrintData[] | { ids: number[] };
  /** A layout being edited, instead of the stored templates. */
  layout?: PrintLayout;
  onClose: () => void;
}) {
  const [templateId, setTemplateId] = useState<number | 'default'>('default');
  useEffect(() => {
    document.body.classList.add('rm-tpl-printing');
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('rm-tpl-printing');
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  const templates = useQuery({
    queryKey: printTemplateKeys.list(docType),
    queryFn: () => printTemplateApi.list(docType),
    enabled: !fixedLayout,
  });
  const chosen = useQuery({
    queryKey:
      templateId === 'default' ? printTemplateKeys.default(docType) : printTemplateKeys.info(templateId),
    queryFn: () =>
      templateId === 'default' ? printTemplateApi.default(docType) : printTemplateApi.info(templateId),
    enabled: !fixedLayout,
  });
  const ids = Array.isArray(records) ? undefined : records.ids;
  const data = useQuery({
    queryKey: ['print-data', docType, ids],
    queryFn: () => printDataOf(docType, ids as number[]),
    enabled: !!ids,
  });
  const layout = fixedLayout ?? chosen.data?.layout;
  const rows = Array.isArray(records) ? records : data.data;
  const box = layout ? pageBox(layout) : undefined;
  const title = PRINT_DOC_TYPES[docType].label;

  return createPortal(
    <div className="rm-tpl-overlay" role="dialog" aria-label={`打印${title}`} data-testid="template-print">
      {box && <style>{`@page rmtpl { size: ${box.width}mm ${box.height}mm; margin: 0; }`}</style>}
      <div className="rm-tpl-toolbar">
        {!fixedLayout && (
          <Select
            aria-label="打印模板"
            style={{ width: 220 }}
            value={templateId}
            onChange={setTemplateId}
            options={[
              { value: 'default' as const, label: `默认模板（${chosenName(templates.data, chosen.data)}）` },
              ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name })),
            ]}
          />
        )}
        <Tooltip title="在打印对话框中选择「另存为 PDF」即可导出 PDF">
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={!layout || !rows}
            onClick={() => window.print()}
          >
            打印 / PDF
          </Button>
        </Tooltip>
        <Button icon={<CloseOutlined />} onClick={onClose}>
          关闭
        </Button>
        {rows && (
          <Typography.Text type="secondary">
            {title} · 共 {rows.length} 张
          </Typography.Text>
        )}
      </div>
      <div className="rm-tpl-sheets">
        {!layout || !rows ? (
          <Spin />
        ) : (
          rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one page per record in the given order
            <LayoutPage key={i} layout={layout} data={r} />
          ))
        )}
      </div>
    </div>,
    document.body,
  );
}

function chosenName(
  list: { id: number; name: string; isDefault: boolean }[] | undefined,
  effective: { id: number | null; name: string } | undefined,
) {
  return list?.find((t) => t.isDefault)?.name ?? effective?.name ?? '系统默认';
}
