import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * Stack traces of the built server (dist-server/, scripts/build-server.ts) name src/server/…
 * lines, as they did when Node ran with --enable-source-maps (issue 25). That flag parsed the
 * source map of every module as it loaded, at every start (measured A/B: 0.08 s of CPU and
 * 7 MB on a quiet machine, 0.4 s and 28 MB on a loaded one), for traces that a healthy server
 * seldom prints. Here a bundle's map is read and parsed the first time a trace through that
 * bundle is formatted (0.1–0.4 s, once). Nothing at start may format a trace, or the map is
 * parsed then after all: fastify-plugin reads one to name an anonymous plugin, so ours are
 * named (tests/server/stack-map.test.ts holds them to it).
 *
 * Only frames in the build's own files are mapped (the folder this module was bundled into);
 * under tsx (the sources, the API tests) and with --enable-source-maps nothing is installed, as
 * Node maps those itself. A map that cannot be read leaves the frame as it was.
 */

const here = fileURLToPath(import.meta.url);
/** The build's folder: dist-server/, whether this module landed in an entry or in chunks/. */
const buildDir =
  path.basename(path.dirname(here)) === 'chunks' ? path.dirname(path.dirname(here)) : path.dirname(here);
const maps = new Map<string, { map: SourceMap; url: string } | null>();

/** A frame's file as a path (ES modules name theirs by file: URL). */
const pathOf = (file: string) => (file.startsWith('file:') ? fileURLToPath(file) : file);

/** The file's parsed map, read once; null when it has none that can be read. */
function mapOf(file: string) {
  let found = maps.get(file);
  if (found !== undefined) return found;
  try {
    const mapFile = `${file}.map`;
    found = {
      map: new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8'))),
      url: pathToFileURL(mapFile).href,
    };
  } catch {
    found = null;
  }
  maps.set(file, found);
  return found;
}

/** One frame as V8 writes it, its place in the bundle replaced by the source's. */
function frameText(frame: NodeJS.CallSite): string {
  const text = String(frame);
  const file = frame.getFileName();
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (!file || !line || !column) return text;
  const own = pathOf(file);
  if (!own.endsWith('.js') || !own.startsWith(buildDir + path.sep)) return text;
  const found = mapOf(own);
  const entry = found?.map.findEntry(line - 1, column - 1);
  if (!entry || !('originalSource' in entry) || !entry.originalSource) return text;
  const source = fileURLToPath(new URL(entry.originalSource, found!.url));
  return text.replace(
    `${file}:${line}:${column}`,
    `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`,
  );
}

/** V8's header line: what Error.prototype.toString gives, for anything that was thrown. */
function headerOf(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

function installStackMapping(): void {
  if (!here.endsWith('.js') || process.sourceMapsEnabled) return;
  Error.prepareStackTrace = (error, frames) =>
    headerOf(error) + frames.map((f) => `\n    at ${frameText(f)}`).join('');
}

installStackMapping();
