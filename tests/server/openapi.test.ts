import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, isApiUrl } from '../../src/server/plugins/openapi';
import { startServer, type TestServer } from './harness';
import { W, driveUser } from './drive-util';

/**
 * /openapi.json describes every call from the zod schemas that validate it (issue 18). The
 * routes come from the real app (buildApp's onRoute seam): a call registered without appearing
 * in the document, or whose schema zod cannot describe, fails here.
 */

let s: TestServer;
const routes: RouteOptions[] = [];
let doc: any;

beforeAll(async () => {
  s = await startServer({}, { onRoute: (r) => void routes.push(r) });
  const res = await fetch(`${s.url}/openapi.json`);
  expect(res.headers.get('content-type')).toContain('application/json');
  doc = await res.json();
});
afterAll(async () => s?.close());

describe('/openapi.json', () => {
  it('is public OpenAPI 3.1 with the token scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.token).toEqual({ type: 'apiKey', in: 'header', name: 'token' });
  });

  it('holds every registered API call, method by method', () => {
    const api = routes.filter((r) => isApiUrl(r.url));
    expect(api.length).toBeGreaterThan(150);
    const missing: string[] = [];
    for (const r of api)
      for (const m of [r.method].flat().filter((x) => x !== 'HEAD')) {
        const path = r.url.replace(/:(\w+)/g, '{$1}');
        if (!doc.paths[path]?.[m.toLowerCase()]) missing.push(`${m} ${r.url}`);
      }
    expect(missing).toEqual([]);
  });

  it('gives a HEAD twin only to the calls that answer a file', async () => {
    const heads = routes
      .filter((r) => isApiUrl(r.url) && [r.method].flat().includes('HEAD'))
      .map((r) => r.url)
      .sort();
    expect(heads).toEqual([
      '/singleMuseum/attach/downloadFile',
      '/singleMuseum/bsDigitalassetsApply/download',
      '/singleMuseum/contentPublic/media',
      '/wangpan/filetransfer/downloadfile',
      '/wangpan/filetransfer/preview',
      '/wangpan/office/document',
    ]);
    // A file's HEAD answers its headers without its bytes; a JSON call has none.
    const me = await driveUser(s, 'staff02');
    const id = await me.put('/', '头.txt', '十二个字节');
    const head = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${id}`, {
      method: 'HEAD',
      headers: { token: me.token },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength('十二个字节')));
    expect(await head.text()).toBe('');
    const json = await fetch(`${s.url}${W}/file/getfilelist?filePath=%2F`, {
      method: 'HEAD',
      headers: { token: me.token },
    });
    expect(json.status).toBe(404);
  });

  it('describes every request schema (none left out as unrepresentable)', () => {
    expect(buildOpenApi(routes).failed).toEqual([]);
  });

  it('describes a record call from its definition: fields, labels and limits', () => {
    const save = doc.paths['/singleMuseum/bs/bsDutyRoster/save'].post;
    expect(save.summary).toBe('值班表 · 新增');
    const body = save.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual([
      'dutyDate',
      'dutyType',
      'shift',
      'leaderId',
      'staffIds',
      'dutyPhone',
      'remark',
    ]);
    expect(body.properties.dutyPhone).toMatchObject({ type: 'string', maxLength: 30 });
    expect(save.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    const list = doc.paths['/singleMuseum/bs/bsDutyRoster/list'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        'currentPage',
        'pageCount',
        'dutyDateFrom',
        'dutyDateTo',
        'dutyType',
        'staffIds',
      ]),
    );
    // The spec's GET delete, and its POST twin for queued writes.
    expect(doc.paths['/singleMuseum/bs/bsDutyRoster/delete'].get).toBeDefined();
    expect(doc.paths['/singleMuseum/bs/bsDutyRoster/delete'].post).toBeDefined();
    const imp = doc.paths['/singleMuseum/scheme/batchImport'].post;
    expect(Object.keys(imp.requestBody.content['multipart/form-data'].schema.properties)).toEqual([
      'file',
      'schemeId',
      'type',
    ]);
    // The hand-written modules too, from their own schemas.
    const login = doc.paths['/singleMuseum/login/webLogin'].post;
    expect(login.security).toBeUndefined();
    expect(doc.paths['/wangpan/file/getfilelist']).toBeDefined();
  });
});
