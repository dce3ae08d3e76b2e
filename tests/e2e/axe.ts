import path from 'node:path';
import type { Page } from '@playwright/test';

/*
 * axe-core, injected into the real page, and its serious and critical violations, readable
 * (rule, help, and the first nodes with their HTML and why they fail). The rule of every spec
 * that uses it: none. axe-core runs from node_modules (the @axe-core/playwright wrapper declares
 * Node 22; this project supports 20.19). A spec using it sets `test.use({ bypassCSP: true })`:
 * our CSP (script-src 'self') refuses the injected script, as it should refuse any inline one.
 */

const AXE = path.resolve('node_modules/axe-core/axe.min.js');

interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

export async function axeSerious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as AxeViolation[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map(
            (n) =>
              `    ${n.target.join(' ')}\n    ${n.html.slice(0, 200)}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
          )
          .join('\n'),
    );
}
