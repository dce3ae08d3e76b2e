/** The QR scanner's own words (components/qr-scanner.tsx); the caller names what is scanned. */
export const tScanner = {
  cameraStarting: '正在打开相机…',
  submit: '确定',
  cancel: '取消',
} as const;
