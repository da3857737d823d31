import { ScanOutlined } from '@ant-design/icons';
import { Input, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { CameraScanButton } from '../../../platform/scan/camera-scan.tsx';
import { type FlowCard, flowCardApi } from './flow-card.api.ts';
import { FlowCardDrawer } from './flow-card-detail.tsx';

/**
 * 扫码: a USB scanner types the card number and Enter into this field (it works typed by hand
 * too), or a tablet's camera reads the QR where the browser can; the card opens in the drawer, or
 * `onFound` gets it. The field clears and keeps the focus
 * for the next scan. An unknown number shows the server's 未找到流转卡 message.
 */
export function FlowCardScan({
  onFound,
  autoFocus,
  width = 240,
}: {
  onFound?: (card: FlowCard) => void;
  autoFocus?: boolean;
  width?: number;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [openId, setOpenId] = useState<number>();
  const input = useRef<InputRef>(null);
  const scan = async (typed?: string) => {
    const value = (typed ?? code).trim();
    if (!value || busy) return;
    setBusy(true);
    try {
      const card = await flowCardApi.scan(value);
      setCode('');
      if (onFound) onFound(card);
      else setOpenId(card.id);
    } catch {
      // the client already showed the message; keep the text to correct it
      input.current?.select();
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Input
        ref={input}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onPressEnter={() => scan()}
        prefix={<ScanOutlined />}
        placeholder="扫码或输入流转卡号，回车打开"
        aria-label="扫描流转卡"
        autoFocus={autoFocus}
        allowClear
        style={{ width }}
        data-testid="flow-card-scan"
      />
      <CameraScanButton onCode={(c) => scan(c)} />
      {!onFound && <FlowCardDrawer id={openId} onClose={() => setOpenId(undefined)} />}
    </>
  );
}
