import { CloseOutlined, PrinterOutlined } from '@ant-design/icons';
import { FLOW_CARD_LIFECYCLE, INSPECTION_RESULTS, stateLabel } from '@ringmes/domain';
import { Button, QRCode } from 'antd';
import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { formatTime } from '../../../platform/lib/time.ts';
import { COMPANY_TITLE } from '../../../platform/ui/print-view.tsx';
import { drawingText } from '../../technology/drawing-link.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import type { FlowCard } from './flow-card.api.ts';
import './flow-card.css';

export type FlowCardPrintKind = 'a5' | 'label';

const blank = (v: unknown) => (v === null || v === undefined || v === '' || Number(v) === 0 ? '' : qty(v));

/**
 * The print view of a card over the app, with 打印 and 关闭: an A5 流转卡 (header, QR and one
 * row per step, blank cells for the workshop to fill in by hand) or a 60 × 40 mm label with the QR.
 * While open the body carries `fc-printing`, so `@media print` prints the sheet and nothing else;
 * each sheet sets its own named page size.
 */
export function FlowCardPrint({
  card,
  kind,
  onClose,
}: {
  card: FlowCard;
  kind: FlowCardPrintKind;
  onClose: () => void;
}) {
  useEffect(() => {
    document.body.classList.add('fc-printing');
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('fc-printing');
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  const title = kind === 'a5' ? '流转卡' : '流转卡标签';
  return createPortal(
    <div className="fc-print-overlay" role="dialog" aria-label={`打印${title}`} data-testid="flow-card-print">
      <div className="fc-print-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
        <Button icon={<CloseOutlined />} onClick={onClose}>
          关闭
        </Button>
      </div>
      {kind === 'a5' ? <A5Card card={card} /> : <Label card={card} />}
    </div>,
    document.body,
  );
}

function A5Card({ card }: { card: FlowCard }) {
  const fields: [string, unknown][] = [
    ['生产订单', card.productionOrderName],
    ['产品', card.productName],
    ['零件/套圈', card.partName],
    ['数量', qty(card.quantity)],
    ['炉号', card.heatNo],
    ['状态', stateLabel(FLOW_CARD_LIFECYCLE, card.status)],
    // The revision the workshop works to, as of printing (无 without a published drawing).
    ['图纸', card.drawing ? drawingText(card.drawing) : '无'],
  ];
  return (
    <div className="fc-a5">
      <div className="fc-a5-head">
        <div>
          <div>{COMPANY_TITLE}</div>
          <div className="fc-a5-title">工序流转卡</div>
          <div style={{ fontFamily: 'monospace', fontSize: 13 }}>卡号：{card.docNo}</div>
        </div>
        <div style={{ textAlign: 'center', fontSize: 10 }}>
          <QRCode value={card.docNo} size={80} type="svg" bordered={false} />
          <div>{card.docNo}</div>
        </div>
      </div>
      <div className="fc-a5-fields">
        {fields.map(([label, value]) => (
          <div key={label}>
            {label}：{String(value ?? '')}
          </div>
        ))}
      </div>
      <table>
        <thead>
          <tr>
            {[
              '序',
              '工序',
              '车间',
              '进站',
              '出站',
              '投入',
              '合格',
              '工废',
              '料废',
              '返工',
              '操作工',
              '设备',
              '检验',
            ].map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {card.steps.map((s) => (
            <tr key={s.id}>
              <td>{s.seq}</td>
              <td>
                {s.processName}
                {s.outsourced ? '（委外）' : ''}
              </td>
              <td>{s.workshopName}</td>
              <td>{formatTime(s.inTime, 'MM-DD HH:mm')}</td>
              <td>{formatTime(s.outTime, 'MM-DD HH:mm')}</td>
              <td className="n">{blank(s.inputQuantity)}</td>
              <td className="n">{blank(s.goodQuantity)}</td>
              <td className="n">{blank(s.workScrapQuantity)}</td>
              <td className="n">{blank(s.materialScrapQuantity)}</td>
              <td className="n">{blank(s.reworkQuantity)}</td>
              <td>{s.operatorName}</td>
              <td>{s.equipmentName}</td>
              <td>{INSPECTION_RESULTS.find((o) => o.value === s.inspectionResult)?.label ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div style={{ marginTop: 6, fontSize: 9, textAlign: 'right' }}>打印时间：{formatTime(Date.now())}</div>
    </div>
  );
}

function Label({ card }: { card: FlowCard }) {
  return (
    <div className="fc-label">
      <QRCode value={card.docNo} size={104} type="svg" bordered={false} style={{ padding: 0 }} />
      <div>
        <b>{card.docNo}</b>
        <div>{card.productName}</div>
        {card.partName && <div>{card.partName}</div>}
        <div>数量：{qty(card.quantity)}</div>
        {card.heatNo && <div>炉号：{card.heatNo}</div>}
        <div>{card.productionOrderName}</div>
      </div>
    </div>
  );
}
