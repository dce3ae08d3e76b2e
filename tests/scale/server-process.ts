import { startServer } from '../server/harness';

/*
 * A test server in a process of its own (forked by tests/bench/s3-memory.ts with --expose-gc and
 * an IPC channel), so what it holds is measured without the client that drives it. It answers
 * `{ url }` once listening; then each 'sample' message with what it holds alive (garbage
 * collected first) and its RSS; 'stop' closes it. The environment chooses the stores
 * (SCALE_TEST_* as in the scale-out pass).
 */

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('fork this with --expose-gc and an IPC channel');
const s = await startServer();
process.send({ url: s.url });
process.on('message', (m: string) => {
  if (m === 'sample') {
    gc();
    // V8 frees the memory of dead Buffers on a background thread just after a collection.
    setTimeout(() => {
      const u = process.memoryUsage();
      process.send!({ live: u.heapUsed + u.arrayBuffers, rss: u.rss });
    }, 20);
  } else if (m === 'stop') {
    void s.close().then(() => process.exit(0));
  }
});
