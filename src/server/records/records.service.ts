import type { z } from 'zod';
import { ErrorCode } from '../../shared/api/envelope';
import type { RecordDetail, RecordNames, RecordPage, StatusLine } from '../../shared/records/api';
import {
  STALE_STATUS,
  transitionTo,
  filterFields,
  formFields,
  statusLabel,
  valuesOf,
  type FieldProblem,
  type RecordDef,
  type Row,
  type Words,
} from '../../shared/records/define';
import { type listSchema } from '../../shared/records/schemas';
import { hasAttachments } from '../../shared/records/index';
import { maskIdNumber, maskPhone } from '../../shared/records/validators';
import type { Db } from '../db/index';
import { AppError, forbidden, invalid, notFound } from '../errors';
import type { Access } from '../modules/auth/access';
import type { SessionUser } from '../modules/auth/auth.service';
import { imageIdsIn, sanitizeRichHtml } from '../modules/attach/rich-html';
import { toAttachment, type AttachService } from '../modules/attach/attach.service';
import { createChecks, type Pending, type WriteContext } from './records.checks';
import * as repo from './records.repo';
import type { Cond } from './records.repo';

/**
 * The records engine's rules, the same for every record (ARCHITECTURE.md §9): who may read and
 * write (menu grants; the rows a reader without the write grant sees and the rows of people or
 * departments, both added in the repository), validation beyond the schema (records.checks.ts),
 * status transitions that refuse a stale status and write bsStatusLog, sort moves, deletes
 * refused while rows hang on the row or refer to it, and the files of file fields bound to their
 * row. A record's own rules are functions in its definition; nothing here names a record.
 */

type ListQuery = z.output<ReturnType<typeof listSchema>>;
const GONE = '该记录不存在或已被删除，请刷新后重试';

/** A refused write: the first problem is the message, every problem is in `result.fields`. */
export function fieldError(problems: readonly FieldProblem[]): AppError {
  const fields: Record<string, string> = {};
  for (const p of problems) fields[p.field] ??= p.message;
  return new AppError(ErrorCode.invalid, problems[0]!.message, 200, { fields });
}

/** The ids of `kinds` the rows hold, their lists' rows included. */
function idsOf(def: RecordDef, rows: readonly Record<string, unknown>[], kinds: readonly string[]): number[] {
  const ids = new Set<number>();
  for (const r of rows)
    for (const { fd, value } of valuesOf(def, r))
      if (kinds.includes(fd.kind))
        for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'number') ids.add(id);
  return [...ids];
}

function userIdsOf(def: RecordDef, rows: readonly Record<string, unknown>[]): number[] {
  const ids = idsOf(def, rows, ['user', 'users']);
  for (const r of rows) if (typeof r.createBy === 'number') ids.push(r.createBy);
  return [...new Set(ids)];
}

const deptIdsOf = (def: RecordDef, rows: readonly Record<string, unknown>[]) => idsOf(def, rows, ['dept']);

/**
 * Dictionary items and names, each read once: per write, or once for a whole import (a file of
 * 2,000 rows would otherwise read the same dictionaries and people 2,000 times).
 */
export function createLookups(q: Db) {
  const items = new Map<string, Awaited<ReturnType<typeof repo.dictItems>>>();
  const users = new Map<number, { id: number; name: string; enabled: boolean }>();
  const depts = new Map<number, { id: number; name: string }>();
  return {
    async items(keys: readonly string[]) {
      const missing = [...new Set(keys)].filter((k) => !items.has(k));
      if (missing.length) {
        const rows = await repo.dictItems(q, missing, false);
        for (const k of missing)
          items.set(
            k,
            rows.filter((r) => r.dict_key === k),
          );
      }
      return keys.flatMap((k) => items.get(k) ?? []);
    },
    async names(userIds: readonly number[], deptIds: readonly number[]) {
      const n = await repo.names(
        q,
        [...new Set(userIds)].filter((id) => !users.has(id)),
        [...new Set(deptIds)].filter((id) => !depts.has(id)),
      );
      for (const u of n.users) users.set(u.id, u);
      for (const d of n.depts) depts.set(d.id, d);
      return {
        users: userIds.flatMap((id) => (users.has(id) ? [users.get(id)!] : [])),
        depts: deptIds.flatMap((id) => (depts.has(id) ? [depts.get(id)!] : [])),
      };
    },
  };
}
export type Lookups = ReturnType<typeof createLookups>;

/**
 * What a transition does beyond its row (`Transition.effect`), registered by the module that
 * knows how (`registerEffect('<record>.<effect>', fn)`): run in the transition's transaction
 * after the status moved, so a refusal (an AppError) undoes the move too. It may answer more
 * fields of the row to set, and what to run after the commit (telling the live bus). An `answer`
 * that holds a secret shown once comes with `replay`, the same answer without it: what a replay
 * of the call (Idempotency-Key) is answered from, so the secret is never stored.
 */
