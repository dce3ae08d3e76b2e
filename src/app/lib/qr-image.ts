import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * A payload as an SVG QR data URL, drawn on the device (no request leaves it), with error
 * correction M: a printed sheet survives a crease and a phone screen a scratch. Null until drawn
 * and while there is no payload.
 */
export function useQrImage(payload: string | null | undefined): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!payload) return;
    void QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then((svg) => {
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [payload]);
  return payload ? src : null;
}
