import { CameraOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** A barcode reader with the Barcode Detection API's shape. */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

/** What the camera reads: the QR of our printouts and the 1-D codes of labels and suppliers. */
const FORMATS = ['qr_code', 'code_128', 'ean_13', 'ean_8', 'code_39', 'upc_a', 'data_matrix'];

/**
 * The browser's own BarcodeDetector where it has one (Chrome on Android, macOS), else the
 * `barcode-detector` polyfill on ZXing's WebAssembly build (Chromium on Linux and Windows, iPad
 * Safari, Firefox). The polyfill and its .wasm load only when a camera scan starts, and the .wasm
 * is one of the app's own files (no internet needed).
 */
export async function loadBarcodeDetector(): Promise<DetectorClass> {
  const native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (native) return native;
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
  });
  return BarcodeDetector as unknown as DetectorClass;
}

/** Whether this browser can use a camera at all (a secure page with a camera API). */
export const cameraScanSupported = () => Boolean(navigator.mediaDevices?.getUserMedia);

/**
 * 摄像头扫码 on a tablet: the back camera in a dialog until a QR or 1-D code is read, then `onCode`.
 * Shown wherever the browser has a camera API (the USB scanner field works everywhere).
 */
export function CameraScanButton({ onCode }: { onCode: (code: string) => void }) {
  const [open, setOpen] = useState(false);
  if (!cameraScanSupported()) return null;
  return (
    <>
      <Button icon={<CameraOutlined />} onClick={() => setOpen(true)} aria-label="摄像头扫码">
        扫码
      </Button>
      <Modal title="摄像头扫码" open={open} onCancel={() => setOpen(false)} footer={null} destroyOnHidden>
        {open && (
          <CameraView
            onCode={(c) => {
              setOpen(false);
              onCode(c);
            }}
          />
        )}
      </Modal>
    </>
  );
}

function CameraView({ onCode }: { onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string>();
  const found = useRef(onCode);
  found.current = onCode;
  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let detector: Detector | undefined;
    loadBarcodeDetector()
      .then((D) => {
        detector = new D({ formats: FORMATS });
      })
      .catch(() => setError('无法加载条码识别组件，请使用扫码枪'));
    const tick = async () => {
      if (stopped || !video.current) return;
      if (!detector) {
        timer = setTimeout(tick, 250);
        return;
      }
      try {
        const [hit] = await detector.detect(video.current);
        if (hit?.rawValue) return found.current(hit.rawValue.trim());
      } catch {
        // a frame not ready yet: try the next one
      }
      timer = setTimeout(tick, 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        void tick();
      })
      .catch(() => setError('无法打开摄像头，请检查浏览器的摄像头权限，或使用扫码枪'));
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const t of stream?.getTracks() ?? []) t.stop();
    };
  }, []);
  return error ? (
    <Typography.Text type="danger">{error}</Typography.Text>
  ) : (
    <video ref={video} muted playsInline style={{ width: '100%', background: '#000' }} />
  );
}
