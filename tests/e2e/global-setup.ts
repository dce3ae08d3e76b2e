import fs from 'node:fs';

/** Fails loudly, with the fix, when there is no Chromium: end-to-end tests never skip silently. */
export default function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    throw new Error(
      `未找到 Chromium（${chromium}）。请先安装：sudo apt-get install -y chromium，或用 CHROMIUM_PATH 指定可执行文件路径。`,
    );
  }
  if (!fs.existsSync('dist/index.html')) {
    throw new Error('前端尚未构建：请通过 npm run test:e2e 运行（会先构建前端）。');
  }
  if (!fs.existsSync('dist-server/main.js')) {
    throw new Error('服务端尚未构建：请通过 npm run test:e2e 运行（会先构建服务端）。');
  }
}
