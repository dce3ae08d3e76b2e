import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { measureSignIn, signInBudget, workbenchForbidden, type BudgetChunk } from '../../scripts/js-budget';

/** Text that gzip cannot shrink much: `kib` KiB of base64 of random bytes (gzip keeps ~76%). */
function noise(kib: number): string {
  return randomBytes(kib * 1024)
    .toString('base64')
    .slice(0, kib * 1024);
}

const chunk = (fileName: string, over: Partial<BudgetChunk> = {}): BudgetChunk => ({
  fileName,
  isEntry: false,
  imports: [],
  code: 'export{}',
  moduleIds: [],
  ...over,
});

describe('sign-in JavaScript budget (issue 25)', () => {
  const bundle = [
    // The app's page: its own entry, not the sign-in page's, and not counted.
    chunk('index.js', { isEntry: true, code: noise(80), moduleIds: ['/repo/src/app/main.tsx'] }),
    chunk('login.js', {
      isEntry: true,
      imports: ['codes.js'],
      code: noise(20),
      moduleIds: ['/repo/src/app/login/main.ts', '/repo/src/app/lib/session-keys.ts'],
    }),
    chunk('codes.js', { code: noise(10), moduleIds: ['/repo/src/shared/api/codes.ts'] }),
    // Reached only through import(): a page, not counted.
    chunk('drive.js', { code: noise(50), moduleIds: ['/repo/src/app/features/drive/drive-page.tsx'] }),
    chunk('react.js', { code: noise(10), moduleIds: ['/repo/node_modules/react/index.js'] }),
  ];

  it("counts the sign-in page's entry and its static imports, gzipped, not the app nor lazy chunks", () => {
    const r = measureSignIn(bundle)!;
    expect(r.chunks.map((c) => c.fileName).sort()).toEqual(['codes.js', 'login.js']);
    // 30 KiB of base64 noise is about 23 KiB gzip; the app's 80 KiB entry would make it 84.
    expect(r.gzipKiB).toBeGreaterThan(18);
    expect(r.gzipKiB).toBeLessThan(28);
    expect(r.forbidden).toEqual([]);
  });

  it('names a framework or signed-in module that a static import pulled onto the sign-in page', () => {
    const pulled = bundle.map((c) =>
      c.fileName === 'login.js' ? { ...c, imports: ['codes.js', 'drive.js', 'react.js'] } : c,
    );
    expect(measureSignIn(pulled)!.forbidden.sort()).toEqual([
      '/repo/node_modules/react/index.js',
      '/repo/src/app/features/drive/drive-page.tsx',
    ]);
  });

  function build(budget: number, chunks: BudgetChunk[]): string | null {
    const plugin = signInBudget(budget);
    const out = Object.fromEntries(
      chunks.map((c) => [
        c.fileName,
        { type: 'chunk', ...c, modules: Object.fromEntries(c.moduleIds.map((id) => [id, {}])) },
      ]),
    );
    let error: string | null = null;
    const ctx = {
      error: (m: string) => {
        error = m;
        throw new Error(m);
      },
    };
    const hook = plugin.generateBundle as (this: unknown, o: unknown, b: unknown) => void;
    try {
      hook.call(ctx, {}, out);
    } catch {
      /* error recorded */
    }
    return error;
  }

  it('fails the build over budget, saying by how much and which chunks weigh most', () => {
    expect(build(100, bundle)).toBeNull();
    const message = build(10, bundle);
    expect(message).toMatch(/登录页的 JavaScript 为 \d+\.\d KiB gzip，超出预算 10 KiB/);
    expect(message).toContain('login.js');
  });

  it('fails the build when the sign-in page carries the app, whatever its size', () => {
    const pulled = bundle.map((c) => (c.fileName === 'login.js' ? { ...c, imports: ['drive.js'] } : c));
    expect(build(1000, pulled)).toMatch(/带上了登录后的模块.*drive-page\.tsx/);
  });

  it('leaves a build without the sign-in page (the service worker) alone', () => {
    expect(build(1, [chunk('sw.js', { isEntry: true, code: noise(20) })])).toBeNull();
  });
});

describe('zod kept off the workbench (issue 25)', () => {
  const app = (over: { notice?: string[] } = {}) => [
    chunk('index.js', { isEntry: true, imports: ['react.js'], moduleIds: ['/repo/src/app/main.tsx'] }),
    chunk('react.js', { moduleIds: ['/repo/node_modules/react/index.js'] }),
    chunk('signed-in.js', {
      imports: over.notice ?? ['live.js'],
      moduleIds: ['/repo/src/app/lib/signed-in.tsx'],
    }),
    chunk('live.js', { moduleIds: ['/repo/src/shared/api/live.ts'] }),
    chunk('notice.js', {
      imports: ['zod.js'],
      moduleIds: ['/repo/src/shared/api/notice.ts'],
    }),
    chunk('zod.js', { moduleIds: ['/repo/node_modules/zod/v4/classic/schemas.js'] }),
    // A page reached only through import(): it may use zod.
    chunk('drive.js', { imports: ['zod.js'], moduleIds: ['/repo/src/app/features/drive/drive-page.tsx'] }),
  ];

  it('passes a launch whose chunks reach zod only through pages loaded later', () => {
    expect(workbenchForbidden(app())).toEqual([]);
  });

  it('names zod once a chunk the launch loads imports it statically', () => {
    expect(workbenchForbidden(app({ notice: ['live.js', 'notice.js'] }))).toEqual([
      '/repo/node_modules/zod/v4/classic/schemas.js',
    ]);
  });
});
