// Preloaded (`node --import`) into a server the start bench runs: answers 'sample' on the IPC
// channel with where its memory is (process.memoryUsage, V8's heap statistics and spaces).
import v8 from 'node:v8';

process.on('message', (m) => {
  if (m !== 'sample') return;
  process.send?.({
    usage: process.memoryUsage(),
    heap: v8.getHeapStatistics(),
    spaces: v8
      .getHeapSpaceStatistics()
      .map((s) => ({ name: s.space_name, used: s.space_used_size, size: s.space_size })),
  });
});
// The IPC channel must not keep a server alive that would otherwise exit (or a bare reference).
process.channel?.unref();
