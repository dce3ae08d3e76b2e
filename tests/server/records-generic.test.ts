import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS, recordByName } from '../../src/shared/records/index';
import {
  STALE_STATUS,
  formFields,
  holdsGrant,
  parseCall,
  type Field,
  type RecordDef,
  type Transition,
} from '../../src/shared/records/define';
import { startServer, type TestServer } from './harness';
import { FIXTURES, createFixtureTables } from './records-fixtures';
import { SAMPLES, type SampleIds } from './records-samples';
import { M, attachUpload, deptIdByName, userIdOf } from './util';

/**
 * The records engine's one API suite (ARCHITECTURE.md §9): it runs against every registered
 * definition, so a record is tested the moment it is declared. For each: create, read, update,
 * delete; list with paging and each filter; status transitions and stale ones; the unique key;
 * sort moves; Idempotency-Key; rights and reader scope (another person's rows); bad input per
 * field answered in Chinese naming the field; export. The records' own rules have their own
 * files (records-duty.test.ts, records-dictionary.test.ts).
 */

/** The declared records, and fixtures of the shapes none of them uses yet (records-fixtures.ts). */
const ALL = [...RECORDS, ...FIXTURES];
let s: TestServer;
let admin: string;
/** A member of staff with the default role: reads the workbench's records, writes none. */
let staff: string;
let ids: SampleIds;
let counter = 0;
/** The role a transition granting roles grants (普通员工). */
let roleId: number;
/** The menu grants of `staff` (the default role): a record they write is scoped to their own rows. */
let staffGrants: Set<string>;

/** An upload of `token`'s for `table`: a 1×1 PNG, or a small file named `name`. */
const upload = (token: string, table: string, kind: 'file' | 'image', name?: string, bytes?: Buffer) =>
  attachUpload(s, token, table, kind, name, bytes);

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' }, { records: ALL, prepare: createFixtureTables });
  admin = await s.login('admin');
  staff = await s.login('staff02');
  const users = new Map<string, number>();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff04']) users.set(a, await userIdOf(s, a));
  const depts = new Map<string, number>();
  for (const d of ['办公室', '典藏部']) depts.set(d, await deptIdByName(s, admin, d));
  ids = {
    user: (a) => users.get(a)!,
    dept: (d) => depts.get(d)!,
    upload: (table, kind, name) => upload(admin, table, kind, name),
    row: async (name) => create(ALL.find((d) => d.name === name)!),
  };
  roleId = Number(
    (await s.db.selectFrom('role').select('id').where('code', '=', 'myselfRole').executeTakeFirstOrThrow())
      .id,
  );
  staffGrants = new Set((await s.call('GET', `${M}/login/menu`, { token: staff })).body.result.grantedKeys);
});
afterAll(async () => s?.close());

const CHINESE = /[\u4e00-\u9fa5]/;

function urlOf(def: RecordDef, call: string) {
  const { method, name } = parseCall(call);
  return { method, url: `${M}${def.base}/${name}` };
}

