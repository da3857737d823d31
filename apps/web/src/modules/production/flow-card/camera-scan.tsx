import { CameraOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** The browser's own barcode reader (Chrome on Android tablets); no library needed where it exists. */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

const DetectorImpl = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;

/** Whether this browser can read a QR from the camera (BarcodeDetector and a camera API). */
export const cameraScanSupported = () => Boolean(DetectorImpl && navigator.mediaDevices?.getUserMedia);

/**
 * 摄像头扫码 on a tablet: the back camera in a dialog until a QR is read, then `onCode`. Shown only
 * where the browser has BarcodeDetector (the USB scanner field works everywhere).
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
    const detector = new (DetectorImpl as DetectorClass)({ formats: ['qr_code'] });
    const tick = async () => {
      if (stopped || !video.current) return;
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
