import { CloseOutlined, PrinterOutlined } from '@ant-design/icons';
import { Button, QRCode } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useBrand } from '../brand.ts';
import { formatTime } from '../lib/time.ts';
import './print-view.css';

/** The printout heading when 系统设置 names no company. */
export const COMPANY_TITLE = 'RingMES 轴承有限公司';

export interface PrintColumn {
  title: string;
  render: (line: Record<string, any>, index: number) => ReactNode;
  numeric?: boolean;
  width?: string;
}

export interface PrintDoc {
  docName: string;
  docNo: string;
  fields: { label: string; value: ReactNode }[];
  columns: PrintColumn[];
  lines: Record<string, any>[];
  /** Cells of the total row by column title. */
  totals?: Record<string, ReactNode>;
  signatures?: string[];
}

/**
 * The print view of a document: an A4 sheet over the app with 打印 and 关闭. While it is
 * open the body carries `rm-printing`, so `@media print` prints the sheet and nothing else.
 */
export function PrintView({ doc, onClose }: { doc: PrintDoc; onClose: () => void }) {
  useEffect(() => {
    document.body.classList.add('rm-printing');
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('rm-printing');
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  const brand = useBrand();
  const signatures = doc.signatures ?? ['制单', '仓管', '审核'];
  return createPortal(
    <div
      className="rm-print-overlay"
      role="dialog"
      aria-label={`打印${doc.docName}`}
      data-testid="print-view"
    >
      <div className="rm-print-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
        <Button icon={<CloseOutlined />} onClick={onClose}>
          关闭
        </Button>
      </div>
      <div className="rm-print-sheet">
        <div className="rm-print-head">
          <div>
            <div className="rm-print-company">
              {brand?.logo && <img src={brand.logo} alt="" className="rm-print-logo" />}
              {brand?.companyName || COMPANY_TITLE}
            </div>
            <div className="rm-print-docname">{doc.docName}</div>
            <div className="rm-print-no">单据编号：{doc.docNo}</div>
          </div>
          <div className="rm-print-qr">
            <QRCode value={doc.docNo || '-'} size={84} type="svg" bordered={false} />
            <div>{doc.docNo}</div>
          </div>
        </div>
        <div className="rm-print-fields">
          {doc.fields.map((f) => (
            <div key={f.label}>
              <span>{f.label}：</span>
              {f.value ?? ''}
            </div>
          ))}
        </div>
        <table className="rm-print-table">
          <thead>
            <tr>
              <th style={{ width: '6%' }}>序号</th>
              {doc.columns.map((c) => (
                <th key={c.title} style={{ width: c.width }}>
                  {c.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {doc.lines.map((line, i) => (
              <tr key={line.id ?? i}>
                <td>{i + 1}</td>
                {doc.columns.map((c) => (
                  <td key={c.title} className={c.numeric ? 'n' : undefined}>
                    {c.render(line, i)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {doc.totals && (
            <tfoot>
              <tr>
                <td>合计</td>
                {doc.columns.map((c) => (
                  <td key={c.title} className={c.numeric ? 'n' : undefined}>
                    {doc.totals?.[c.title] ?? ''}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
        <div className="rm-print-signs">
          {signatures.map((s) => (
            <div key={s} className="rm-print-sign">
              {s}：
            </div>
          ))}
        </div>
        <div className="rm-print-foot">打印时间：{formatTime(Date.now())}</div>
      </div>
    </div>,
    document.body,
  );
}