/** Calls a record's call with `data` in the query (GET, DELETE) or the body (POST). */
async function send(
  def: RecordDef,
  call: string,
  data: Record<string, unknown>,
  token: string,
  headers: Record<string, string> = {},
) {
  const { method, url } = urlOf(def, call);
  if (method === 'POST') return s.call('POST', url, { token, body: data, headers });
  const q = new URLSearchParams(
    Object.entries(data)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
  return s.call(method, `${url}?${q}`, { token, headers });
}

const sampleOf = async (def: RecordDef, n = ++counter) => SAMPLES[def.name]!.make(n, ids);

async function create(def: RecordDef, body?: Record<string, unknown>): Promise<number> {
  const sample = body ?? (await sampleOf(def));
  // A record whose rows arrive another way (a registration) makes them as that way does.
  const insert = SAMPLES[def.name]!.insert;
  if (!def.calls.create && insert) return insert(s, sample);
  const r = await send(def, def.calls.create!, sample, admin);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.result.id as number;
}

async function detail(def: RecordDef, id: number, token = admin) {
  return send(def, def.calls.detail, { id }, token);
}

async function listOf(def: RecordDef, query: Record<string, unknown>, token = admin) {
  const r = await send(def, def.calls.list, { pageCount: 200, ...query }, token);
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return r.body.result as {
    list: { id: number }[];
    total: number;
    counts?: { value: number; count: number }[];
  };
}

/** What a stored field holds for a value sent: what its schema makes of it, or its empty. */
function stored(fd: Field, v: unknown) {
  const parsed = fd.schema.safeParse(v);
  return parsed.success && parsed.data !== undefined ? parsed.data : fd.empty;
}

/** A valid input for a transition that takes one (a reason). */
function inputOf(t: Transition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, fd] of Object.entries(t.input ?? {}))
    out[key] =
      fd.kind === 'int'
        ? 1
        : fd.kind === 'date'
          ? '2030-01-01'
          : fd.kind === 'datetime'
            ? '2030-01-01 09:30'
            : fd.kind === 'user'
              ? ids.user('staff01')
              : fd.kind === 'bool'
                ? true
                : fd.kind === 'status'
                  ? fd.options![0]!.value
                  : fd.kind === 'roles'
                    ? [roleId]
                    : '测试原因';
  return out;
}

/**
 * Another person who may write `def` (its uploads are theirs, not the admin's): 李明, 周婷 of
 * 社教部, or 陈静 of 典藏部 (the reading room's librarian).
 */
async function otherWriter(def: RecordDef): Promise<string> {
  // staff09 (信息管理员) writes the website and mini-program content.
  // staff08 (文保专员) writes the repair records.
  for (const account of ['staff01', 'staff07', 'staff04', 'staff09', 'staff08']) {
    const { token, keys } = await signedIn(account);
    if (holdsGrant(keys, def.access.write)) return token;
  }
  throw new Error(`no demo account besides the admin may write ${def.name}`);
}

/**
 * Each demo account signed in once for the suite: signing in for every record would meet the
 * sign-in limit per account (请求过于频繁) once there are enough records.
 */
const SIGNED_IN = new Map<string, Promise<{ token: string; keys: Set<string> }>>();
function signedIn(account: string) {
  if (!SIGNED_IN.has(account))
    SIGNED_IN.set(
      account,
      (async () => {
        const token = await s.login(account);
        const menu = await s.call('GET', `${M}/login/menu`, { token });
        return { token, keys: new Set(menu.body.result.grantedKeys as string[]) };
      })(),
    );
  return SIGNED_IN.get(account)!;
}

/** A value of the wrong kind for any field. */
const WRONG = { not: 'a value' };

