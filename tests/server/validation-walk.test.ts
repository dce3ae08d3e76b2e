import { createHash } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AttachChunkFields } from '../../src/shared/api/attach';
import { labelOf, namesOf } from '../../src/shared/api/labels';
import { UploadParams } from '../../src/shared/api/upload';
import { startServer, type TestServer } from './harness';

/**
 * Issue 16 §4: every refusal of malformed input, on every registered route, is Chinese and names
 * the field. The routes come from the real app (buildApp's onRoute seam), so a new route is
 * walked the day it is added; the malformed values come from each route's own schema. Hand-parsed
 * routes (the drive's chunk upload, the attachment chunk form) are walked with their schemas.
 */

type Schema = z.ZodType;
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  options?: Schema[];
  left?: Schema;
  right?: Schema;
  getter?: () => Schema;
  valueType?: Schema;
  items?: Schema[];
}
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def; bag?: { maximum?: number } } })._zod;

/** Every key at any depth of a schema (objects in lists, unions, pipes included). */
function keysOf(s: Schema | undefined, out = new Set<string>(), seen = new Set<Schema>()): Set<string> {
  if (!s || seen.has(s)) return out;
  seen.add(s);
  const d = defOf(s).def;
  const sub: (Schema | undefined)[] = [];
  if (d.type === 'object') {
    for (const [k, v] of Object.entries(d.shape!)) {
      out.add(k);
      sub.push(v);
    }
  }
  sub.push(
    d.element,
    d.innerType,
    d.in,
    d.out,
    d.left,
    d.right,
    d.valueType,
    ...(d.options ?? []),
    ...(d.items ?? []),
  );
  if (d.type === 'lazy') sub.push(d.getter!());
  for (const x of sub) keysOf(x, out, seen);
  return out;
}

/** The top-level fields of a request schema (through refinements, pipes and defaults). */
function fieldsOf(s: Schema | undefined): Record<string, Schema> {
  if (!s) return {};
  const d = defOf(s).def;
  if (d.type === 'object') return d.shape!;
  // The records engine's route schemas are built on first use (records.routes.ts `later`).
  if (d.type === 'lazy') return fieldsOf(d.getter!());
  if (d.type === 'pipe') return fieldsOf(d.in);
  if (d.innerType) return fieldsOf(d.innerType);
  return {};
}

/** The innermost schema of a field, and the longest string it takes when it is a string. */
function stringMax(s: Schema): number | undefined {
  const z = defOf(s);
  if (z.def.type === 'string') return z.bag?.maximum;
  if (z.def.innerType) return stringMax(z.def.innerType);
  if (z.def.type === 'pipe') return stringMax(z.def.in!) ?? stringMax(z.def.out!);
  return undefined;
}

/** Malformed values for one field: wrong types, a number where a list is expected, too long. */
function badValues(field: Schema, inQuery: boolean): unknown[] {
  const max = stringMax(field);
  const long = max !== undefined && max < (inQuery ? 4000 : 200_000) ? ['x'.repeat(max + 1)] : [];
  if (inQuery) return ['abc', '-1', '1.5', ...long];
  return ['abc', -1, 1.5, true, {}, [{}], [{ x: 1 }], 'x'.repeat(300), ...long];
}

/** zod's own words and the old catch-alls: what no answer may be. */
const ENGLISH = /\b(invalid|expected|received|too (big|small)|required|must|input|string|number|nan)\b/i;
const GENERIC = /请求参数不正确|请求不正确，请检查后重试|^参数不正确$/;
const CHINESE = /[\u4e00-\u9fa5]/;

interface Probe {
  route: string;
  sent: string;
  status: number;
  message: string;
}

let s: TestServer;
let token: string;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' }, { onRoute: (r) => void routes.push(r) });
  token = await s.login('admin');
});
afterAll(async () => s?.close());

/** What is wrong with one answer to malformed input, or null when it is fine. */
function fault(p: Probe, labels: string[]): string | null {
  if (p.status >= 500) return 'a server error';
  if (!p.message) return 'no message';
  if (!CHINESE.test(p.message)) return 'not Chinese';
  if (ENGLISH.test(p.message)) return 'English words';
  if (GENERIC.test(p.message)) return 'the generic message';
  if (!labels.some((l) => p.message.includes(l))) return 'no field named';
  return null;
}

function report(faults: string[]) {
  // One line per failure: the route, what was sent, and the answer, so each is actionable.
  expect(faults, `\n${faults.join('\n')}\n`).toEqual([]);
}

