import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type Response,
  type TestInfo,
} from '@playwright/test';

export const ADMIN_PASSWORD = 'Admin@12345';
export const DEMO_PASSWORD = 'Demo@2026';

/** Signs in through the login page, as a person would, and waits for the shell. */
export async function signIn(
  page: Page,
  username: string,
  password = username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD,
) {
  await page.goto('/login');
  await page.getByLabel('账号或手机号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登 录' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

/** The rail's module titles, in order. */
export async function railModules(page: Page): Promise<string[]> {
  return page.getByTestId('module-rail').locator('button').allInnerTexts();
}

export async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  if (!cookie) throw new Error('no token cookie');
  return cookie.value;
}

/**
 * Clicks a confirmation's button (`name`) and waits for the confirmation to close. If it stays
 * open, the failure names the server's answers to the POSTs made meanwhile and the toasts still
 * showing. Three times in whole loaded runs a confirmation stayed open with no spinner, no
 * request and no toast (content's 发布确认 twice, a task's 删除任务): the click never reached the
 * button's handler, and the cause is not found yet (2026-12-07; the screenshot shows the dialog
 * at rest). A person taps again, and so does this, once, only when nothing at all followed the
 * first click (no request sent, no spinner, still open after 3 s), and it says so in the report,
 * with what the page saw of that click: the element each pointer event reached, and any node
 * holding buttons removed meanwhile (a re-render replacing the button between mousedown and
 * mouseup would send the click to their common ancestor).
 */
export async function confirmAndClose(dialog: Locator, name: string) {
  const page = dialog.page();
  const answers: string[] = [];
  let sent = 0;
  const asked = (r: { method(): string }) => {
    if (r.method() === 'POST') sent++;
  };
  const heard = (r: Response) => {
    if (r.request().method() !== 'POST') return;
    const path = new URL(r.url()).pathname;
    void r.text().then(
      (body) => answers.push(`${path} ${r.status()} ${body.slice(0, 200)}`),
      () => answers.push(`${path} ${r.status()} (no body)`),
    );
  };
  page.on('request', asked);
  page.on('response', heard);
  const button = dialog.getByRole('button', { name, exact: true });
  await tracePointer(page);
  await button.click();
  try {
    await expect(dialog).toBeHidden({ timeout: 3000 });
  } catch {
    if (sent === 0 && (await dialog.isVisible()) && (await button.getAttribute('data-loading')) === null) {
      // What the page saw of the click, for whoever finds the cause: which element each
      // pointer event reached, and whether a node holding buttons was removed meanwhile.
      const seen = await pointerTrace(page);
      test.info().annotations.push({ type: 'lost click', description: `${name}: clicked again; ${seen}` });
      console.warn(
        `confirmAndClose: the click on ${name} had no effect; clicking again. The page saw: ${seen}`,
      );
      await button.click();
    }
  }
  try {
    await expect(dialog).toBeHidden();
  } catch (err) {
    const toasts = await page.locator('.mantine-Notification-root').allTextContents();
    throw new Error(
      `the confirmation stayed open after ${name}; answers: ${JSON.stringify(answers)}; toasts: ${JSON.stringify(toasts)}`,
      { cause: err },
    );
  } finally {
    page.off('request', asked);
    page.off('response', heard);
  }
}

/**
 * Starts recording, in the page, the pointer events of the next click (type, the element each
 * reached, whether it was still in the document) and the removal of any node holding buttons.
 */
async function tracePointer(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __pointerTrace?: string[] };
    w.__pointerTrace = [];
    const log = (line: string) => w.__pointerTrace!.push(`${performance.now().toFixed(0)} ${line}`);
    const describe = (t: EventTarget | null) => {
      const el = t instanceof Element ? t : null;
      if (!el) return String(t);
      const text = (el.textContent ?? '').slice(0, 12);
      return `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)} "${text}"${el.isConnected ? '' : ' (detached)'}`;
    };
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'pointercancel'])
      document.addEventListener(type, (e) => log(`${type} ${describe(e.target)}`), {
        capture: true,
        once: true,
      });
    const watch = new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.removedNodes)
          if (n instanceof Element && n.querySelector('button')) log(`removed ${describe(n)}`);
    });
    watch.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => watch.disconnect(), 5000);
  });
}

async function pointerTrace(page: Page): Promise<string> {
  const lines = await page.evaluate(
    () => (window as unknown as { __pointerTrace?: string[] }).__pointerTrace ?? [],
  );
  return lines.length ? lines.join(' | ') : 'no pointer event at all';
}

