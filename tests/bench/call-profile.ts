/**
 * Where the fixed cost of a signed-in call goes (issue 25): a CPU profile of 10,000
 * `file/getfilelist` calls on a one-entry folder (so the SQL is negligible), taken with the
 * inspector in this process, summarized by self time per package / our file, and the top
 * functions. The client's own share (undici's fetch) is listed apart, so the server's is
 * readable. `npx tsx tests/bench/call-profile.ts [calls] [entries]`; writes the raw profile to
 * .tmp/call-profile.cpuprofile (open it in Chromium's DevTools for the flame graph). With
 * `entries` (say 1000), the calls list page 1 (100 rows) of a folder of that many entries laid
 * out as drive-list.ts lays them (20 folders, then files with Chinese names): where the listing
 * ratio's per-row costs go.
 * Not part of `npm run bench` (a profile is a tool, not a figure).
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import SqliteDatabase from 'better-sqlite3';
import { startServer } from '../server/harness';
import { userIdOf } from '../server/util';
import { summarize } from './profile-summary';

const CALLS = Number(process.argv[2] ?? 10_000);
const ENTRIES = Number(process.argv[3] ?? 1);
const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
try {
  const token = await s.login('staff02');
  // '/p/' holding one entry, as drive-list.ts's fixed cost lists: an empty folder would add the
  // statement that tells an empty folder from a missing one.
  for (const [filePath, fileName] of [
    ['/', 'p'],
    ['/p/', 'q'],
  ] as const) {
    const res = await s.call('POST', '/wangpan/file/createfile', {
      token,
      body: { filePath, fileName, isDir: 1 },
    });
    if (res.body.success !== true) throw new Error(`createfile ${filePath}${fileName}: ${res.body.message}`);
  }
  let folder = '/p/';
  if (ENTRIES > 1) {
    // Rows written straight into the database, as drive-list.ts writes them (no blobs).
    const raw = new SqliteDatabase(s.config.dbFile);
    raw.pragma('busy_timeout = 5000');
    const userId = await userIdOf(s, 'staff02');
    const insert = raw.prepare(
      `insert into user_file (space, file_path, file_name, extend_name, is_dir, blob_id, file_size, upload_time, delete_flag, created_by)
       values (?, '/big/', ?, ?, ?, null, ?, ?, 0, ?)`,
    );
    const now = Date.now();
    raw.transaction(() => {
      raw
        .prepare(
          `insert into user_file (space, file_path, file_name, extend_name, is_dir, blob_id, file_size, upload_time, delete_flag, created_by)
           values (?, '/', 'big', '', 1, null, 0, ?, 0, ?)`,
        )
        .run(`u:${userId}`, now, userId);
      for (let i = 0; i < ENTRIES; i++) {
        const dir = i < 20;
        const key = String((i * 7919) % 1_000_003).padStart(7, '0');
        const name = dir ? `目录-${String(i).padStart(3, '0')}` : `藏品照片-${key}-${i}`;
        const ext = dir ? '' : ['jpg', 'docx', 'pdf', 'mp4', 'txt'][i % 5]!;
        insert.run(`u:${userId}`, name, ext, dir ? 1 : 0, dir ? 0 : 1000 + i, now - i * 1000, userId);
      }
    })();
    raw.exec('analyze');
    raw.close();
    folder = '/big/';
  }
  const url = `${s.url}/wangpan/file/getfilelist?filePath=${encodeURIComponent(folder)}&currentPage=1&pageCount=100`;
  const once = async () => {
    const res = await fetch(url, { headers: { token } });
    await res.arrayBuffer();
  };
  for (let i = 0; i < 500; i++) await once();

  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await once();
  const ms = performance.now() - t0;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  fs.mkdirSync('.tmp', { recursive: true });
  fs.writeFileSync('.tmp/call-profile.cpuprofile', JSON.stringify(profile));

  console.log(
    `\n${CALLS} sequential getfilelist calls (${ENTRIES > 1 ? `page 1 of ${ENTRIES} entries` : '1-entry folder'}): ${(ms / CALLS).toFixed(3)} ms per call, client included`,
  );
  summarize(profile, CALLS, 'call');
} finally {
  await s.close();
}