describe('every route refuses malformed input in Chinese, naming the field', () => {
  it('has a Chinese label for every field of every request schema', () => {
    const keys = new Set<string>();
    for (const r of routes) {
      const sch = r.schema as { querystring?: Schema; body?: Schema; params?: Schema } | undefined;
      keysOf(sch?.querystring, keys);
      keysOf(sch?.body, keys);
      keysOf(sch?.params, keys);
    }
    keysOf(UploadParams, keys);
    keysOf(AttachChunkFields, keys);
    expect(keys.size).toBeGreaterThan(100);
    expect([...keys].filter((k) => labelOf(k) === null)).toEqual([]);
  });

  it('answers every malformed field of every schema route in Chinese', async () => {
    const faults: string[] = [];
    let probes = 0;
    const walked = routes.filter((r) => r.method !== 'HEAD' && (r.schema?.querystring || r.schema?.body));
    expect(walked.length).toBeGreaterThan(100);
    for (const r of walked) {
      const method = String(r.method);
      const schema = (r.schema!.querystring ?? r.schema!.body) as Schema;
      const inQuery = Boolean(r.schema!.querystring);
      const labels = [...keysOf(schema)].flatMap((k) => namesOf(k));
      const url = r.url.replace(':userId', '1');
      const send = async (value: Record<string, unknown>, sent: string) => {
        probes++;
        const res = inQuery
          ? await s.call(method, `${url}?${new URLSearchParams(value as Record<string, string>)}`, { token })
          : await s.call(method, url, { token, body: value });
        const body = res.body as { success?: boolean; message?: string } | string;
        if (typeof body !== 'object' || body === null) {
          if (res.status >= 400) faults.push(`${method} ${url} ${sent}: HTTP ${res.status} not JSON`);
          return;
        }
        if (body.success !== false && res.status < 400) return; // taken (e.g. a free-text field)
        const p: Probe = { route: `${method} ${url}`, sent, status: res.status, message: body.message ?? '' };
        // A refusal of the business rules (HTTP 200, success false) is the service's words: it
        // must be Chinese, but need not name a field (文件不存在或已被删除).
        const why =
          res.status === 400
            ? fault(p, labels)
            : p.status >= 500 || !CHINESE.test(p.message)
              ? 'not a Chinese refusal'
              : null;
        if (why) faults.push(`${p.route} ${sent} → ${p.status} 「${p.message}」: ${why}`);
      };
      await send({}, 'nothing');
      for (const [key, field] of Object.entries(fieldsOf(schema))) {
        for (const bad of badValues(field, inQuery)) {
          const shown = JSON.stringify(bad);
          await send(
            { [key]: bad },
            `${key}=${shown.length > 40 ? `${shown.slice(0, 20)}…(${shown.length})` : shown}`,
          );
        }
      }
    }
    expect(probes).toBeGreaterThan(1000);
    report(faults);
  }, 300_000);

  it('answers malformed fields of the hand-parsed routes in Chinese', async () => {
    const faults: string[] = [];
    const upload = '/wangpan/filetransfer/uploadfile';
    const good: Record<string, string> = {
      chunkNumber: '1',
      chunkSize: String(64 * 1024),
      currentChunkSize: '3',
      totalSize: '3',
      // The real digest of the body sent, so a chunk whose fields are all fine is simply stored.
      identifier: createHash('md5').update('abc').digest('hex'),
      filename: 'a.txt',
      totalChunks: '1',
    };
    const uploadLabels = [...keysOf(UploadParams)].flatMap((k) => namesOf(k));
    for (const [key, field] of Object.entries(fieldsOf(UploadParams))) {
      for (const bad of badValues(field, true)) {
        const q = new URLSearchParams({ ...good, [key]: String(bad) });
        // The test request (GET: refusals are HTTP 200 by the protocol) and an octet chunk (POST).
        const get = await s.call('GET', `${upload}?${q}`, { token });
        const post = await fetch(`${s.url}${upload}?${q}`, {
          method: 'POST',
          headers: { token, 'content-type': 'application/octet-stream' },
          body: 'abc',
        });
        const postBody = (await post.json()) as { success: boolean; message: string };
        for (const [how, status, body] of [
          ['GET', get.status, get.body],
          ['POST', post.status, postBody],
        ] as const) {
          if (body.success) continue;
          const why = fault({ route: upload, sent: key, status, message: body.message }, uploadLabels);
          if (why)
            faults.push(
              `${how} ${upload} ${key}=${String(bad).slice(0, 20)} → ${status} 「${body.message}」: ${why}`,
            );
        }
      }
    }
    const chunkLabels = [...keysOf(AttachChunkFields)].flatMap((k) => namesOf(k));
    const goodChunk: Record<string, string> = {
      uploadId: 'walk-upload-1',
      chunkNumber: '1',
      totalChunks: '1',
      totalSize: '3',
      fileName: 'a.txt',
      tableName: 'approval',
    };
    for (const [key, field] of Object.entries(fieldsOf(AttachChunkFields))) {
      for (const bad of badValues(field, true)) {
        const form = new FormData();
        for (const [k, v] of Object.entries({ ...goodChunk, [key]: String(bad) })) form.append(k, v);
        form.append('file', new Blob(['abc']), 'a.txt');
        const res = await fetch(`${s.url}/singleMuseum/attach/chunk`, {
          method: 'POST',
          headers: { token },
          body: form,
        });
        const body = (await res.json()) as { success: boolean; message: string };
        if (body.success) continue;
        const why = fault(
          { route: 'attach/chunk', sent: key, status: res.status, message: body.message },
          chunkLabels,
        );
        if (why)
          faults.push(
            `POST attach/chunk ${key}=${String(bad).slice(0, 20)} → ${res.status} 「${body.message}」: ${why}`,
          );
      }
    }
    report(faults);
  }, 120_000);
});