describe.each(ALL.map((d) => [d.name, d] as const))('record %s', (_name, def) => {
  const writable = Boolean(def.calls.create);

  it('has a valid sample and a spec call for each engine call', () => {
    expect(SAMPLES[def.name], `tests/server/records-samples.ts has no sample for ${def.name}`).toBeDefined();
    for (const call of Object.values(def.calls))
      if (call) expect(call).toMatch(/^(GET|POST|DELETE) [A-Za-z]+$/);
  });

  it.runIf(writable)('creates a row and reads back every field', async () => {
    const body = await sampleOf(def);
    const id = await create(def, body);
    const r = await detail(def, id);
    expect(r.body.success).toBe(true);
    const record = r.body.result.record;
    for (const [key, fd] of formFields(def)) expect(record[key], key).toEqual(stored(fd, body[key]));
    expect(record.id).toBe(id);
    expect(record.createBy).toBe(await userIdOf(s, 'admin'));
    expect(typeof record.createTime).toBe('number');
    if (def.status) {
      const fd = def.fields[def.status.field]!;
      expect(record[def.status.field]).toBe(fd.initial);
      expect(r.body.result.log.map((l: { action: string }) => l.action)).toEqual(['create']);
    }
  });

  it.runIf(writable)('lists with paging and the total', async () => {
    const before = (await listOf(def, {})).total;
    const made = [await create(def), await create(def), await create(def)];
    const all = await listOf(def, {});
    expect(all.total).toBe(before + 3);
    expect(all.list.length).toBe(Math.min(all.total, 200));
    for (const id of made) expect((await detail(def, id)).body.success).toBe(true);
    const first = await listOf(def, { pageCount: 2, currentPage: 1 });
    expect(first.list).toHaveLength(2);
    expect(first.total).toBe(all.total);
    const second = await listOf(def, { pageCount: 2, currentPage: 2 });
    expect(second.list.map((r) => r.id)).toEqual(all.list.slice(2, 4).map((r) => r.id));
    const beyond = await listOf(def, { pageCount: 2, currentPage: 10_000 });
    expect(beyond.list).toEqual([]);
    const bad = await send(def, def.calls.list, { pageCount: 500 }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('每页条数不能大于 200');
  });

  it.runIf(writable)(
    'finds a row by each of its filters and its keyword, and not by other values',
    async () => {
      const body = await sampleOf(def);
      const id = await create(def, body);
      const record = (await detail(def, id)).body.result.record;
      // Every page: a filter may match more rows than one page holds (the seeded dictionaries).
      const has = async (query: Record<string, unknown>) => {
        for (let page = 1; ; page++) {
          const got = await listOf(def, { ...query, currentPage: page });
          if (got.list.some((r) => r.id === id)) return true;
          if (page * 200 >= got.total) return false;
        }
      };
      for (const [key, fd] of Object.entries(def.fields)) {
        const v = record[key];
        if (!fd.filter || v === null || v === undefined || v === '') continue;
        if (fd.filter === 'eq') {
          expect(await has({ [key]: v }), `${key}=${String(v)}`).toBe(true);
          if (fd.kind === 'dept') expect(await has({ [key]: ids.dept('典藏部') })).toBe(false);
        } else if (fd.filter === 'contains') {
          expect(await has({ [key]: (v as number[])[0] }), `${key} contains`).toBe(true);
          expect(await has({ [key]: ids.user('staff01') })).toBe(false);
        } else {
          expect(await has({ [`${key}From`]: v, [`${key}To`]: v }), `${key} range`).toBe(true);
          const later = fd.kind === 'date' ? '2999-12-31' : (v as number) + 1;
          expect(await has({ [`${key}From`]: later })).toBe(false);
        }
      }
      const keyword = Object.entries(def.fields).find(([, fd]) => fd.keyword);
      if (keyword) {
        const text = String(record[keyword[0]]);
        expect(await has({ keyword: text.slice(0, 4) })).toBe(true);
        // Latin letters match in either case, on PostgreSQL as on SQLite.
        const swapped = text.slice(0, 4).replace(/[a-z]/gi, (c) => {
          const up = c.toUpperCase();
          return c === up ? c.toLowerCase() : up;
        });
        if (swapped !== text.slice(0, 4)) expect(await has({ keyword: swapped }), swapped).toBe(true);
        expect(await has({ keyword: '没有这样的内容zz' })).toBe(false);
      }
    },
  );

  it.runIf(writable && Boolean(def.calls.update))('updates a row', async () => {
    const body = await sampleOf(def);
    const id = await create(def, body);
    const changed = SAMPLES[def.name]!.change(body);
    const r = await send(def, def.calls.update!, { ...changed, id }, admin);
    expect(r.body).toMatchObject({ success: true });
    const record = (await detail(def, id)).body.result.record;
    for (const [key, fd] of formFields(def)) expect(record[key], key).toEqual(stored(fd, changed[key]));
    const gone = await send(def, def.calls.update!, { ...changed, id: 99_999_999 }, admin);
    expect(gone.body.success).toBe(false);
    expect(gone.body.message).toMatch(CHINESE);
  });

  it.runIf(writable)('refuses bad input field by field, in Chinese, naming the field', async () => {
    const faults: string[] = [];
    const expectRefusal = (what: string, r: { status: number; body: any }, label: string) => {
      if (r.status !== 400 || r.body.success !== false)
        faults.push(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
      else if (!CHINESE.test(r.body.message) || !r.body.message.includes(label))
        faults.push(`${what}: 「${r.body.message}」 does not name ${label}`);
    };
    for (const [key, fd] of formFields(def)) {
      const body = await sampleOf(def);
      expectRefusal(
        `${key}=${JSON.stringify(WRONG)}`,
        await send(def, def.calls.create!, { ...body, [key]: WRONG }, admin),
        fd.label,
      );
      if (fd.required) {
        const rest = { ...body };
        delete rest[key];
        expectRefusal(`${key} missing`, await send(def, def.calls.create!, rest, admin), fd.label);
        expectRefusal(
          `${key} empty`,
          await send(def, def.calls.create!, { ...body, [key]: '' }, admin),
          fd.label,
        );
      }
      if (fd.max && (fd.kind === 'text' || fd.kind === 'textarea'))
        expectRefusal(
          `${key} too long`,
          await send(def, def.calls.create!, { ...body, [key]: '字'.repeat(fd.max + 1) }, admin),
          fd.label,
        );
    }
    expect(faults, faults.join('\n')).toEqual([]);
  });

  it.runIf(writable)(
    'refuses dictionary values, people, departments, refs and uploads that do not exist, at their field, in lists too',
    async () => {
      const wrongOf = (fd: Field): unknown =>
        fd.dict
          ? 'nope99'
          : fd.kind === 'user' || fd.kind === 'dept' || fd.kind === 'ref'
            ? 99_999
            : fd.kind === 'users' || fd.kind === 'file' || fd.kind === 'image'
              ? [99_999]
              : undefined;
      for (const [key, fd] of formFields(def)) {
        const body = await sampleOf(def);
        let wrong = wrongOf(fd);
        if (fd.sub) {
          // A list: its first row with a wrong value in its first sub-field that can have one.
          const sub = Object.entries(fd.sub).find(([, x]) => wrongOf(x) !== undefined);
          const first = (body[key] as Record<string, unknown>[] | undefined)?.[0];
          if (sub && first) wrong = [{ ...first, [sub[0]]: wrongOf(sub[1]) }];
        }
        if (wrong === undefined) continue;
        const r = await send(def, def.calls.create!, { ...body, [key]: wrong }, admin);
        expect(r.body.success, key).toBe(false);
        expect(r.body.code, JSON.stringify(r.body)).toBe(1010);
        expect(r.body.result.fields[key], key).toContain(fd.label);
      }
    },
  );

  it.runIf(writable)('answers a write replayed with the same Idempotency-Key once', async () => {
    const body = await sampleOf(def);
    const headers = { 'idempotency-key': `records-${def.name}-${counter}` };
    const before = (await listOf(def, {})).total;
    const a = await send(def, def.calls.create!, body, admin, headers);
    const b = await send(def, def.calls.create!, body, admin, headers);
    expect(a.body.success).toBe(true);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replay')).toBe('true');
    expect((await listOf(def, {})).total).toBe(before + 1);
    if (def.calls.remove) {
      // The spec's own method (a GET write is one too), and for GET its POST twin.
      const key = { 'idempotency-key': `records-del-${def.name}-${counter}` };
      const first = await send(def, def.calls.remove, { id: a.body.result.id }, admin, key);
      const again = await send(def, def.calls.remove, { id: a.body.result.id }, admin, key);
      expect(first.body.success).toBe(true);
      expect(again.body).toEqual(first.body);
      const { method, url } = urlOf(def, def.calls.remove);
      if (method === 'GET') {
        const b2 = await send(def, def.calls.create!, await sampleOf(def), admin);
        const twin = { 'idempotency-key': `records-post-${def.name}-${counter}` };
        const p1 = await s.call('POST', url, {
          token: admin,
          body: { id: b2.body.result.id },
          headers: twin,
        });
        const p2 = await s.call('POST', url, {
          token: admin,
          body: { id: b2.body.result.id },
          headers: twin,
        });
        expect(p1.body.success).toBe(true);
        expect(p2.body).toEqual(p1.body);
      }
    }
  });

  it.runIf(writable)(
    'keeps a person without the write grant out of every write, and readers to their rows',
    async () => {
      const id = await create(def);
      const c = def.calls;
      const writes = async (withId: number) => [
        ...(c.update ? [await send(def, c.update, { ...(await sampleOf(def)), id: withId }, staff)] : []),
        ...(c.remove ? [await send(def, c.remove, { id: withId }, staff)] : []),
        ...(await Promise.all(
          // A status moved through `update` (statusByUpdate) has no transition calls of its own.
          Object.entries(def.statusByUpdate ? {} : (def.transitions ?? {})).map(([key, t]) =>
            send(def, t.call ?? `POST ${key}`, { id: withId, ...inputOf(t) }, staff),
          ),
        )),
      ];
      if (def.access.owner && holdsGrant(staffGrants, def.access.write)) {
        // A writer of their own rows only: another person's row answers like a missing one,
        // to every write and read, and no list of theirs shows it.
        for (const r of await writes(id))
          expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: false, code: 404 });
        expect((await detail(def, id, staff)).body).toMatchObject({ success: false, code: 404 });
        expect((await listOf(def, {}, staff)).list.some((x) => x.id === id)).toBe(false);
        expect((await detail(def, id)).body.success).toBe(true);
        return;
      }
      const refused = [await send(def, c.create!, await sampleOf(def), staff), ...(await writes(id))];
      for (const r of refused) {
        expect(r.body.success).toBe(false);
        expect(r.body.code).toBe(1005);
      }
      expect((await detail(def, id)).body.success).toBe(true);
      const reads = holdsGrant(staffGrants, def.access.read);
      const r = await detail(def, id, staff);
      if (!reads) {
        expect(r.body.code).toBe(1005);
        expect((await send(def, c.list, {}, staff)).body.code).toBe(1005);
      } else if (def.access.readerSees) {
        // A row the reader may not see answers like a missing one, and no list shows it.
        expect(r.body).toMatchObject({ success: false, code: 404 });
        expect((await listOf(def, {}, staff)).list.some((x) => x.id === id)).toBe(false);
      } else {
        expect(r.body.success).toBe(true);
        expect((await listOf(def, {}, staff)).list.some((x) => x.id === id)).toBe(true);
      }
      const missing = await detail(def, 99_999_999);
      expect(missing.body).toMatchObject({ success: false, code: 404 });
      expect(missing.body.message).toMatch(CHINESE);
    },
  );

  const fileFields = formFields(def).filter(([, fd]) => fd.kind === 'file' || fd.kind === 'image');
  it.runIf(writable && fileFields.length > 0)(
    "binds its writer's uploads to the row, names them, deletes those taken out, and refuses others' and wrong kinds",
    async () => {
      const body = await sampleOf(def);
      const id = await create(def, body);
      const d = (await detail(def, id)).body.result;
      for (const [key, fd] of fileFields) {
        const held = d.record[key] as number[];
        expect(held, key).toEqual(body[key]);
        for (const att of held) {
          const file = d.names.files[String(att)];
          expect(file, key).toMatchObject({ attId: att });
          // The row's reader reads its files; the uploader's own stays readable as before.
          const got = await fetch(`${s.url}${file.attPath}`, { headers: { token: admin } });
          expect(got.headers.get('content-type'), key).not.toContain('json');
        }
        // Another person's upload, one already used by a row, and one of the wrong kind: refused here.
        const other = await upload(
          await otherWriter(def),
          def.name,
          fd.kind === 'image' ? 'image' : 'file',
          'x.pdf',
        );
        const refusals = [[other], held];
        if (fd.kind === 'image') refusals.push([await upload(admin, def.name, 'file', 'not-an-image.pdf')]);
        if (fd.accept?.types?.length) refusals.push([await upload(admin, def.name, 'file', 'wrong.exe')]);
        if (fd.accept?.maxBytes && fd.accept.maxBytes < 1024 * 1024)
          refusals.push([
            await upload(admin, def.name, 'file', 'big.pdf', Buffer.alloc(fd.accept.maxBytes + 1, 1)),
          ]);
        for (const wrong of refusals) {
          const r = await send(def, def.calls.create!, { ...(await sampleOf(def)), [key]: wrong }, admin);
          expect(r.body.code, `${key} ${JSON.stringify(r.body)}`).toBe(1010);
          expect(r.body.result.fields[key], key).toContain(fd.label);
        }
      }
      // Taking a file out of the row deletes it (when the field may be empty).
      const optional = fileFields.find(([, fd]) => !fd.required);
      if (optional && def.calls.update) {
        const [key] = optional;
        const gone = (d.record[key] as number[])[0]!;
        const r = await send(def, def.calls.update, { ...body, [key]: [], id }, admin);
        expect(r.body.success, JSON.stringify(r.body)).toBe(true);
        const got = await fetch(`${s.url}${M}/attach/downloadFile?attachmentId=${gone}`, {
          headers: { token: admin },
        });
        expect(((await got.json()) as any).success).toBe(false);
      }
    },
  );

  it.runIf(Boolean(def.transitions) && Boolean(def.statusByUpdate))(
    'moves the status through update by its transition table, logs each, and refuses a status it does not lead to',
    async () => {
      const field = def.status!.field;
      const initial = def.fields[field]!.initial as number;
      for (const [key, t] of Object.entries(def.transitions!)) {
        const body = await sampleOf(def);
        const id = await create(def, body);
        await SAMPLES[def.name]!.setup?.(s, body);
        const move = { ...body, id, ...inputOf(t), [field]: t.to };
        const r = await send(def, def.calls.update!, move, admin);
        if (!t.from.includes(initial)) {
          // Another transition of the table may lead there from the start (开始修复 to 修复中).
          if (Object.values(def.transitions!).some((o) => o.from.includes(initial) && o.to === t.to))
            continue;
          expect(r.body, key).toMatchObject({ success: false });
          expect(r.body.message, key).toMatch(/不能直接改为|最终状态/);
          expect((await detail(def, id)).body.result.record[field]).toBe(initial);
          continue;
        }
        expect(r.body, `${key}: ${JSON.stringify(r.body)}`).toMatchObject({ success: true });
        const d = (await detail(def, id)).body.result;
        expect(d.record[field]).toBe(t.to);
        expect(d.log.at(-1)).toMatchObject({
          action: key,
          fromStatus: initial,
          toStatus: t.to,
          actionLabel: t.label,
        });
        // The same status again is a plain save (unless the row is closed): nothing moves.
        const again = await send(def, def.calls.update!, move, admin);
        expect(again.body.success, JSON.stringify(again.body)).toBe(!def.canUpdate?.(d.record, move));
        expect((await detail(def, id)).body.result.log).toHaveLength(d.log.length);
        const counts = (await listOf(def, {})).counts!;
        expect(counts.find((x) => x.value === t.to)!.count).toBeGreaterThan(0);
      }
    },
  );

  it.runIf(Boolean(def.transitions) && !def.statusByUpdate)(
    'moves the status by its transitions, logs each, and refuses a stale one',
    async () => {
      const field = def.status!.field;
      const initial = def.fields[field]!.initial as number;
      for (const [key, t] of Object.entries(def.transitions!)) {
        const id = await create(def);
        const call = t.call ?? `POST ${key}`;
        const input = inputOf(t);
        if (!t.from.includes(initial)) {
          const r = await send(def, call, { id, ...input }, admin);
          expect(r.body, key).toMatchObject({ success: false, message: STALE_STATUS });
          continue;
        }
        const needed = Object.values(t.input ?? {}).find((fd) => fd.required);
        if (needed) {
          // A transition's own input is checked like a form, naming its (first required) field.
          const bare = await send(def, call, { id }, admin);
          expect(bare.status).toBe(400);
          expect(bare.body.message).toContain(needed.label);
        }
        const r = await send(def, call, { id, ...input }, admin);
        expect(r.body, `${key}: ${JSON.stringify(r.body)}`).toMatchObject({ success: true });
        const d = (await detail(def, id)).body.result;
        expect(d.record[field]).toBe(t.to);
        expect(d.log.at(-1)).toMatchObject({
          action: key,
          fromStatus: initial,
          toStatus: t.to,
          actionLabel: t.label,
        });
        if (typeof input.reason === 'string') expect(d.log.at(-1).comment).toBe(input.reason);
        if (!t.from.includes(t.to)) {
          const again = await send(def, call, { id, ...input }, admin);
          expect(again.body).toMatchObject({ success: false, message: STALE_STATUS });
        }
        // Every transition that leaves from here works next, and its status tab counts it.
        const counts = (await listOf(def, {})).counts!;
        expect(counts.find((x) => x.value === t.to)!.count).toBeGreaterThan(0);
      }
    },
  );

  it.runIf(Boolean(def.unique?.length) && writable)(
    'refuses a second row with the same unique key, at its field',
    async () => {
      const body = await sampleOf(def);
      await create(def, body);
      const u = def.unique![0]!;
      // Another row (its own uploads: an upload binds to one row) with the same key.
      const again = { ...(await sampleOf(def)), ...Object.fromEntries(u.fields.map((k) => [k, body[k]])) };
      const r = await send(def, def.calls.create!, again, admin);
      expect(r.body).toMatchObject({ success: false, code: 1010, message: u.message });
      expect(r.body.result.fields[u.fields[u.fields.length - 1]!]).toBe(u.message);
    },
  );

  it.runIf(Boolean(def.sortable))('moves a row up and down within its sort scope', async () => {
    const body = await sampleOf(def);
    const id = await create(def, body);
    const scope = Object.fromEntries(def.sortable!.scope.map((k) => [k, body[k]]));
    const order = async () => (await listOf(def, scope)).list.map((r) => r.id);
    const at = (await order()).indexOf(id);
    expect(at).toBeGreaterThan(0);
    expect((await send(def, def.calls.up!, { id }, admin)).body.success).toBe(true);
    expect((await order()).indexOf(id)).toBe(at - 1);
    expect((await send(def, def.calls.down!, { id }, admin)).body.success).toBe(true);
    expect((await order()).indexOf(id)).toBe(at);
    const first = (await order())[0]!;
    const top = await send(def, def.calls.up!, { id: first }, admin);
    expect(top.body).toMatchObject({ success: false, message: '已经排在最前面了' });
  });

  it.runIf(writable && Boolean(def.calls.remove))(
    'deletes a row, once; refuses while rows of another record belong to it',
    async () => {
      const id = await create(def);
      const { method, url } = urlOf(def, def.calls.remove!);
      if (method === 'GET') {
        // A GET that changes something needs the token header; the cookie alone is refused.
        const viaCookie = await s.call('GET', `${url}?id=${id}`, { headers: { cookie: `token=${admin}` } });
        expect(viaCookie.body.success).toBe(false);
      }
      expect((await send(def, def.calls.remove!, { id }, admin)).body).toMatchObject({ success: true });
      expect((await detail(def, id)).body).toMatchObject({ success: false, code: 404 });
      const again = await send(def, def.calls.remove!, { id }, admin);
      expect(again.body).toMatchObject({ success: false, code: 404 });

      // A row another record's ref points to is kept, and the refusal names who points to it.
      for (const other of ALL)
        for (const [key, fd] of Object.entries(other.fields)) {
          if (fd.ref?.record !== def.name || !other.calls.create) continue;
          const target = await create(def);
          await create(other, { ...(await sampleOf(other)), [key]: target });
          const r = await send(def, def.calls.remove!, { id: target }, admin);
          expect(r.body.success).toBe(false);
          expect(r.body.message).toContain(other.title);
          expect((await detail(def, target)).body.success).toBe(true);
        }

      for (const child of RECORDS.filter((r) => r.belongsTo?.record === def.name)) {
        const ownerBody = await sampleOf(def);
        const ownerId = await create(def, ownerBody);
        const link = child.belongsTo!;
        await create(child, { ...(await sampleOf(child)), [link.field]: ownerBody[link.by] });
        const r = await send(def, def.calls.remove!, { id: ownerId }, admin);
        expect(r.body.success).toBe(false);
        expect(r.body.message).toContain(child.title);
        expect(recordByName(child.name)).toBe(child);
      }
    },
  );

  it.runIf(Boolean(def.calls.export))('exports the filtered rows as xlsx with Chinese headers', async () => {
    // A record whose rows arrive another way (generated tickets) makes one as that way does.
    if (writable || SAMPLES[def.name]!.insert) await create(def);
    const { method, url } = urlOf(def, def.calls.export!);
    const res = await fetch(`${s.url}${url}`, {
      method,
      headers: method === 'POST' ? { token: admin, 'content-type': 'application/json' } : { token: admin },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const header = (wb.worksheets[0]!.getRow(1).values as unknown[]).filter(Boolean);
    for (const fd of Object.values(def.fields).filter((f) => f.list)) expect(header).toContain(fd.label);
    expect(wb.worksheets[0]!.rowCount).toBeGreaterThan(1);
  });

  it.runIf(Boolean(def.singleton))(
    'loads the starting values, then saves and changes the one row of a scope',
    async () => {
      const body = await sampleOf(def);
      const scope = def.singleton!.scope;
      const at = scope ? { [scope]: body[scope] } : {};
      const empty = await send(def, def.calls.load!, at, admin);
      expect(empty.body.result.record.id).toBe(0);
      const first = await send(def, def.calls.save!, body, admin);
      expect(first.body.success).toBe(true);
      const changed = SAMPLES[def.name]!.change(body);
      const second = await send(def, def.calls.save!, changed, admin);
      expect(second.body.result.id).toBe(first.body.result.id);
      const loaded = (await send(def, def.calls.load!, at, staff)).body.result.record;
      for (const [key, fd] of formFields(def)) expect(loaded[key], key).toEqual(stored(fd, changed[key]));
      expect((await send(def, def.calls.save!, body, staff)).body.code).toBe(1005);
      const [key, fd] = formFields(def).find(([, x]) => x.required)!;
      const bad = await send(def, def.calls.save!, { ...body, [key]: WRONG }, admin);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain(fd.label);
    },
  );

  it.runIf(def.shape === 'log')('is append-only: no write calls; lists what was appended', async () => {
    expect(def.calls.create ?? def.calls.update ?? def.calls.remove).toBeUndefined();
    const page = await listOf(def, {});
    expect(page.total).toBeGreaterThan(0);
    const ids = page.list.map((r) => r.id);
    expect((await detail(def, ids[0]!)).body.success).toBe(true);
    for (const name of ['save', 'add', 'update', 'edit', 'delete'])
      expect(
        (await s.call('POST', `${M}${def.base}/${name}`, { token: admin, body: { id: ids[0] } })).status,
      ).toBe(404);
  });
});
