/**
 * Unzip (issue 6): how long the server takes to unzip an archive, and how much memory it
 * needs, against storing the same files one by one through the drive service in the same
 * process (what those files cost anyway once their bytes are on the server: hashing, the blob
 * store, one row each).
 *
 * The archive: FILES files of FILE_KB KiB of random bytes (incompressible, so the archive is
 * about as large as its contents) in 20 folders, zipped with yazl (deflate). Timed from
 * `file/unzipfile` to the job reading `done` (polled every 50 ms), median of three into fresh
 * folders. Also prints the server's peak RSS during the unzip over its RSS right before: the
 * extraction streams, so it must not grow with the archive (measured: about 95 MiB for both a
 * 125 MiB and a 375 MiB archive, the worker thread and its loader). BENCH_UNZIP_KB and
 * BENCH_UNZIP_RUNS change the file size and the number of runs.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import yazl from 'yazl';
import { areaOf } from '../../src/server/modules/drive/area';
import { driveServiceOf, startServer } from '../server/harness';
import { driveUser } from '../server/drive-util';

const FILES = 2000;
const FILE_KB = Number(process.env.BENCH_UNZIP_KB ?? 64);
const RUNS = Number(process.env.BENCH_UNZIP_RUNS ?? 3);

function zipOf(files: { name: string; data: Buffer }[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const f of files) zip.addBuffer(f.data, f.name);
    zip.end();
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => parts.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000', DEFAULT_QUOTA_GB: '100' });
try {
  const me = await driveUser(s, 'staff02');
  const svc = driveServiceOf(s);
  const area = areaOf(me.userId);

  const unzipTimes: number[] = [];
  const refTimes: number[] = [];
  let peakOver = 0;
  let archiveBytes = 0;
  for (let run = 0; run < RUNS; run++) {
    // Fresh bytes each run: neither side may reuse the other's blobs.
    const files = Array.from({ length: FILES }, (_, i) => ({
      name: `卷${i % 20}/文件${i}.bin`,
      data: randomBytes(FILE_KB * 1024),
    }));
    const zip = await zipOf(files);
    archiveBytes = zip.length;
    const zipId = await me.put('/', `档案${run}.zip`, zip);

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const t0 = performance.now();
    const started = await me.post('/file/unzipfile', { unzipMode: 1, userFileId: zipId });
    if (!started.body?.success) throw new Error(JSON.stringify(started.body));
    let job = started.body.data;
    while (job.status === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      job = (await me.get('/file/unzipjob', { jobId: job.jobId })).body.data;
    }
    unzipTimes.push(performance.now() - t0);
    clearInterval(sampler);
    peakOver = Math.max(peakOver, peak - before);
    if (job.status !== 'done' || job.entriesDone !== FILES) throw new Error(JSON.stringify(job));

    // The reference: the same files (new bytes again) stored one by one by the drive service.
    const again = files.map((f) => ({ ...f, data: randomBytes(FILE_KB * 1024) }));
    const t1 = performance.now();
    for (const f of again) {
      const slash = f.name.lastIndexOf('/');
      await svc.addFile({
        area,
        filePath: `/参照${run}/${f.name.slice(0, slash)}/`,
        fullName: f.name.slice(slash + 1),
        content: f.data,
      });
    }
    refTimes.push(performance.now() - t1);
  }

  const mb = (FILES * FILE_KB) / 1024;
  const u = median(unzipTimes);
  const r = median(refTimes);
  console.log(
    `\nUnzip: ${FILES} files of ${FILE_KB} KiB (${mb.toFixed(0)} MiB, archive ${(archiveBytes / 2 ** 20).toFixed(1)} MiB), median of ${RUNS}`,
  );
  console.log(
    `reference: drive.addFile one by one   ${(r / 1000).toFixed(2).padStart(7)} s   ${(mb / (r / 1000)).toFixed(1)} MiB/s`,
  );
  console.log(
    `file/unzipfile to job done            ${(u / 1000).toFixed(2).padStart(7)} s   ${(mb / (u / 1000)).toFixed(1)} MiB/s   ×${(u / r).toFixed(2)} of reference`,
  );
  console.log(
    `server RSS peak over start during unzip: ${(peakOver / 2 ** 20).toFixed(1)} MiB (archive ${(archiveBytes / 2 ** 20).toFixed(1)} MiB)`,
  );
} finally {
  await s.close();
}
