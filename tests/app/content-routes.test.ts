import { describe, expect, it, vi } from 'vitest';
import { BUILT_PAGES } from '../../src/app/routes/pages';
import { MODULES } from '../../src/shared/menu/catalogue';

/**
 * Issue 23: every route of the 小程序管理, 官网建设 and 英文网站 menus is a real page, none the
 * 该功能建设中 placeholder a route without a page shows. (Issue 24 widens this to the whole
 * catalogue.)
 */
// The workbench is the one page pages.tsx loads eagerly; its code wants a browser. The rest load
// on first visit, so importing the table runs none of them.
vi.mock('../../src/app/routes/workbench', () => ({ Workbench: () => null }));

type Node = { path?: string; items?: Node[]; children?: Node[]; hidden?: Node[] };
const pathsOf = (n: Node): string[] => [
  ...(n.path ? [n.path.split('?')[0]!] : []),
  ...[...(n.items ?? []), ...(n.children ?? []), ...(n.hidden ?? [])].flatMap(pathsOf),
];

describe('the content menus', () => {
  it.each(['applet', 'website', 'enWebsite'])('%s: every route has a page', (key) => {
    const mod = MODULES.find((m) => m.key === key) as Node | undefined;
    const paths = pathsOf(mod!);
    expect(paths.length).toBeGreaterThan(8);
    expect(paths.filter((p) => !(p in BUILT_PAGES))).toEqual([]);
  });
});
