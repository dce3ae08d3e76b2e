import type { OutputChunk } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { signInBudget } from './scripts/js-budget.ts';
import { precompress } from './scripts/precompress.ts';
import { tCore } from './src/app/lib/i18n-core.ts';

const API = { target: 'http://127.0.0.1:8080', changeOrigin: false };

/**
 * fortune-sheet (the xlsx editor) inserts rows by compiling code at run time:
 * `new Function("d", "return d.splice(" + index + ", 0, " + rows + ")")(d)`, where each row is
 * JSON text. The app's CSP has no 'unsafe-eval' (src/server/app.ts) and keeps none for one
 * library, so inserting a row would throw. These three calls are rewritten at build time into
 * the same splice over the parsed rows (JSON is the JavaScript they compiled). The build fails if
 * a new fortune-sheet no longer has them, so the rewrite can never silently stop applying.
 */
function fortuneSheetWithoutEval(): Plugin {
  const calls: [string, string][] = [
    [
      'new Function("d", "return d.unshift(".concat(arr.join(","), ")"))(d);',
      'd.unshift.apply(d, arr.map(function (row) { return JSON.parse(row); }));',
    ],
    [
      'new Function("d", "return d.splice(".concat(index, ", 0, ").concat(arr.join(","), ")"))(d);',
      'd.splice.apply(d, [index, 0].concat(arr.map(function (row) { return JSON.parse(row); })));',
    ],
    [
      'new Function("d", "return d.splice(".concat(index + 1, ", 0, ").concat(arr.join(","), ")"))(d);',
      'd.splice.apply(d, [index + 1, 0].concat(arr.map(function (row) { return JSON.parse(row); })));',
    ],
  ];
  return {
    name: 'fortune-sheet-without-eval',
    apply: 'build',
    transform(code, id) {
      if (!/@fortune-sheet[\\/]core[\\/]dist[\\/]index\.esm\.js$/.test(id)) return null;
      let out = code;
      for (const [from, to] of calls) {
        if (!out.includes(from)) this.error(`fortune-sheet no longer has the call to rewrite: ${from}`);
        out = out.split(from).join(to);
      }
      if (/new Function\(/.test(out)) this.error('fortune-sheet compiles code at run time somewhere new');
      return { code: out, map: null };
    },
  };
}

/**
 * The front end. The service worker is ours (`workers/sw.ts`, injectManifest): Workbox only
 * injects the precache list, so offline behaviour stays readable in one file.
 */
/**
 * The office viewers and editors (several MB: ExcelJS, the spreadsheet grid, the Word engine) are
 * fetched when first used, never precached: an office file needs the network to open anyway, and
 * every install of the app would pay for them. Which files those are is computed from the bundle
 * itself: every chunk (and its CSS) that the app reaches only through one of these lazy imports.
 * A chunk the rest of the app also uses stays precached, so nothing else ever loses offline.
 */
const OFFICE_LAZY =
  /src[\\/]app[\\/]features[\\/]office[\\/](docx-view|xlsx-view|pptx-view|edit-session|docx-editor|xlsx-editor)\.tsx$/;
const notPrecached: string[] = ['**/node_modules/**/*', 'sw.js', 'workbox-*.js'];

function officeChunksNotPrecached(): Plugin {
  return {
    name: 'office-chunks-not-precached',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, OutputChunk>();
      for (const out of Object.values(bundle)) if (out.type === 'chunk') chunks.set(out.fileName, out);
      if (![...chunks.values()].some((c) => c.facadeModuleId && OFFICE_LAZY.test(c.facadeModuleId))) return;
      const reached = new Set<string>();
      const visit = (file: string) => {
        const chunk = chunks.get(file);
        if (!chunk || reached.has(file)) return;
        reached.add(file);
        chunk.imports.forEach(visit);
        for (const lazy of chunk.dynamicImports) {
          const target = chunks.get(lazy);
          if (!(target?.facadeModuleId && OFFICE_LAZY.test(target.facadeModuleId))) visit(lazy);
        }
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const css = (c: OutputChunk) => [...(c.viteMetadata?.importedCss ?? [])];
      const keptCss = new Set([...reached].flatMap((f) => css(chunks.get(f)!)));
      for (const [file, chunk] of chunks) {
        if (reached.has(file)) continue;
        notPrecached.push(file, ...css(chunk).filter((f) => !keptCss.has(f)));
      }
    },
  };
}

/**
 * The sign-in page (login.html) is plain HTML drawn before its script runs (issue 25), and so is
 * what index.html shows before the app's (the loading screen, the launch snapshot's 正在启动…);
 * their words are the app's (src/app/lib/i18n-core.ts): each `{{login.title}}` is replaced by
 * that string, HTML-escaped, when the page is served or built. A name that is not in the
 * catalogue fails, so a page never shows a placeholder.
 */
function pageStrings(): Plugin {
  const escape = (x: string) =>
    x.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
    );
  return {
    name: 'page-strings',
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        return html.replace(/\{\{([\w.]+)\}\}/g, (_, name: string) => {
          const value = name
            .split('.')
            .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tCore);
          if (typeof value !== 'string')
            throw new Error(`${ctx.filename.split(/[\\/]/).pop()}: i18n-core 中没有字符串 ${name}`);
          return escape(value);
        });
      },
    },
  };
}

export default defineConfig({
  plugins: [
    pageStrings(),
    react(),
    fortuneSheetWithoutEval(),
    officeChunksNotPrecached(),
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
        // The same array the office plugin adds to when the bundle is written (see above):
        // the plugin reads it only after that.
        globIgnores: notPrecached,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
    // The sign-in page's JavaScript may not grow past its budget nor carry the app, and the
    // workbench may not carry zod (issue 25).
    signInBudget(),
  ],
  server: { proxy: { '/singleMuseum': API, '/wangpan': API } },
  // The limit guards the chunks every page loads; the lazily loaded xlsx editor (the grid and its
  // formula engine) is 2.6 MB on its own and loads only when a workbook is edited.
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 2800,
    // Two pages: the app, and the sign-in page that loads before it (login.html, issue 25).
    rolldownOptions: { input: { index: 'index.html', login: 'login.html' } },
  },
});