export type TransitionEffect = (
  trx: Db,
  ctx: { def: RecordDef; row: Row; input: Record<string, unknown>; user: SessionUser; time: number },
) => Promise<{
  set?: Record<string, unknown>;
  after?: () => void;
  answer?: unknown;
  replay?: unknown;
} | void>;

/** A module's check of one row about to be stored (its values over the stored row): a problem or null. */
export type WriteCheck = (q: Db, row: Record<string, unknown>, before?: Row) => Promise<FieldProblem | null>;

/** A module's fill of a form's (unchecked) values: the fields to set over them. */
export type FormFill = (values: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;

export function createRecordService(deps: {
  db: Db;
  access: Access;
  records: readonly RecordDef[];
  /** Binds rich text images and file fields' uploads to their row (attach tables named by the record). */
  attach?: Pick<AttachService, 'bindInTx' | 'dropBytes' | 'rowsOf'>;
  now?: () => number;
}) {
  const { db, access } = deps;
  const now = deps.now ?? Date.now;
  const byName = new Map(deps.records.map((r) => [r.name, r]));
  const effects = new Map<string, TransitionEffect>();
  /** Why a row may not be deleted that only a query can tell (a volunteer with service records). */
  const deleteGuards = new Map<string, (trx: Db, row: Row) => Promise<string | null>>();
  /**
   * A module's own check of a row about to be stored that needs the database (a link's host on
   * the administrator's allow-list), by record name: run in the write's transaction after the
   * engine's checks found nothing, for forms and imports alike.
   */
  const writeChecks = new Map<string, WriteCheck>();
  /**
   * A module's fill of a form's values that needs slow work (a media file's duration read from
   * its bytes), by record name: run before the write's transaction, so no transaction waits on
   * it; it answers fields to set over the form's. The engine's checks then judge the result.
   */
  const formFills = new Map<string, FormFill>();
  /** Conditions for a record's virtual filters (RecordDef.virtualFilters), by record name. */
  const listFilters = new Map<string, (query: Record<string, unknown>) => Promise<Cond[]>>();
  const readerImages = new Map<string, (attachmentId: number) => string>();

  async function mayWrite(def: RecordDef, user: SessionUser) {
    return access.can(user, def.access.write);
  }

  /**
   * For a record of people's or departments' rows: whether the caller holds its `all` grant,
   * and the conditions keeping them to their own rows otherwise.
   */
  async function ownerScope(def: RecordDef, user: SessionUser): Promise<WriteContext['owner']> {
    const owner = def.access.owner;
    const keyed = def.access.keyed;
    if (keyed && !(await access.can(user, def.access.write))) {
      // A narrower grant (视频分类): the rows whose field holds a value it names, and only those.
      const values: string[] = [];
      for (const [value, grant] of Object.entries(keyed.grants))
        if (await access.can(user, grant)) values.push(value);
      if (values.length)
        return {
          all: false,
          depts: [] as number[],
          conds: [{ field: keyed.field, op: 'in', value: values }] as Cond[],
          keyed: values as readonly unknown[],
        };
    }
    if (!owner) return { all: true, depts: [] as number[], conds: [] as Cond[] };
    if (await access.can(user, owner.all)) return { all: true, depts: [], conds: [] };
    const byDept = def.fields[owner.field]!.kind === 'dept';
    const depts = byDept ? await repo.deptIdsOfUser(db, user.id) : [];
    const conds: Cond[] = [
      byDept
        ? { field: owner.field, op: 'in', value: depts }
        : { field: owner.field, op: 'eq', value: user.id },
    ];
    return { all: false, depts, conds };
  }

  /** Read access, and the conditions that keep a reader to the rows they may see. */
  async function readScope(def: RecordDef, user: SessionUser): Promise<{ conds: Cond[]; writer: boolean }> {
    const writer = await mayWrite(def, user);
    const owner = await ownerScope(def, user);
    const allowed =
      writer ||
      def.access.read === null ||
      (await access.can(user, def.access.read)) ||
      Boolean(def.access.owner && owner.all) ||
      Boolean(owner.keyed);
    if (!allowed) throw forbidden('无权限查看，请联系管理员开通');
    const sees = def.access.readerSees;
    const conds = writer || !sees ? [] : [{ field: sees.field, op: 'in' as const, value: sees.values }];
    return { writer, conds: [...conds, ...owner.conds] };
  }

  /**
   * A write's context, before its transaction: the grant checked (the record's write grant, a
   * transition's own, or the owner's `all`), the rows the writer may change (all, or for a
   * record of people's rows their own), and the rows of refs' records they may read.
   */
  async function writeContext(
    def: RecordDef,
    user: SessionUser,
    grant = def.access.write,
  ): Promise<WriteContext> {
    const owner = await ownerScope(def, user);
    // A keyed grant writes its own rows (ownerScope's conditions and the checks keep it there).
    const keyedWrite = Boolean(owner.keyed) && grant === def.access.write;
    if (!(owner.all && def.access.owner) && !keyedWrite) await access.require(user, grant);
    const refs = new Map<string, Cond[] | null>();
    for (const fd of Object.values(def.fields).flatMap((x) => [x, ...Object.values(x.sub ?? {})]))
      if (fd.ref && !refs.has(fd.ref.record))
        refs.set(fd.ref.record, await readConds(byName.get(fd.ref.record)!, user));
    return { user, owner, refs };
  }

  /** The rows of a ref field's record the caller may read, or null for none. */
  async function readConds(def: RecordDef, user: SessionUser): Promise<Cond[] | null> {
    try {
      return (await readScope(def, user)).conds;
    } catch {
      return null;
    }
  }

  /** What a page of rows refers to: people, departments, files and the titles of refs. */
  async function namesFor(
    def: RecordDef,
    rows: readonly Record<string, unknown>[],
    user: SessionUser,
  ): Promise<RecordNames> {
    const n = await repo.names(db, userIdsOf(def, rows), deptIdsOf(def, rows));
    const names: RecordNames = {
      users: Object.fromEntries(n.users.map((u) => [String(u.id), u.name])),
      depts: Object.fromEntries(n.depts.map((d) => [String(d.id), d.name])),
    };
    const fileIds = idsOf(def, rows, ['file', 'image']);
    if (fileIds.length && deps.attach) {
      const readerPath = readerImages.get(def.name);
      const reader = Boolean(readerPath);
      names.files = Object.fromEntries(
        (await deps.attach.rowsOf(db, fileIds)).map((a) => {
          const att = toAttachment(a);
          return [String(a.id), reader && a.inline ? { ...att, attPath: readerPath!(a.id) } : att];
        }),
      );
    }
    const refs = Object.values(def.fields).flatMap((fd) => [fd, ...Object.values(fd.sub ?? {})]);
    for (const name of new Set(refs.flatMap((fd) => (fd.ref ? [fd.ref.record] : [])))) {
      const target = byName.get(name)!;
      const by = refs.find((fd) => fd.ref?.record === name)!.ref!.by;
      const ids = rows.flatMap((r) =>
        valuesOf(def, r)
          .filter((e) => e.fd.ref?.record === name)
          .flatMap((e) =>
            typeof e.value === 'number' ? [e.value] : Array.isArray(e.value) ? (e.value as number[]) : [],
          ),
      );
      const conds = ids.length ? await readConds(target, user) : null;
      const found = conds ? await repo.findAllIn(db, target, 'id', ids, conds) : [];
      (names.refs ??= {})[name] = Object.fromEntries(found.map((r) => [String(r.id), String(r[by] ?? '')]));
    }
    return names;
  }

  /**
   * Personal data masked (records-design §1): always in lists, in the detail for non-writers.
   * A `writersOnly` field (a storeroom location) is emptied for non-writers, in lists and details.
   */
  function masked(def: RecordDef, row: Row, writer = false): Row {
    const out: Row = { ...row };
    for (const [key, fd] of Object.entries(def.fields)) {
      const v = out[key];
      if (fd.mask === 'writersOnly' && !writer) out[key] = fd.empty;
      if (typeof v !== 'string' || !v) continue;
      if (fd.mask === 'phone') out[key] = maskPhone(v);
      if (fd.mask === 'idNumber') out[key] = maskIdNumber(v);
    }
    return out;
  }

  /** The words a rule's message names values with: dictionary labels, status words, names. */
  async function wordsFor(
    def: RecordDef,
    rows: readonly Record<string, unknown>[],
    look: Lookups = createLookups(db),
  ): Promise<Words> {
    const keys = Object.values(def.fields).flatMap((fd) => (fd.dict ? [fd.dict] : []));
    const items = await look.items(keys);
    const { users, depts } = await look.names(userIdsOf(def, rows), deptIdsOf(def, rows));
    return (field, value) => {
      const fd = def.fields[field];
      if (!fd) return String(value ?? '');
      if (fd.dict)
        return items.find((i) => i.dict_key === fd.dict && i.value === value)?.label ?? String(value);
      if (fd.kind === 'status') return statusLabel(def, value);
      if (fd.kind === 'user' || fd.kind === 'users')
        return users.find((u) => u.id === value)?.name ?? `#${String(value)}`;
      if (fd.kind === 'dept') return depts.find((d) => d.id === value)?.name ?? `#${String(value)}`;
      return String(value ?? '');
    };
  }

  const checks = createChecks({
    byName,
    attachRows: deps.attach ? (q, ids) => deps.attach!.rowsOf(q, ids) : undefined,
    wordsFor,
  });

  /** Form values as stored: rich text sanitised, optional fields left empty as their empty. */
  function clean(def: RecordDef, body: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, fd] of formFields(def)) {
      const v = body[key];
      out[key] =
        fd.kind === 'rich' && typeof v === 'string' ? sanitizeRichHtml(v) : v === undefined ? fd.empty : v;
    }
    // Derived fields (not in the form) follow from the values just cleaned.
    return def.derive ? { ...out, ...def.derive(out) } : out;
  }

  /**
   * A row's attachments are the images its rich text shows and the uploads of its file fields:
   * bound to the row (uploaded unbound), and those no longer in it deleted. Answers the bytes to
   * drop after the commit.
   */
  async function bindFiles(
    q: Db,
    def: RecordDef,
    user: SessionUser,
    id: number,
    row: Record<string, unknown>,
  ) {
    if (!hasAttachments(def) || !deps.attach) return [];
    const ids = Object.entries(def.fields).flatMap(([k, fd]) =>
      fd.kind === 'rich'
        ? imageIdsIn(String(row[k] ?? ''))
        : fd.kind === 'file' || fd.kind === 'image'
          ? ((row[k] as number[] | undefined) ?? [])
          : [],
    );
    return deps.attach.bindInTx(q, { user, table: def.name, recordId: id, ids });
  }

  /**
   * Checks and stores rows in the caller's transaction: every row's problems, or when there are
   * none the rows inserted (or changed, given `before`), their status history begun and their
   * files bound. A form saves one row; an import its whole file, with a few queries for all.
   */
  async function saveMany(
    q: Db,
    def: RecordDef,
    ctx: WriteContext,
    items: readonly Pending[],
    look: Lookups = createLookups(q),
  ): Promise<{ problems: FieldProblem[][] } | { ids: number[]; dropped: string[] }> {
    const { user } = ctx;
    const problems = await checks.problemsOfMany(q, def, ctx, items, look);
    const own = writeChecks.get(def.name);
    if (own)
      for (const [i, p] of items.entries())
        if (!problems[i]!.length) {
          const problem = await own(q, { ...p.before, ...p.values }, p.before);
          if (problem) problems[i]!.push(problem);
        }
    if (problems.some((p) => p.length)) return { problems };
    const t = now();
    const fresh = items.filter((p) => !p.before).map((p) => p.values);
    if (def.booking) {
      // A refused row leaves nothing reserved for it; the caller rolls back the others'.
      const { capacityTable, capacityField, quantityField } = def.booking;
      for (const [i, p] of items.entries()) {
        if (p.before) continue;
        const v = p.values;
        if (!(await repo.reserve(q, capacityTable, v[capacityField] as number, v[quantityField] as number)))
          return {
            problems: items.map((_, j) =>
              j === i ? [{ field: capacityField, message: '名额不足或已停止预约，请选择其他场次' }] : [],
            ),
          };
      }
    }
    const inserted = await repo.insertMany(q, def, fresh, user.id, t);
    const ids: number[] = [];
    const dropped: string[] = [];
    let n = 0;
    for (const p of items) {
      if (p.before) {
        if ((await repo.update(q, def, p.before.id, p.values, user.id, t)) === 0) throw notFound(GONE);
        ids.push(p.before.id);
      } else ids.push(inserted[n++]!);
      dropped.push(...(await bindFiles(q, def, user, ids.at(-1)!, { ...p.before, ...p.values })));
    }
    if (def.status) {
      const field = def.status.field;
      const initial = def.fields[field]!.initial as number;
      await repo.logStatus(
        q,
        ...items.flatMap((p, i) =>
          p.before
            ? []
            : [
                {
                  table: def.table,
                  recordId: ids[i]!,
                  action: 'create',
                  from: null,
                  to: (p.values[field] ?? initial) as number,
                  operatorId: user.id,
                  comment: '',
                  time: t,
                },
              ],
        ),
      );
    }
    return { ids, dropped };
  }

  /** Whether a row is frozen by another record's row (a closed month): its words, or null. */
  async function frozenWhy(q: Db, def: RecordDef, row: Row): Promise<string | null> {
    const fz = def.frozenBy;
    if (!fz) return null;
    const conds: Cond[] = Object.entries(fz.match).map(([theirs, ours]) => ({
      field: theirs,
      op: 'eq',
      value: row[ours],
    }));
    conds.push({ field: fz.field, op: 'in', value: fz.values });
    return (await repo.count(q, byName.get(fz.record)!, conds)) ? fz.message(row) : null;
  }

  /** A form's one row: saved, or refused with its problems per field. */
  async function saveOne(def: RecordDef, ctx: WriteContext, item: Pending, find?: number) {
    const fill = formFills.get(def.name);
    if (fill) item = { ...item, values: { ...item.values, ...(await fill(item.values)) } };
    const r = await db.transaction().execute(async (trx) => {
      let before: Row | undefined;
      if (find !== undefined) {
        before = await repo.find(trx, def, find, ctx.owner.conds);
        if (!before) throw notFound(GONE);
      }
      return saveMany(trx, def, ctx, [{ ...item, before }]);
    });
    if ('problems' in r) throw fieldError(r.problems[0]!);
    await deps.attach?.dropBytes(r.dropped);
    return r.ids[0]!;
  }

  /** A new row's values: the form's, and the owner when the form does not carry it (the caller). */
  function createValues(def: RecordDef, user: SessionUser, body: Record<string, unknown>) {
    const values = clean(def, body);
    const owner = def.access.owner;
    if (owner && def.fields[owner.field]!.form === false) values[owner.field] = user.id;
    return values;
  }

  /**
   * A transition in the caller's transaction, `row` read there: refused with 状态已变化，请刷新
   * when the row no longer holds `from`, then guard, status move, effect and status history.
   */
  async function moveInTx(
    trx: Db,
    def: RecordDef,
    key: string,
    user: SessionUser,
    row: Row,
    body: Record<string, unknown>,
  ) {
    const t = def.transitions![key]!;
    const field = def.status!.field;
    const from = row[field] as number;
    if (!t.from.includes(from)) throw invalid(STALE_STATUS);
    const why = t.guard?.(row, body) ?? (await frozenWhy(trx, def, row));
    if (why) throw invalid(why);
    const time = now();
    const values = { ...(t.set?.(row, body, time) ?? {}), [field]: t.to };
    if ((await repo.moveStatus(trx, def, row.id, t.from, values, user.id, time)) === 0)
      throw invalid(STALE_STATUS);
    if (def.booking && def.booking.releasedAt.includes(t.to) && !def.booking.releasedAt.includes(from))
      await repo.release(
        trx,
        def.booking.capacityTable,
        row[def.booking.capacityField] as number,
        row[def.booking.quantityField] as number,
      );
    let done: (() => void) | undefined;
    let answer: unknown;
    let replay: unknown;
    if (t.effect) {
      const run = effects.get(`${def.name}.${t.effect}`);
      if (!run) throw new Error(`${def.name}.${key}: effect ${t.effect} is not registered`);
      const out = await run(trx, { def, row, input: body, user, time });
      if (out?.set && Object.keys(out.set).length)
        await repo.update(trx, def, row.id, out.set, user.id, time);
      done = out?.after;
      answer = out?.answer;
      replay = out?.replay;
    }
    const comment =
      typeof body.reason === 'string' ? body.reason : typeof body.comment === 'string' ? body.comment : '';
    await repo.logStatus(trx, {
      table: def.table,
      recordId: row.id,
      action: key,
      from,
      to: t.to,
      operatorId: user.id,
      comment,
      time,
    });
    return { done, answer, replay };
  }

  /**
   * An update that also moves the status (`statusByUpdate`): the form's values saved and the
   * transition from the stored status to `target` run in one transaction, the guard judging the
   * row as saved. Without a change of status it is a plain update.
   */
  async function updateWithStatus(
    def: RecordDef,
    user: SessionUser,
    body: Record<string, unknown> & { id: number },
    target: number,
  ) {
    const ctx = await writeContext(def, user);
    const field = def.status!.field;
    const item: Pending = { values: clean(def, body) };
    const after = await db.transaction().execute(async (trx) => {
      const before = await repo.find(trx, def, body.id, ctx.owner.conds);
      if (!before) throw notFound(GONE);
      const from = before[field] as number;
      const saved = await saveMany(trx, def, ctx, [{ ...item, before }]);
      if ('problems' in saved) throw fieldError(saved.problems[0]!);
      if (from === target) return { dropped: saved.dropped };
      const found = transitionTo(def, from, target);
      if ('problem' in found) throw invalid(found.problem);
      if (found.transition.access) await access.require(user, found.transition.access);
      const row = (await repo.find(trx, def, body.id))!;
      const moved = await moveInTx(trx, def, found.key, user, row, body);
      return { dropped: saved.dropped, done: moved.done };
    });
    await deps.attach?.dropBytes(after.dropped);
    after.done?.();
  }

  return {
    /** Registers the effect a transition names (`<record>.<effect>`). */
    registerEffect(name: string, fn: TransitionEffect) {
      effects.set(name, fn);
    },

    /** A module's conditions for its record's virtual filters (answered from the list's query). */
    registerListFilter(record: string, fn: (query: Record<string, unknown>) => Promise<Cond[]>) {
      listFilters.set(record, fn);
    },

    /** A module's own check of a row about to be stored (run in the write's transaction). */
    registerWriteCheck(record: string, fn: WriteCheck) {
      writeChecks.set(record, fn);
    },

    /** A module's fill of a form's values, before the write's transaction (see `formFills`). */
    registerFormFill(record: string, fn: FormFill) {
      formFills.set(record, fn);
    },

    /** A module's own reason a row may not be deleted (run in the delete's transaction). */
    registerDeleteGuard(record: string, fn: (trx: Db, row: Row) => Promise<string | null>) {
      deleteGuards.set(record, fn);
    },

    /** Fails (at start) when a transition names an effect nobody registered. */
    checkEffects() {
      for (const def of deps.records)
        for (const [key, t] of Object.entries(def.transitions ?? {}))
          if (t.effect && !effects.has(`${def.name}.${t.effect}`))
            throw new Error(`${def.name}.${key}: effect ${t.effect} is not registered`);
    },

    mayWrite,
    readScope,
    writeContext,
    saveMany,
    clean,
    createValues,
    wordsFor,
    namesFor,
    defOf: (name: string) => byName.get(name),

    async list(
      def: RecordDef,
      user: SessionUser,
      query: ListQuery,
      opts: { whole?: boolean } = {},
    ): Promise<RecordPage> {
      const { conds, writer } = await readScope(def, user);
      // Personal data whole (an export 含证件号) only for the record's writers.
      if (opts.whole && !writer) throw forbidden('只有管理员可以导出完整证件号与手机号');
      const filters: Cond[] = [];
      let statusFilter: Cond | undefined;
      for (const [key, fd] of Object.entries(filterFields(def))) {
        if (def.virtualFilters && key in def.virtualFilters) continue;
        if (fd.filter === 'range') {
          if (query[`${key}From`] !== undefined)
            filters.push({ field: key, op: 'gte', value: query[`${key}From`] });
          if (query[`${key}To`] !== undefined)
            filters.push({ field: key, op: 'lte', value: query[`${key}To`] });
        } else if (fd.filter && query[key] !== undefined) {
          const c: Cond =
            fd.filter === 'contains'
              ? { field: key, op: 'contains', value: query[key] as number }
              : { field: key, op: 'eq', value: query[key] };
          if (def.status?.field === key) statusFilter = c;
          else filters.push(c);
        }
      }
      if (def.virtualFilters) filters.push(...((await listFilters.get(def.name)?.(query)) ?? []));
      const keywordFields = Object.entries(def.fields)
        .filter(([, fd]) => fd.keyword)
        .map(([k]) => k);
      if (typeof query.keyword === 'string' && query.keyword && keywordFields.length)
        filters.push({ op: 'keyword', fields: keywordFields, value: query.keyword });
      const order = [
        ...(typeof query.orderBy === 'string'
          ? [[query.orderBy, (query.order as 'asc' | 'desc') ?? 'asc'] as const]
          : []),
        ...def.order,
      ];
      const all = [...conds, ...filters, ...(statusFilter ? [statusFilter] : [])];
      const { rows, total } = await repo.list(db, def, all, order, {
        currentPage: query.currentPage as number,
        pageCount: query.pageCount as number,
      });
      // Rich text stays out of lists (it can be long); the detail has it.
      const rich = Object.entries(def.fields)
        .filter(([, fd]) => fd.kind === 'rich')
        .map(([k]) => k);
      const slim = (r: Row) => {
        const out = opts.whole ? { ...r } : masked(def, r, writer);
        for (const k of rich) delete out[k];
        return out;
      };
      const page: RecordPage = { list: rows.map(slim), total, names: await namesFor(def, rows, user) };
      if (def.status) {
        const counts = await repo.countBy(db, def, [...conds, ...filters], def.status.field);
        page.counts = counts.map((c) => ({ value: Number(c.value), count: c.count }));
      }
      return page;
    },

    async detail(def: RecordDef, user: SessionUser, id: number): Promise<RecordDetail> {
      const { conds, writer } = await readScope(def, user);
      const row = await repo.find(db, def, id, conds);
      if (!row) throw notFound(GONE);
      const lines = def.status ? await repo.statusLog(db, def.table, id) : [];
      const log: StatusLine[] = lines.map((l) => ({
        action: l.action,
        actionLabel: l.action === 'create' ? '新建' : (def.transitions?.[l.action]?.label ?? l.action),
        fromStatus: l.from_status === null ? null : Number(l.from_status),
        toStatus: Number(l.to_status),
        operatorId: l.operator_id === null ? null : Number(l.operator_id),
        operatorName: l.user_name ?? '',
        comment: l.comment,
        time: Number(l.time),
      }));
      return { record: writer ? row : masked(def, row), names: await namesFor(def, [row], user), log };
    },

    async create(def: RecordDef, user: SessionUser, body: Record<string, unknown>) {
      const ctx = await writeContext(def, user);
      return { id: await saveOne(def, ctx, { values: createValues(def, user, body) }) };
    },

    /**
     * A module's write outside the generic calls (an approved data approval of the collection):
     * checks `body` as create (no `id`) or update would, in the caller's transaction `trx`, as
     * `user`, and stores it unless `dryRun`. Throws the first problem as the generic calls do.
     * Answers the row's id (0 on a dry run of a new row) and the MD5s to drop after the commit.
     * **The caller has decided that `user` may write** (a grant checked before its transaction,
     * or an approval that passed): nothing here reads outside `trx`, so it runs inside another
     * module's transaction on SQLite's one connection. Records of people's rows, keyed grants
     * or refs need the generic calls' context and are refused.
     */
    async writeInTx(
      trx: Db,
      def: RecordDef,
      user: SessionUser,
      body: Record<string, unknown>,
      opts: { id?: number; dryRun?: boolean } = {},
    ): Promise<{ id: number; dropped: string[] }> {
      const hasRefs = Object.values(def.fields).some(
        (fd) => fd.ref || Object.values(fd.sub ?? {}).some((x) => x.ref),
      );
      if (def.access.owner || def.access.keyed || hasRefs)
        throw new Error(`${def.name}: writeInTx serves records without owners, keyed grants or refs`);
      const ctx: WriteContext = { user, owner: { all: true, depts: [], conds: [] }, refs: new Map() };
      let before: Row | undefined;
      if (opts.id !== undefined) {
        before = await repo.find(trx, def, opts.id, ctx.owner.conds);
        if (!before) throw notFound(GONE);
      }
      const item: Pending = { values: before ? clean(def, body) : createValues(def, user, body), before };
      if (opts.dryRun) {
        const problems = await checks.problemsOfMany(trx, def, ctx, [item], createLookups(trx));
        if (problems[0]!.length) throw fieldError(problems[0]!);
        return { id: opts.id ?? 0, dropped: [] };
      }
      const r = await saveMany(trx, def, ctx, [item]);
      if ('problems' in r) throw fieldError(r.problems[0]!);
      return { id: r.ids[0]!, dropped: r.dropped };
    },

    /**
     * How a record's images are shown in its lists and details (the collection's reduced
     * preview, which the device keeps offline; the original is a separate download): attPath
     * by attachment id.
     */
    registerReaderImage(record: string, path: (attachmentId: number) => string) {
      readerImages.set(record, path);
    },

    async update(def: RecordDef, user: SessionUser, body: Record<string, unknown> & { id: number }) {
      const target = def.statusByUpdate && def.status ? body[def.status.field] : undefined;
      if (typeof target === 'number') return updateWithStatus(def, user, body, target);
      await saveOne(def, await writeContext(def, user), { values: clean(def, body) }, body.id);
    },

    async remove(def: RecordDef, user: SessionUser, id: number) {
      const scope = (await writeContext(def, user)).owner.conds;
      let dropped: string[] = [];
      await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, def, id, scope);
        if (!row) throw notFound(GONE);
        const why =
          def.canDelete?.(row) ??
          (await frozenWhy(trx, def, row)) ??
          (await deleteGuards.get(def.name)?.(trx, row)) ??
          null;
        if (why) throw invalid(why);
        if (def.tree && row[def.tree.by]) {
          const scope = def.tree.scope.map((k) => ({ field: k, op: 'eq' as const, value: row[k] }));
          const n = await repo.count(trx, def, [
            ...scope,
            { field: def.tree.field, op: 'eq', value: row[def.tree.by] },
          ]);
          if (n) throw invalid(`“${def.describe(row)}”下还有 ${n} 个下级项，请先删除或移走它们`);
        }
        for (const child of deps.records.filter((r) => r.belongsTo?.record === def.name)) {
          const n = await repo.count(trx, child, [
            { field: child.belongsTo!.field, op: 'eq', value: row[child.belongsTo!.by] },
          ]);
          if (n) throw invalid(`“${def.describe(row)}”下还有 ${n} 个${child.title}，请先删除它们`);
        }
        // A row another record's ref points to stays (even a soft delete would leave it pointing
        // at a row nobody sees). Refs inside lists are not indexed, so they do not hold it; a
        // refs field (',3,7,') holds it through the same exact "contains" its list filter uses.
        for (const other of deps.records)
          for (const [key, fd] of Object.entries(other.fields)) {
            if (fd.ref?.record !== def.name) continue;
            const n = await repo.count(trx, other, [
              fd.kind === 'refs'
                ? { field: key, op: 'contains', value: row.id }
                : { field: key, op: 'eq', value: row.id },
            ]);
            if (n)
              throw invalid(
                `“${def.describe(row)}”已被 ${n} 条${other.title}用作${fd.label}，请先修改或删除它们`,
              );
          }
        if (def.booking && def.status && !def.booking.releasedAt.includes(row[def.status.field] as number))
          await repo.release(
            trx,
            def.booking.capacityTable,
            row[def.booking.capacityField] as number,
            row[def.booking.quantityField] as number,
          );
        await repo.remove(trx, def, id, user.id, now());
        // A deleted row's files go with it (a soft-deleted one keeps them, as it keeps its text).
        if (!def.softDelete) dropped = await bindFiles(trx, def, user, id, {});
      });
      await deps.attach?.dropBytes(dropped);
    },

    /** A named status change: refused with 状态已变化，请刷新 when the row no longer holds `from`. */
    async transition(
      def: RecordDef,
      key: string,
      user: SessionUser,
      body: Record<string, unknown> & { id: number },
      /** Told the effect's `replay` (the route hands it to the idempotency plugin). */
      onReplay?: (replay: unknown) => void,
    ) {
      const t = def.transitions![key]!;
      const scope = (await writeContext(def, user, t.access)).owner.conds;
      const after = await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, def, body.id, scope);
        if (!row) throw notFound(GONE);
        return moveInTx(trx, def, key, user, row, body);
      });
      after.done?.();
      if (after.replay !== undefined) onReplay?.(after.replay);
      // What the effect made that only this caller sees (a new volunteer's initial password).
      return after.answer;
    },

    /** Moves a row one place up or down in its sort scope (swapping with its neighbour). */
    async move(def: RecordDef, user: SessionUser, id: number, dir: 'up' | 'down') {
      const rows = (await writeContext(def, user)).owner.conds;
      const sort = def.sortable!;
      await db.transaction().execute(async (trx) => {
        const row = await repo.find(trx, def, id, rows);
        if (!row) throw notFound(GONE);
        const scope: Cond[] = sort.scope.map((k) => ({ field: k, op: 'eq', value: row[k] }));
        const other = await repo.neighbour(trx, def, row, dir, scope);
        if (!other) throw invalid(dir === 'up' ? '已经排在最前面了' : '已经排在最后面了');
        const a = row[sort.field] ?? 0;
        const b = other[sort.field] ?? 0;
        if (a !== b) {
          await repo.update(trx, def, row.id, { [sort.field]: b }, user.id, now());
          await repo.update(trx, def, other.id, { [sort.field]: a }, user.id, now());
          return;
        }
        // Equal sort numbers: number the scope 10, 20, 30 … in its current order, then swap.
        const all = await repo.findAll(trx, def, scope);
        const order = all.map((r) => r.id);
        const i = order.indexOf(row.id);
        const j = order.indexOf(other.id);
        [order[i], order[j]] = [order[j]!, order[i]!];
        for (const [n, rid] of order.entries())
          await repo.update(trx, def, rid, { [sort.field]: (n + 1) * 10 }, user.id, now());
      });
    },

    /**
     * A singleton's row for its scope (records-design §2 D: one settings row per scope), or the
     * fields' starting values (id 0) while none is saved.
     */
    async load(def: RecordDef, user: SessionUser, query: Record<string, unknown>): Promise<RecordDetail> {
      await readScope(def, user);
      const scope = def.singleton?.scope;
      const conds: Cond[] = scope ? [{ field: scope, op: 'eq', value: query[scope] }] : [];
      const row = (await repo.findAll(db, def, conds, 1))[0];
      if (row) return { record: row, names: await namesFor(def, [row], user), log: [] };
      const record: Record<string, unknown> = {
        id: 0,
        createTime: 0,
        createBy: null,
        updateTime: 0,
        updateBy: null,
      };
      for (const [key, fd] of Object.entries(def.fields)) record[key] = fd.initial ?? fd.empty;
      if (scope) record[scope] = query[scope];
      return { record: record as Row, names: { users: {}, depts: {} }, log: [] };
    },

    /** Saves a singleton's row for its scope: the first save creates it, later ones change it. */
    async save(def: RecordDef, user: SessionUser, body: Record<string, unknown>) {
      const ctx = await writeContext(def, user);
      const values = createValues(def, user, body);
      const scope = def.singleton?.scope;
      const r = await db.transaction().execute(async (trx) => {
        const conds: Cond[] = scope ? [{ field: scope, op: 'eq', value: values[scope] }] : [];
        const before = (await repo.findAll(trx, def, conds, 1))[0];
        return saveMany(trx, def, ctx, [{ values, before }]);
      });
      if ('problems' in r) throw fieldError(r.problems[0]!);
      await deps.attach?.dropBytes(r.dropped);
      return { id: r.ids[0]! };
    },

    /**
     * Appends a row to a log (records-design §2 E) from the server's own code: no rights, no
     * rules, no update or delete call exists for it. `actorId` is who did what is logged.
     */
    async append(def: RecordDef, values: Record<string, unknown>, actorId: number | null) {
      return repo.insert(db, def, values, actorId, now());
    },

    /** Removes a log's rows older than its retentionDays; answers how many went. */
    async prune(def: RecordDef) {
      if (!def.retentionDays) return 0;
      return repo.pruneOlderThan(db, def, now() - def.retentionDays * 86_400_000);
    },

    /** Every row the list's filters select (for the xlsx export), with names. */
    async exportRows(def: RecordDef, user: SessionUser, query: ListQuery, opts: { whole?: boolean } = {}) {
      const page = await this.list(def, user, { ...query, currentPage: 1, pageCount: 10_000 }, opts);
      return page;
    },

    /** Whether `user` may see row `id` (the attachments of its rich text follow the row). */
    async canRead(def: RecordDef, user: SessionUser, id: number) {
      try {
        const { conds } = await readScope(def, user);
        return Boolean(await repo.find(db, def, id, conds));
      } catch {
        return false;
      }
    },

    /** Whether row `id` is out for its readers (published, or a record without a publish state). */
    async isPublished(def: RecordDef, id: number) {
      const row = await repo.find(db, def, id);
      const sees = def.access.readerSees;
      return Boolean(row) && (!sees || sees.values.includes(row![sees.field]));
    },
  };
}
export type RecordService = ReturnType<typeof createRecordService>;
