import { describe, expect, it } from 'vitest';
import { MAX_TRIES, createLogWriter } from './writer';

function harness(opts: { maxPending?: number; batch?: number; failing?: () => boolean } = {}) {
  const written: number[][] = [];
  const reports: { message: string; detail: Record<string, unknown> }[] = [];
  const w = createLogWriter<number>({
    insert: async (rows) => {
      if (opts.failing?.()) throw new Error('database away');
      written.push(rows);
    },
    report: (message, detail) => reports.push({ message, detail }),
    maxPending: opts.maxPending,
    batch: opts.batch,
    delayMs: 5,
  });
  return { w, written, reports };
}

describe('the system log writer', () => {
  it('writes queued entries in batches, in order', async () => {
    const { w, written } = harness({ batch: 3 });
    for (let i = 0; i < 7; i++) w.push(i);
    await w.flush();
    expect(written).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(w.pending()).toBe(0);
  });

  it('writes on its own after a short wait', async () => {
    const { w, written } = harness();
    w.push(1);
    await expect.poll(() => written.flat()).toEqual([1]);
  });

  it('reports a failed write, keeps the entries and writes them once the database is back', async () => {
    let down = true;
    const { w, written, reports } = harness({ failing: () => down });
    w.push(1);
    w.push(2);
    await w.flush();
    expect(written).toEqual([]);
    expect(reports[0]?.message).toBe('system log write failed');
    expect(w.pending()).toBe(2);
    down = false;
    await w.flush();
    expect(written.flat()).toEqual([1, 2]);
    expect(reports.at(-1)?.message).toBe('system log writes resumed');
  });

  it(`drops a batch that failed ${MAX_TRIES} times, saying so, and goes on with the rest`, async () => {
    let fail = true;
    const { w, written, reports } = harness({ failing: () => fail });
    w.push(1);
    for (let i = 0; i < MAX_TRIES; i++) await w.flush();
    expect(w.pending()).toBe(0);
    expect(reports.at(-1)?.detail.dropped).toBe(1);
    fail = false;
    w.push(2);
    await w.flush();
    expect(written.flat()).toEqual([2]);
  });

  it('holds at most maxPending entries and reports how many it dropped', async () => {
    let down = true;
    const { w, written, reports } = harness({ maxPending: 5, failing: () => down });
    for (let i = 0; i < 8; i++) w.push(i);
    expect(w.pending()).toBe(5);
    down = false;
    await w.flush();
    expect(written.flat()).toEqual([0, 1, 2, 3, 4]);
    expect(reports.find((r) => r.message.includes('dropped'))?.detail.dropped).toBe(3);
  });

  it('never throws into the pusher, whatever the database does', () => {
    const { w } = harness({ failing: () => true });
    expect(() => {
      for (let i = 0; i < 100; i++) w.push(i);
    }).not.toThrow();
  });

  it('writes what is queued when closed', async () => {
    const { w, written } = harness();
    w.push(9);
    await w.close();
    expect(written.flat()).toEqual([9]);
  });
});
