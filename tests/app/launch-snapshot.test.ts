import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  SNAPSHOT_MAX_AGE_MS,
  SNAPSHOT_MAX_CHARS,
  encodeSnapshot,
  type LaunchSnapshot,
} from '../../src/app/lib/launch-snapshot';
import { LAST_KEY, SNAPSHOT_KEYS } from '../../src/app/lib/session-keys';

/**
 * Issue 25: the snapshot the app keeps (lib/launch-snapshot.ts) and the boot script that decides
 * whether to show it (public/launch-snapshot.js, plain JavaScript served as is) must agree, and
 * the script must refuse every snapshot that is not this person's, this address's, this
 * version's and still fresh. The script is run here as the browser runs it, in a context of its
 * own; the drawing itself is proved in Chromium (e2e/launch-snapshot.spec.ts).
 */
const script = fs.readFileSync(path.resolve(import.meta.dirname, '../../public/launch-snapshot.js'), 'utf8');

interface Env {
  raws: (string | null)[];
  lastSession: string | null;
  cookie: string;
  origin: string;
  path: string;
  sheets: string[];
  now: number;
}
function boot(): { choose(env: Env): LaunchSnapshot | null } {
  const sandbox = { module: { exports: {} as never } };
  vm.runInNewContext(script, sandbox);
  return sandbox.module.exports;
}
const { choose } = boot();

const NOW = Date.parse('2026-12-06T10:00:00Z');
const DRIVE = '/resources/net-disk?fileType=0';
const SHEETS = ['http://museum.local/assets/index-abc123.css'];
const snapshot = (over: Partial<Omit<LaunchSnapshot, 'v'>> = {}) =>
  encodeSnapshot({
    userId: 7,
    path: DRIVE,
    sheets: SHEETS,
    scheme: 'light',
    html: '<div data-name="馆藏照片">馆藏照片</div>',
    savedAt: NOW - 3600_000,
    expires: NOW - 3600_000 + SNAPSHOT_MAX_AGE_MS,
    ...over,
  });
const last = (userId = 7, firstUrl = '/home/workbench') =>
  JSON.stringify({ user: { userId }, roleFunction: { roles: [], firstUrl } });
const env = (over: Partial<Env> & { raw?: string | null } = {}): Env => ({
  raws: 'raw' in over ? [over.raw ?? null] : [snapshot()],
  lastSession: last(),
  cookie: 'lang=zh; token=abc.def',
  origin: 'http://museum.local',
  path: DRIVE,
  sheets: SHEETS,
  now: NOW,
  ...over,
});

describe('launch snapshot', () => {
  it('the keys the boot script reads are the app’s', () => {
    for (const key of Object.values(SNAPSHOT_KEYS)) expect(script).toContain(`'${key}'`);
    expect(script).toContain(`'${LAST_KEY}'`);
    // The first-paint bench waits for the drive's picture under its key (a renamed key left it
    // waiting out its timeout once).
    const bench = fs.readFileSync(path.resolve(import.meta.dirname, '../bench/first-paint.ts'), 'utf8');
    expect(bench).toContain(`'${SNAPSHOT_KEYS.drive}'`);
  });

  it('shows the person’s own last screen at the same address', () => {
    const shown = choose(env());
    expect(shown?.html).toContain('馆藏照片');
    expect(shown?.path).toBe(DRIVE);
  });

  it('at the app’s start, shows the first page it leads to, when that is a kept one', () => {
    expect(choose(env({ path: '/', lastSession: last(7, DRIVE) }))?.path).toBe(DRIVE);
    expect(choose(env({ path: '/' }))).toBeNull();
  });

  it('of the pages kept (the drive, the workbench), shows the one of this address', () => {
    const bench = snapshot({ path: '/home/workbench', html: '<p>上午好</p>' });
    const raws = [snapshot(), bench];
    expect(choose(env({ raws, path: '/' }))?.html).toBe('<p>上午好</p>');
    expect(choose(env({ raws, path: DRIVE }))?.html).toContain('馆藏照片');
    expect(choose(env({ raws: [null, bench], path: DRIVE }))).toBeNull();
    // One that may not be shown does not hide the other.
    expect(choose(env({ raws: ['{', bench], path: '/home/workbench' }))?.html).toBe('<p>上午好</p>');
  });

  it('refuses another person’s, another address’s, another version’s, or a signed-out device’s', () => {
    expect(choose(env({ lastSession: last(8) }))).toBeNull();
    expect(choose(env({ path: '/resources/net-disk?fileType=1' }))).toBeNull();
    expect(choose(env({ sheets: ['http://museum.local/assets/index-new999.css'] }))).toBeNull();
    // Its page's own sheet comes on top of the document's; none from elsewhere.
    const page = [...SHEETS, 'http://museum.local/assets/drive-page-9f8e.css'];
    expect(choose(env({ raw: snapshot({ sheets: page }) }))).not.toBeNull();
    const foreign = [...SHEETS, 'https://cdn.example/evil.css'];
    expect(choose(env({ raw: snapshot({ sheets: foreign }) }))).toBeNull();
    expect(choose(env({ cookie: 'lang=zh' }))).toBeNull();
    expect(choose(env({ cookie: 'token=' }))).toBeNull();
    expect(choose(env({ lastSession: null }))).toBeNull();
  });

  it('refuses an expired, a week-old or a future snapshot', () => {
    expect(choose(env({ raw: snapshot({ expires: NOW }) }))).toBeNull();
    // The script's own week, whatever the page asked for: the same limit as the app's.
    const far = NOW + 30 * SNAPSHOT_MAX_AGE_MS;
    expect(
      choose(env({ raw: snapshot({ savedAt: NOW - SNAPSHOT_MAX_AGE_MS, expires: far }) })),
    ).not.toBeNull();
    expect(
      choose(env({ raw: snapshot({ savedAt: NOW - SNAPSHOT_MAX_AGE_MS - 1, expires: far }) })),
    ).toBeNull();
    expect(choose(env({ raw: snapshot({ savedAt: NOW + 60_000 }) }))).toBeNull();
  });

  it('refuses what is broken rather than throwing', () => {
    for (const raw of [
      null,
      '',
      '{',
      'null',
      '[]',
      '{"v":2}',
      JSON.stringify({ v: 1, html: 5 }),
      snapshot({ sheets: [] }),
    ])
      expect(choose(env({ raw }))).toBeNull();
    expect(choose(env({ lastSession: '{' }))).toBeNull();
  });

  it('keeps nothing too big for the device’s storage', () => {
    expect(snapshot({ html: 'x'.repeat(SNAPSHOT_MAX_CHARS) })).toBeNull();
    expect(snapshot({ html: 'x'.repeat(SNAPSHOT_MAX_CHARS - 1000) })).not.toBeNull();
  });
});
