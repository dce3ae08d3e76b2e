/**
 * The sign-in page's JavaScript budget (issue 25), checked on every build. The sign-in page is
 * login.html with its one script (src/app/login/main.ts): that entry and every chunk it imports
 * statically, each gzipped as the server would send it, may not grow past the budget, and may
 * carry neither a framework nor the signed-in app (React, Mantine, the router, the shell, the
 * offline store, the whole string catalogue). A build that breaks either fails, with the chunks
 * that weigh most, so a stray import is caught where it is made rather than on a tablet.
 *
 * The same build check keeps zod off the workbench (`NOT_ON_WORKBENCH`): the workbench has no
 * size budget of its own here, since `tests/bench/first-load.ts` measures it in a browser, but
 * the one library it was found to carry for nothing may not come back.
 */
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * KiB gzip. The issue's target is 120; the page measured 3.3 (the React sign-in page it replaced
 * was 133, and 210 with what it loaded just after the form). The margin is for a few more words
 * and checks, not for a library.
 */
export const SIGN_IN_BUDGET_KIB = 12;

/** The sign-in page's script: the entry whose chunk holds it is the page's. */
const SIGN_IN_ENTRY = /src[\\/]app[\\/]login[\\/]main\.ts$/;

/** Modules that may never load with the sign-in page. */
export const NOT_ON_SIGN_IN: readonly RegExp[] = [
  /node_modules[\\/](react|react-dom|scheduler|@mantine|@tanstack|@tabler|dexie|zod)[\\/]/,
  /src[\\/]app[\\/]features[\\/]/,
  /src[\\/]app[\\/]lib[\\/](api|session|offline(-db)?)\.tsx?$/,
  /src[\\/]app[\\/]lib[\\/]i18n[\\/]/,
  /src[\\/]app[\\/]lib[\\/]upload[\\/]/,
  /src[\\/]app[\\/]main\.tsx$/,
];

export interface BudgetChunk {
  fileName: string;
  isEntry: boolean;
  imports: readonly string[];
  code: string;
  moduleIds: readonly string[];
}

export interface BudgetResult {
  gzipKiB: number;
  chunks: { fileName: string; gzipKiB: number }[];
  forbidden: string[];
}

/** The named chunks and every chunk they import statically, by file name. */
function staticClosure(chunks: readonly BudgetChunk[], start: readonly string[]): Set<string> {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    const c = byName.get(name);
    if (!c || seen.has(name)) return;
    seen.add(name);
    c.imports.forEach(visit);
  };
  start.forEach(visit);
  return seen;
}

/**
 * What a signed-in launch onto the workbench runs: the app's entry, the signed-in chunk and the
 * dialogs' host that the router's guard waits for, the shell, and the workbench page.
 */
const WORKBENCH_LAUNCH: readonly RegExp[] = [
  /src[\\/]app[\\/]main\.tsx$/,
  /src[\\/]app[\\/]lib[\\/](signed-in|overlays)\.tsx$/,
  /src[\\/]app[\\/]routes[\\/]shell\.tsx$/,
  /src[\\/]app[\\/]features[\\/]workbench[\\/]workbench-page\.tsx$/,
  // The workbench's route, with its cards (the news and duty cards read record definitions).
  /src[\\/]app[\\/]routes[\\/]workbench\.tsx$/,
];

/**
 * Modules the workbench must not load (issue 25). zod is 26 KiB gzip of schemas the workbench
 * never checks against: a constant or a type imported from a schema file (shared/api/*.ts)
 * brings it along, so such constants live in zod-free files (codes.ts, live.ts…).
 */
export const NOT_ON_WORKBENCH: readonly RegExp[] = [/node_modules[\\/]zod[\\/]/];

/** Modules of NOT_ON_WORKBENCH that a signed-in launch onto the workbench would load. */
export function workbenchForbidden(chunks: readonly BudgetChunk[]): string[] {
  const roots = chunks.filter((c) => c.moduleIds.some((id) => WORKBENCH_LAUNCH.some((re) => re.test(id))));
  const seen = staticClosure(
    chunks,
    roots.map((c) => c.fileName),
  );
  return chunks
    .filter((c) => seen.has(c.fileName))
    .flatMap((c) => c.moduleIds.filter((id) => NOT_ON_WORKBENCH.some((re) => re.test(id))));
}

/** The sign-in page's entry and all it imports statically, gzipped one by one (as they are sent). */
export function measureSignIn(chunks: readonly BudgetChunk[]): BudgetResult | null {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry && c.moduleIds.some((id) => SIGN_IN_ENTRY.test(id)));
  if (!entry) return null;
  const seen = staticClosure(chunks, [entry.fileName]);
  const sized = [...seen].map((name) => {
    const c = byName.get(name)!;
    return { fileName: name, gzipKiB: zlib.gzipSync(c.code, { level: 9 }).length / 1024 };
  });
  sized.sort((a, b) => b.gzipKiB - a.gzipKiB);
  const forbidden = [...seen].flatMap((name) =>
    byName.get(name)!.moduleIds.filter((id) => NOT_ON_SIGN_IN.some((re) => re.test(id))),
  );
  return { gzipKiB: sized.reduce((sum, c) => sum + c.gzipKiB, 0), chunks: sized, forbidden };
}

/** Fails the build when the sign-in page's JavaScript is over budget or carries the app. */
export function signInBudget(budgetKiB = SIGN_IN_BUDGET_KIB): Plugin {
  return {
    name: 'sign-in-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: BudgetChunk[] = [];
      for (const out of Object.values(bundle))
        if (out.type === 'chunk')
          chunks.push({
            fileName: out.fileName,
            isEntry: out.isEntry,
            imports: out.imports,
            code: out.code,
            moduleIds: Object.keys(out.modules),
          });
      // The service worker's own build has no sign-in page, and is left alone.
      const r = measureSignIn(chunks);
      if (!r) return;
      const top = r.chunks
        .slice(0, 6)
        .map((c) => `${c.fileName} ${c.gzipKiB.toFixed(1)} KiB`)
        .join(', ');
      if (r.forbidden.length)
        this.error(
          `登录页的 JavaScript 带上了登录后的模块（应在 import() 之后加载）：${r.forbidden.join(', ')}`,
        );
      if (r.gzipKiB > budgetKiB)
        this.error(
          `登录页的 JavaScript 为 ${r.gzipKiB.toFixed(1)} KiB gzip，超出预算 ${budgetKiB} KiB（最大的：${top}）`,
        );
      const heavy = workbenchForbidden(chunks);
      if (heavy.length)
        this.error(
          `工作台的 JavaScript 带上了不该有的模块（常量请从不依赖 zod 的文件引用）：${heavy.slice(0, 5).join(', ')}`,
        );
    },
  };
}
