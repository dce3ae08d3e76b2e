import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const API = { target: 'http://127.0.0.1:8080', changeOrigin: false };

/**
 * The front end. The service worker is ours (`workers/sw.ts`, injectManifest): Workbox only
 * injects the precache list, so offline behaviour stays readable in one file.
 */
export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icons/*.png', 'favicon.svg'],
      manifest: {
        id: '/',
        name: '馆务云',
        short_name: '馆务云',
        description: '博物馆办公后台与个人网盘',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#7a2e1d',
        background_color: '#f7f3ee',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // A classic script, as it is registered (no `type: 'module'`): the 'es' build of
        // vite-plugin-pwa 2.0 sets rolldown's deprecated inlineDynamicImports, which printed a
        // deprecation warning on every build; 'iife' builds the worker as a library and does not.
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,png,svg,woff2}'],
        // The read-only office viewers (2 MB, mostly xlsx and pptx) are fetched when first used:
        // an office file needs the network anyway, and every install would pay for them.
        globIgnores: [
          ...['**/node_modules/**/*', 'sw.js', 'workbox-*.js'],
          ...['**/docx-view-*.js', '**/xlsx-view-*.js', '**/pptx-view-*.js'],
        ],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { proxy: { '/singleMuseum': API, '/wangpan': API } },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 1500 },
});
