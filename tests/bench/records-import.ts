/**
 * The records engine's batch import at its cap (issue 18): 5,000 duty roster rows through
 * `scheme/batchImport`, on a real server over a fresh SQLite file.
 *
 * SQLite has one connection, so while an import's transaction runs every other request waits
 * for it, reads included. What matters is how long that is: we measure the latency of a cheap
 * authenticated read (`login/userInfo`) sent every 25 ms while the import runs, its worst case
 * against the same read on the idle server (the reference, p50 of 200), and the import's wall
 * time against inserting the same 5,000 rows with one multi-row statement per 500 rows in one
 * transaction (what the writes alone cost).
 *
 * Run alone with `npx tsx tests/bench/records-import.ts`, or as part of `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { startServer } from '../server/harness';

const ROWS = 5000;
const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const line = (name: string, ms: number, ref?: number) =>
  console.log(
    `${name.padEnd(52)} ${ms.toFixed(1).padStart(9)} ms${ref ? `   ×${(ms / ref).toFixed(2)} of reference` : ''}`,
  );

try {
  const token = await s.login('admin');
  // Six people on the day shift of three kinds a day: nobody ever overlaps, every row is valid.
  const k = s.db as unknown as Kysely<any>;
  const people = (
    await k.selectFrom('user').select(['user_name']).where('account', 'like', 'staff%').execute()
  )
    .map((u) => u.user_name as string)
    .slice(0, 6);
  const day = (i: number) =>
    new Date(Date.UTC(2040, 0, 1) + Math.floor(i / 3) * 86_400_000).toISOString().slice(0, 10);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('值班表');
  ws.addRow(['值班日期', '值班类型', '班次', '带班领导', '值班人员', '值班电话', '备注']);
  const kinds = ['行政值班', '安保值班', '节假日值班'];
  for (let i = 0; i < ROWS; i++)
    ws.addRow([
      day(i),
      kinds[i % 3],
      '白班',
      people[(i % 3) * 2],
      people[(i % 3) * 2 + 1],
      '010-88886666',
      '',
    ]);
  const file = Buffer.from(await wb.xlsx.writeBuffer());

  // The probe runs in a worker thread with its own event loop: while the server's loop is
  // busy (or its one SQLite connection is held), the probe's clock keeps running.
  const probe = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const { performance } = require('node:perf_hooks');
     let stop = false;
     parentPort.on('message', () => { stop = true; });
     (async () => {
       const out = [];
       const read = async () => {
         const t0 = performance.now();
         await fetch(workerData.url, { headers: { token: workerData.token } }).then((r) => r.arrayBuffer());
         return performance.now() - t0;
       };
       for (let i = 0; i < 50; i++) await read();
       const idle = [];
       for (let i = 0; i < 200; i++) idle.push(await read());
       parentPort.postMessage({ idle });
       while (!stop) {
         out.push(await read());
         await new Promise((r) => setTimeout(r, 25));
       }
       parentPort.postMessage({ during: out });
     })();`,
    { eval: true, workerData: { url: `${s.url}/singleMuseum/login/userInfo`, token } },
  );
  const next = () =>
    new Promise<{ idle?: number[]; during?: number[] }>((resolve) => probe.once('message', resolve));
  const idle = (await next()).idle!;
  const ref = pct(idle, 50);
  const fd = new FormData();
  fd.append('schemeId', 'dutyRoster');
  fd.append('type', '1');
  fd.append('file', new Blob([new Uint8Array(file)]), 'roster.xlsx');
  const t0 = performance.now();
  const res = await fetch(`${s.url}/singleMuseum/scheme/batchImport`, {
    method: 'POST',
    headers: { token },
    body: fd,
  });
  const answer = (await res.json()) as { success: boolean; message: string; result: unknown };
  const wall = performance.now() - t0;
  const ended = next();
  probe.postMessage('stop');
  const during = (await ended).during!;
  await probe.terminate();
  if (!answer.success)
    throw new Error(`import refused: ${answer.message} ${JSON.stringify(answer.result).slice(0, 500)}`);

  // What the writes alone cost: the same rows, multi-row inserts in one transaction.
  await k.deleteFrom('duty_roster').execute();
  const now = Date.now();
  const t1 = performance.now();
  await k.transaction().execute(async (trx) => {
    for (let from = 0; from < ROWS; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(ROWS, from + 500); i++)
        rows.push({
          create_time: now,
          update_time: now,
          duty_date: day(i),
          duty_type: String((i % 3) + 1),
          shift: '1',
          leader_id: 1,
          staff_ids: ',1,',
          duty_phone: '010-88886666',
          remark: '',
        });
      await trx.insertInto('duty_roster').values(rows).execute();
    }
  });
  const bare = performance.now() - t1;

  console.log(`\n馆务云 bench: batch import of ${ROWS} duty roster rows`);
  line('reference: a read on the idle server (p50)', ref);
  line('the same read while the import runs (p50)', pct(during, 50), ref);
  line('the same read while the import runs (worst)', Math.max(...during), ref);
  line('reference: the rows inserted bare, one transaction', bare);
  line('the import (parse, check, save; wall)', wall, bare);
  console.log(`reads answered during the import: ${during.length}`);
} finally {
  await s.close();
}
