/**
 * The first screen's JavaScript budget (issue 25), checked on every build: the sign-in page's
 * JavaScript — the entry chunk and every chunk it imports statically, each gzipped as the server
 * would send it — may not grow past the budget, and may not contain the signed-in app (the shell,
 * the offline store, the whole string catalogue). A build that breaks either fails, with the
 * chunks that weigh most, so a stray static import is caught where it is made rather than on a
 * tablet. Lazy chunks (`import()`) are not counted: they load when their page opens.
 */
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** KiB gzip. The target is 120; the first split measured 133 (README "Speed"). */
export const SIGN_IN_BUDGET_KIB = 136;

/** The sign-in form's submit, loaded just after the form (features/auth/sign-in.ts). */
const SIGN_IN_SUBMIT = /src[\\/]app[\\/]features[\\/]auth[\\/]sign-in\.ts$/;

/** Modules that belong to the signed-in app and must never load with the sign-in form or its submit. */
export const NOT_ON_SIGN_IN: readonly RegExp[] = [
  /src[\\/]app[\\/]features[\\/]shell[\\/]app-layout\.tsx$/,
  /src[\\/]app[\\/]lib[\\/]offline(-db)?\.ts$/,
  /src[\\/]app[\\/]lib[\\/]i18n\.ts$/,
  /src[\\/]app[\\/]lib[\\/]upload[\\/]/,
  /src[\\/]app[\\/]features[\\/]drive[\\/]/,
  /node_modules[\\/]dexie[\\/]/,
  /node_modules[\\/]zod[\\/]/,
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

/** The entry chunks and all they import statically, gzipped one by one (as they are sent). */
export function measureSignIn(chunks: readonly BudgetChunk[]): BudgetResult {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    const c = byName.get(name);
    if (!c || seen.has(name)) return;
    seen.add(name);
    c.imports.forEach(visit);
  };
  for (const c of chunks) if (c.isEntry) visit(c.fileName);
  const page = new Set(seen);
  // The submit's chunk (login-page.tsx fetches it once the form is on screen) may not carry the
  // app either: it is the rest of what a person waits for before signing in. Not counted in the
  // budget (it loads after the form), but held to the same list.
  for (const c of chunks) if (c.moduleIds.some((id) => SIGN_IN_SUBMIT.test(id))) visit(c.fileName);
  const sized = [...page].map((name) => {
    const c = byName.get(name)!;
    return { fileName: name, gzipKiB: zlib.gzipSync(c.code, { level: 9 }).length / 1024 };
  });
  sized.sort((a, b) => b.gzipKiB - a.gzipKiB);
  const forbidden = [...seen].flatMap((name) =>
    byName.get(name)!.moduleIds.filter((id) => NOT_ON_SIGN_IN.some((re) => re.test(id))),
  );
  return { gzipKiB: sized.reduce((s, c) => s + c.gzipKiB, 0), chunks: sized, forbidden };
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
      // Only the app's build has an HTML entry; the service worker's own build is not the page.
      if (!chunks.some((c) => c.isEntry && c.moduleIds.some((id) => /src[\\/]app[\\/]main\.tsx$/.test(id))))
        return;
      const r = measureSignIn(chunks);
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
    },
  };
}
