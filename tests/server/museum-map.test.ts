import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1 } from './util';

/**
 * 馆区地图 (/mymap): floors with their plans and halls placed on them, two catalogs of the
 * records engine (their common behaviour is in records-generic.test.ts). Here their own rules:
 * a position is both coordinates within 0–100 or none; a hall's floor must exist and a floor
 * with halls stays; a floor's short name is fixed; everyone reads, 平面导览's holders write; the
 * plan's image is the floor's attachment, read by every member of staff.
 */

let s: TestServer;
let admin: string;
let itAdmin: string;
let staff: string;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  itAdmin = await s.login('staff09');
  staff = await s.login('staff02');
});
afterAll(async () => s?.close());

const get = (p: string, token = staff) => s.call('GET', `${M}${p}`, { token });
const post = (p: string, body: unknown, token = itAdmin) => s.call('POST', `${M}${p}`, { token, body });
const hall = (over: Record<string, unknown> = {}) => ({
  name: '数字展厅',
  floor: '2F',
  hallNo: 'B203',
  openState: 1,
  mapX: 40,
  mapY: 60,
  intro: '沉浸式数字展示',
  ...over,
});

describe('the museum map', () => {
  it('is read by every member of staff: the demo floors in order, their halls with positions', async () => {
    const floors = (await get('/bs/bsMuseumFloor/list')).body.result;
    expect(floors.list.map((f: { code: string }) => f.code)).toEqual(['1F', '2F', 'SITE']);
    const halls = (await get('/bs/bsMuseumHall/list?floor=1F')).body.result;
    expect(halls.list.map((h: { name: string }) => h.name)).toEqual(['序厅', '古代青铜器展厅', '临时展厅']);
    expect(halls.list[2]).toMatchObject({ hallNo: 'A103', openState: 3, mapX: 78, mapY: 40 });
    const auditor = await s.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', 'auditor')
      .executeTakeFirstOrThrow();
    // Even a role with no other page (审计员) reads the map: it needs no grant.
    await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: {
        account: 'audit02',
        password: 'Audit#2026',
        userName: '审计乙',
        phone: '13912340002',
        roleIds: [auditor.id],
      },
    });
    const audit = await s.login('audit02', 'Audit#2026');
    expect((await get('/bs/bsMuseumHall/list', audit)).body.result.total).toBeGreaterThanOrEqual(6);
  });

  it('lets 平面导览’s holders write; others are refused', async () => {
    expect((await post('/bs/bsMuseumHall/save', hall({ name: '员工试建' }), staff)).body.code).toBe(1005);
    const made = await post('/bs/bsMuseumHall/save', hall());
    expect(made.body, JSON.stringify(made.body)).toMatchObject({ success: true });
    const d = (await get(`/bs/bsMuseumHall/detail?id=${made.body.result.id}`)).body.result.record;
    expect(d).toMatchObject({ name: '数字展厅', floor: '2F', mapX: 40, mapY: 60 });
  });

  it('takes a position as both coordinates within 0–100, or none', async () => {
    const only = await post('/bs/bsMuseumHall/save', hall({ name: '半个位置', mapY: '' }));
    expect(only.body).toMatchObject({ success: false, code: 1010 });
    expect(only.body.result.fields.mapY).toBe('请同时填写横向位置和纵向位置（或都不填）');
    const far = await post('/bs/bsMuseumHall/save', hall({ name: '界外', mapX: 101 }));
    expect(far.status).toBe(400);
    expect(far.body.message).toContain('横向位置（%）');
    const none = await post('/bs/bsMuseumHall/save', hall({ name: '待定展厅', mapX: '', mapY: '' }));
    expect(none.body.success).toBe(true);
    const r = (await get(`/bs/bsMuseumHall/detail?id=${none.body.result.id}`)).body.result.record;
    expect(r).toMatchObject({ mapX: null, mapY: null });
  });

  it('needs the hall’s floor to exist, keeps a floor with halls, and fixes a floor’s short name', async () => {
    const lost = await post('/bs/bsMuseumHall/save', hall({ name: '无处展厅', floor: '9F' }));
    expect(lost.body).toMatchObject({ success: false, code: 1010 });
    expect(lost.body.result.fields.floor).toBe('所在楼层不存在，请刷新后重试');
    const floors = (await get('/bs/bsMuseumFloor/list')).body.result.list as { id: number; code: string }[];
    const second = floors.find((f) => f.code === '2F')!;
    const del = await s.call('GET', `${M}/bs/bsMuseumFloor/delete?id=${second.id}`, { token: itAdmin });
    expect(del.body.success).toBe(false);
    expect(del.body.message).toMatch(/下还有 \d+ 个展厅，请先删除它们/);
    const rename = await post('/bs/bsMuseumFloor/update', {
      id: second.id,
      name: '二层',
      code: '2FX',
      plan: '',
    });
    expect(rename.body.result.fields.code).toContain('简称保存后不能修改');
    const bad = await post('/bs/bsMuseumFloor/save', { name: '夹层', code: '夹层', plan: '' });
    expect(bad.body.message).toContain('简称只能由 1–10 位字母或数字组成');
  });

  it('keeps the plan’s image as the floor’s attachment, read by every member of staff', async () => {
    const fd = new FormData();
    fd.append('tableName', 'museumFloor');
    fd.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'plan.png');
    const refused = await fetch(`${s.url}${M}/attach/uploadimage`, {
      method: 'POST',
      headers: { token: staff },
      body: fd,
    });
    expect(((await refused.json()) as { success: boolean }).success).toBe(false);
    const up = (await (
      await fetch(`${s.url}${M}/attach/uploadimage`, {
        method: 'POST',
        headers: { token: itAdmin },
        body: fd,
      })
    ).json()) as { result: { attPath: string } };
    const src = up.result.attPath;
    const made = await post('/bs/bsMuseumFloor/save', {
      name: '三层',
      code: '3F',
      plan: `<p><img src="${src}" alt="三层平面图"></p><p>电梯在东侧</p>`,
      sort: 40,
    });
    expect(made.body.success).toBe(true);
    const image = await fetch(`${s.url}${src}`, { headers: { token: staff } });
    expect(image.headers.get('content-type')).toMatch(/^image\/png/);
    const plan = (await get(`/bs/bsMuseumFloor/detail?id=${made.body.result.id}`)).body.result.record.plan;
    expect(plan).toContain(src);
    // Taking the image out of the plan deletes it.
    await post('/bs/bsMuseumFloor/update', {
      id: made.body.result.id,
      name: '三层',
      code: '3F',
      plan: '<p>待补</p>',
      sort: 40,
    });
    const after = await fetch(`${s.url}${src}`, { headers: { token: staff } });
    expect(after.headers.get('content-type')).not.toMatch(/^image\//);
  });
});
