import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/harness';
import { driveUser } from '../server/drive-util';
import { bigFile, bytesAt, downloadMd5, memoryGrowth, uploadBig } from './big-file';
import { createHash } from 'node:crypto';

/*
 * The server's memory stays flat whatever the file's size, through the object store: a file of
 * 64 MiB goes up in 1 MiB chunks (three in flight, folded into parts as they land) and comes
 * back whole and in a range, while what this process holds alive (the server, and the test's
 * client, which never holds the file either) stays well under the file; s3rver runs in its
 * own process. A server that buffered the file would grow by 64 MiB or more. The bench
 * (tests/bench/s3-memory.ts) compares a small and a large file.
 */

const MIB = 1024 * 1024;
let s: TestServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('memory through the object store', () => {
  it('a 64 MiB upload and its downloads keep a fraction of the file alive', async () => {
    expect(s.storage.kind).toBe('s3');
    const u = await driveUser(s, 'staff04');
    const f = bigFile(64 * MIB);
    // Warm the paths (SDK, sockets, JIT) with a small file, so the baseline is a running server.
    const warm = bigFile(6 * MIB);
    await downloadMd5(s, u.token, await uploadBig(s, u.token, warm, 'warm.bin'), 'bytes=0-99');
    let id = 0;
    const growth = await memoryGrowth(async () => {
      id = await uploadBig(s, u.token, f, '高清扫描.tif');
      const whole = await downloadMd5(s, u.token, id);
      expect(whole).toEqual({ status: 200, md5: f.md5, bytes: f.size });
      const start = 40 * MIB + 16;
      const part = await downloadMd5(s, u.token, id, `bytes=${start}-${start + 3 * MIB - 1}`);
      expect(part).toEqual({
        status: 206,
        md5: createHash('md5')
          .update(bytesAt(start, 3 * MIB))
          .digest('hex'),
        bytes: 3 * MIB,
      });
    });
    console.log(`live +${(growth.live / MIB).toFixed(1)} MiB, RSS +${(growth.rss / MIB).toFixed(1)} MiB`);
    // Chunks in flight (three, each held by the client and by the server), a part being
    // folded and the streams' buffers are most of it; a server holding the file would pass 64.
    expect(growth.live).toBeLessThan(48 * MIB);
    expect(growth.rss).toBeLessThan(64 * MIB);
  }, 120_000);
});
