import { type BarcodeSymbology, ean13Problem } from '@ringmes/domain';
import { useEffect, useState } from 'react';

export type CodeKind = BarcodeSymbology | 'qr';

/**
 * A barcode or QR drawn by bwip-js (Barcode Writer in Pure PostScript) on a canvas and shown as
 * a PNG that fills its box; the encoder is a chunk of its own, loaded with the first code. A value
 * the symbology cannot carry shows why instead of bars.
 */
export function BarcodeImage({
  kind,
  value,
  showText,
}: {
  kind: CodeKind;
  value: string;
  showText?: boolean;
}) {
  const [drawn, setDrawn] = useState<{ src?: string; error?: string }>({});
  useEffect(() => {
    let live = true;
    if (!value) {
      setDrawn({ error: '（无数据）' });
      return;
    }
    const problem = kind === 'ean13' ? ean13Problem(value) : undefined;
    if (problem) {
      setDrawn({ error: problem });
      return;
    }
    void import('bwip-js/browser')
      .then((bwip) => {
        const canvas = document.createElement('canvas');
        // A white ground and quiet zones: readers see transparent pixels as dark and need margins.
        const opts = {
          text: value,
          scale: 3,
          includetext: kind !== 'qr' && !!showText,
          textxalign: 'center' as const,
          backgroundcolor: 'FFFFFF',
          paddingwidth: kind === 'qr' ? 2 : 10,
          paddingheight: 2,
        };
        // Each encoder by name, so the chunk keeps only these three of bwip-js's hundred.
        if (kind === 'qr') bwip.qrcode(canvas, { ...opts, bcid: 'qrcode' });
        else if (kind === 'ean13') bwip.ean13(canvas, { ...opts, bcid: 'ean13', height: 12 });
        else bwip.code128(canvas, { ...opts, bcid: 'code128', height: 12 });
        if (live) setDrawn({ src: canvas.toDataURL('image/png') });
      })
      .catch(
        (e: unknown) => live && setDrawn({ error: `无法生成条码：${String((e as Error)?.message ?? e)}` }),
      );
    return () => {
      live = false;
    };
  }, [kind, value, showText]);
  if (drawn.error) return <span className="rm-tpl-code-error">{drawn.error}</span>;
  if (!drawn.src) return null;
  return (
    <img
      src={drawn.src}
      alt={value}
      data-code={value}
      data-symbology={kind}
      className="rm-tpl-code"
      style={{ objectFit: kind === 'qr' ? 'contain' : 'fill' }}
      draggable={false}
    />
  );
}
