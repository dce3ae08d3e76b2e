import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The built server maps its stack traces to src/server/… lines by itself (src/server/stack-map.ts),
 * instead of Node's --enable-source-maps, which parsed every module's map at each start (issue 25).
 * A program that imports it first is bundled here as scripts/build-server.ts bundles the server
 * (esbuild, ESM, linked maps without sources), and its trace must name the TypeScript lines, as
 * --enable-source-maps names them.
 */

const root = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-stack-map-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SOURCE = `import ${JSON.stringify(path.join(root, 'src/server/stack-map.ts'))};

async function 读取藏品(id: number): Promise<number> {
  await Promise.resolve();
  if (id > 0) throw new TypeError('藏品编号不存在：' + id);
  return id;
}

读取藏品(7).catch((err: Error) => {
  console.log(err.stack);
});
`;

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  fs.writeFileSync(path.join(dir, 'program.ts'), SOURCE);
  const out = path.join(dir, 'out');
  await build({
    absWorkingDir: root,
    entryPoints: { main: path.join(dir, 'program.ts') },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
  // As in the repository: .js files are ES modules.
  fs.writeFileSync(path.join(out, 'package.json'), '{"type":"module"}');
  return path.join(out, 'main.js');
}

function run(main: string, flags: string[] = []) {
  const r = spawnSync(process.execPath, [...flags, main], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('stack traces of the built server', () => {
  it('name the TypeScript lines without --enable-source-maps, as the flag does', async () => {
    const main = await bundle();
    const program = path.join(dir, 'program.ts');
    const mapped = run(main);
    expect(mapped.split('\n')[0]).toBe('TypeError: 藏品编号不存在：7');
    // The throw (its \`new\`) is on line 5, column 21 of program.ts; the bundle's place is gone.
    expect(mapped).toContain(`at 读取藏品 (${program}:5:21)`);
    expect(mapped).not.toContain('main.js:');

    // Node's own mapping gives the same frame (the module stays out of its way then).
    const flagged = run(main, ['--enable-source-maps']);
    expect(flagged).toContain(`at 读取藏品 (${program}:5:21)`);
  }, 60_000);

  it('are not formatted at start: every fastify-plugin of ours is named', () => {
    // fastify-plugin names an anonymous plugin by reading a stack trace, which would read and
    // parse the bundle's map at every start, what the mapping is there to avoid.
    const files = fs.readdirSync(path.join(root, 'src/server'), { recursive: true, encoding: 'utf8' });
    const anonymous: string[] = [];
    for (const rel of files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = fs.readFileSync(path.join(root, 'src/server', rel), 'utf8');
      for (const m of text.matchAll(/\bfp\(\s*(async\s+function\s+\w+|async\s*\(|\(|function\s*\()/g)) {
        if (m[1]!.startsWith('async function')) continue;
        // An arrow or an unnamed function: named only through fp's options.
        const rest = text.slice(m.index);
        const end = rest.search(/^\);$/m);
        if (!/\{ name: '[\w-]+' \},?\s*$/.test(rest.slice(0, end))) anonymous.push(rel);
      }
    }
    expect(anonymous).toEqual([]);
  });
});
