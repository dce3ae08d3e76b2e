import path from 'node:path';
import type { Profiler } from 'node:inspector';

/**
 * The summary the profiling tools print (call-profile.ts, upload-profile.ts): self time per
 * package / our file and the top functions, per unit of work (a call, a chunk), from an
 * inspector CPU profile of this process.
 */
export function summarize(profile: Profiler.Profile, units: number, unit: string, groups = 30, fns = 40) {
  // Self time per node, from the samples and their time deltas.
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byGroup = new Map<string, number>();
  const byFn = new Map<string, number>();
  const root = process.cwd();
  for (const n of profile.nodes) {
    const t = self.get(n.id) ?? 0;
    if (!t) continue;
    const u = n.callFrame.url;
    let group: string;
    if (!u) group = `(${n.callFrame.functionName || 'native'})`;
    else if (u.includes('/node_modules/')) {
      const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
      group = m![1]!;
    } else if (u.startsWith('node:'))
      group = u.split('/')[0]!.replace(/:.*$/, ':') + u.slice(5).split('/')[0];
    else group = path.relative(root, u.replace('file://', ''));
    byGroup.set(group, (byGroup.get(group) ?? 0) + t);
    const fn = `${n.callFrame.functionName || '(anonymous)'}  ${group}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([name, t]) =>
          `${((t / units) * 1000).toFixed(1).padStart(7)} µs/${unit} ${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`,
      )
      .join('\n');
  console.log(
    `\nself time by package / file (client and server share this process):\n${top(byGroup, groups)}`,
  );
  console.log(`\ntop functions by self time:\n${top(byFn, fns)}`);
}