/**
 * Clicks `target` and answers the moment its page received the click, by that page's own clock
 * (`Date.now()`, the clock watchText reads): a live check timed from the click itself, not from
 * when the test asked for it (under load, Playwright's wait for the element to be ready took
 * hundreds of ms before the click happened).
 */
export async function clickAt(target: Locator): Promise<number> {
  const page = target.page();
  const key = `__click_${Math.random().toString(36).slice(2)}`;
  await page.evaluate((k) => {
    const w = window as unknown as Record<string, number | undefined>;
    // Capture phase on the document: before the app's own handler runs.
    document.addEventListener('click', () => (w[k] ??= Date.now()), { capture: true, once: true });
  }, key);
  await target.click();
  const at = await page.evaluate((k) => (window as unknown as Record<string, number | undefined>)[k], key);
  if (!at) throw new Error('the page saw no click');
  return at;
}

/**
 * Watches, from inside the page, for the element `testId` to read `text`, and returns a function
 * that waits for it and gives the moment (ms since the epoch, the machine's clock) the page's
 * DOM first showed it.
 *
 * Why not `expect(...).toHaveText(text, { timeout: 2000 })` for "within 2 seconds": Playwright
 * polls the page at 100, 250, 500 and 1,000 ms steps, and each poll is a round trip through the
 * DevTools protocol that, on a loaded two-core CI machine, itself takes hundreds of ms. The
 * check then measured the harness as much as the app, and failed with the badge on its way.
 * A MutationObserver fires right after the app's render commits, so the time it records is the
 * app's alone; the caller asserts it against the moment the change was made.
 */
export async function watchText(page: Page, testId: string, text: string): Promise<() => Promise<number>> {
  const key = `__watch_${testId}_${text}_${Math.random().toString(36).slice(2)}`;
  const already = await page.evaluate(
    ({ key, testId, text }) => {
      const w = window as unknown as Record<string, number | undefined>;
      const check = () => {
        const el = document.querySelector(`[data-testid="${testId}"]`);
        if (w[key] === undefined && el?.textContent?.trim() === text) {
          w[key] = Date.now();
          observer.disconnect();
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(document, { subtree: true, childList: true, characterData: true });
      check();
      return w[key] !== undefined;
    },
    { key, testId, text },
  );
  // Already showing it: there is no change left to time, and the caller's check would pass
  // whatever the app did.
  if (already) throw new Error(`${testId} already reads ${text} before the change`);
  const seenAt = () =>
    page.evaluate((k) => (window as unknown as Record<string, number | undefined>)[k] ?? 0, key);
  return async () => {
    // Generous: this waits for the badge to show at all; the caller asserts how soon it did.
    await expect
      .poll(seenAt, { timeout: 15_000, message: `${testId} never read ${text}` })
      .toBeGreaterThan(0);
    return seenAt();
  };
}

/**
 * The live checks' pass mark: the page showed the change (`seen`, from watchText) at most 2 s
 * after `since`, the moment the change was made. The figure is kept as an annotation.
 */
export async function expectWithin2s(
  seen: () => Promise<number>,
  since: number,
  what: string,
  testInfo: TestInfo,
) {
  const ms = (await seen()) - since;
  testInfo.annotations.push({ type: 'live latency', description: `${what}: ${ms} ms` });
  // Printed too: CI's log then shows the figures of the runs that pass, not only the one that
  // fails, which is what tells a trend from a one-off.
  console.log(`live latency, ${what}: ${ms} ms`);
  expect(ms, `${what}: ${ms} ms`).toBeLessThanOrEqual(2000);
}

/*
 * A second person's browser in one test. Playwright closes only the contexts it made for the
 * test; one made with `browser.newContext()` lives on, its app still running (live stream,
 * refetches), through every later file of the lane, on the same two cores. A lane's failure
 * screenshot showed three such pages from a test long finished. A spec that opens them says
 * `test.afterEach(closePersonPages)`, so they go when their test ends, passed or failed.
 */
const personContexts = new Set<BrowserContext>();

/** A new browser context and page (another person, another device), closed with closePersonPages. */
export async function personPage(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  personContexts.add(context);
  context.on('close', () => personContexts.delete(context));
  return context.newPage();
}

/** Closes every context personPage opened that the test did not close itself. */
export async function closePersonPages() {
  await Promise.all([...personContexts].map((c) => c.close()));
}
