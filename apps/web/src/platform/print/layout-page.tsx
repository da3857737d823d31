import { type PrintElement, type PrintLayout, pageBox, printValue } from '@ringmes/domain';
import type { CSSProperties, PointerEvent as ReactPointerEvent } from 'react';
import { useBrand } from '../brand.ts';
import { BarcodeImage } from './barcode.tsx';
import './print-template.css';

/** One record's data as a template reads it: header fields by key, `lines` for the line table. */
export type PrintData = Record<string, unknown> & { lines?: Record<string, unknown>[] };

/**
 * One page of a template filled with one record: every element at its place in millimetres. In
 * the editor (`onPick`) an element is picked and dragged with the pointer; `zoom` scales the page
 * on screen (print is always 1:1).
 */
export function LayoutPage({
  layout,
  data,
  zoom = 1,
  selected,
  onPick,
}: {
  layout: PrintLayout;
  data: PrintData;
  zoom?: number;
  selected?: string;
  onPick?: (id: string, e: ReactPointerEvent<HTMLDivElement>) => void;
}) {
  const page = pageBox(layout);
  return (
    <div
      className="rm-tpl-page"
      data-testid="print-page"
      style={{ width: `${page.width}mm`, height: `${page.height}mm`, zoom: zoom === 1 ? undefined : zoom }}
    >
      {layout.elements.map((e) => (
        <div
          key={e.id}
          data-element={e.id}
          data-kind={e.kind}
          className={`rm-tpl-el${onPick ? ' rm-tpl-editable' : ''}${selected === e.id ? ' rm-tpl-selected' : ''}`}
          style={box(e)}
          onPointerDown={onPick ? (ev) => onPick(e.id, ev) : undefined}
        >
          <ElementBody element={e} data={data} />
        </div>
      ))}
    </div>
  );
}

const box = (e: PrintElement): CSSProperties => ({
  left: `${e.x}mm`,
  top: `${e.y}mm`,
  width: `${e.w}mm`,
  height: `${e.h}mm`,
  ...('fontSize' in e && e.fontSize ? { fontSize: `${e.fontSize}pt` } : {}),
  ...('bold' in e && e.bold ? { fontWeight: 700 } : {}),
  ...('align' in e && e.align ? { textAlign: e.align } : {}),
});

function ElementBody({ element: e, data }: { element: PrintElement; data: PrintData }) {
  const brand = useBrand();
  switch (e.kind) {
    case 'text':
      return <>{e.text}</>;
    case 'field':
      return (
        <>
          {e.prefix}
          {printValue(data, e.field)}
        </>
      );
    case 'image': {
      const src = e.src === 'logo' ? brand?.logo : e.src;
      return src ? (
        <img src={src} alt="" className="rm-tpl-image" draggable={false} />
      ) : (
        <span>（无图片）</span>
      );
    }
    case 'qr':
      return <BarcodeImage kind="qr" value={printValue(data, e.field)} />;
    case 'barcode':
      return <BarcodeImage kind={e.symbology} value={printValue(data, e.field)} showText={e.showText} />;
    case 'table':
      return (
        <table className="rm-tpl-table">
          <thead>
            <tr>
              {e.columns.map((c) => (
                <th key={c.field} style={c.width ? { width: `${c.width}mm` } : undefined}>
                  {c.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(data.lines ?? []).map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: printed lines have no other stable key
              <tr key={i}>
                {e.columns.map((c) => (
                  <td key={c.field}>{printValue(line, c.field)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
  }
}
