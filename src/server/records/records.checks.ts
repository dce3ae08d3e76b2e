import type { Selectable } from 'kysely';
import { ATTACH_MAX_BYTES } from '../../shared/api/attach';
import { formatSize } from '../../shared/drive/file-types';
import {
  valuesOf,
  type FieldProblem,
  type RecordDef,
  type Row,
  type Words,
} from '../../shared/records/define';
import type { Db } from '../db/index';
import type { AttachmentTable } from '../db/schema';
import type { SessionUser } from '../modules/auth/auth.service';
import * as repo from './records.repo';
import type { Cond } from './records.repo';
import type { Lookups } from './records.service';

/**
 * Everything a write must pass besides its schema, for one form or a whole import file at once.
 * The checks read what all the rows refer to in a few queries (dictionaries, people, the rows
 * of refs and owners, uploads, stored rows sharing a unique key or a rule's peers), then judge
 * each row in memory in file order: a row of a file sees the rows before it as if they were
 * stored already (two rows of one file may clash too). So an import of 5,000 rows costs a
 * handful of queries, not five per row, and its transaction stays short.
 */

/** A row about to be stored: its values after the schema, and the stored row it changes. */
export interface Pending {
  values: Record<string, unknown>;
  before?: Row;
}

type AttachmentRow = Selectable<AttachmentTable>;

/**
 * Who writes, and what they may touch, read before the write's transaction begins (grants and
 * departments come from the database's one connection, which a transaction holds).
 */
export interface WriteContext {
  user: SessionUser;
  /** A record of people's or departments' rows: whether the caller has them all, their departments. */
  owner: {
    all: boolean;
    depts: readonly number[];
    conds: Cond[];
    /** RecordDef.access.keyed: the values of its field the caller's narrower grants allow. */
    keyed?: readonly unknown[];
  };
  /** Per record a ref field points to: the conditions keeping the caller to its rows they may read (null: none). */
  refs: ReadonlyMap<string, Cond[] | null>;
}

export interface CheckDeps {
  byName: ReadonlyMap<string, RecordDef>;
  /** Upload rows by id (the attachment service), for file and image fields. */
  attachRows?: (q: Db, ids: number[]) => Promise<AttachmentRow[]>;
  wordsFor: (def: RecordDef, rows: readonly Record<string, unknown>[], look: Lookups) => Promise<Words>;
}

const present = (v: unknown) => v !== null && v !== undefined && v !== '';
const idsOf = (v: unknown): number[] =>
  Array.isArray(v) ? (v as number[]) : present(v) ? [v as number] : [];
const extensionOf = (name: string) =>
  name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';

export function createChecks(deps: CheckDeps) {
  /** The problems of each pending row, in the order given (empty when the row may be stored). */
  async function problemsOfMany(
    q: Db,
    def: RecordDef,
    ctx: WriteContext,
    items: readonly Pending[],
    look: Lookups,
  ): Promise<FieldProblem[][]> {
    const { user } = ctx;
    const rows = items.map(({ values, before }) => ({ ...(before ?? {}), ...values }));
    const out: FieldProblem[][] = rows.map(() => []);
    const changed = (i: number, key: string) => {
      const before = items[i]!.before;
      return !before || JSON.stringify(before[key]) !== JSON.stringify(rows[i]![key]);
    };

    rows.forEach((row, i) => {
      const own = def.check?.(row);
      if (own) out[i]!.push(own);
      const before = items[i]!.before;
      const p = before && def.canUpdate?.(before, row);
      if (p) out[i]!.push(p);
    });
    ownerProblems(def, ctx, rows, out);
    await frozenProblems(q, def, items, rows, out);
    const kept = (i: number, key: string) => idsOf(items[i]!.before?.[key]);
    await valueProblems(q, def, ctx, rows, out, changed, kept, look);
    await fileProblems(q, def, user, items, rows, out, changed);
    await ownerRowProblems(q, def, rows, out);
    await storedProblems(q, def, items, rows, out, look);
    return out;
  }

  /** Rows owned by people or departments: only one's own, unless one holds the `all` grant. */
  function ownerProblems(
    def: RecordDef,
    ctx: WriteContext,
    rows: readonly Record<string, unknown>[],
    out: FieldProblem[][],
  ) {
    const owner = def.access.owner;
    const scope = ctx.owner;
    const keyed = def.access.keyed;
    if (keyed && scope.keyed)
      rows.forEach((row, i) => {
        if (!scope.keyed!.includes(row[keyed.field]))
          out[i]!.push({ field: keyed.field, message: keyed.message });
      });
    if (!owner || scope.all) return;
    const byDept = def.fields[owner.field]!.kind === 'dept';
    rows.forEach((row, i) => {
      const v = row[owner.field];
      if (byDept ? scope.depts.includes(v as number) : v === ctx.user.id) return;
      out[i]!.push({
        field: owner.field,
        message: byDept
          ? scope.depts.length
            ? `只能填写本部门的${def.title}`
            : `您还没有所属部门，不能填写${def.title}，请联系管理员`
          : `只能填写本人的${def.title}`,
      });
    });
  }

  /** Rows frozen by a row of another record (a closed month), before and after the change. */
  async function frozenProblems(
    q: Db,
    def: RecordDef,
    items: readonly Pending[],
    rows: readonly Record<string, unknown>[],
    out: FieldProblem[][],
  ) {
    const fz = def.frozenBy;
    if (!fz) return;
    const locker = deps.byName.get(fz.record)!;
    const pairs = Object.entries(fz.match);
    const [theirFirst, ourFirst] = pairs[0]!;
    const all = [...rows, ...items.flatMap((p) => (p.before ? [p.before] : []))];
    const locks = await repo.findAllIn(q, locker, theirFirst, all.map((r) => r[ourFirst]).filter(present), [
      { field: fz.field, op: 'in', value: fz.values },
    ]);
    const frozen = (r: Record<string, unknown>) =>
      locks.some((l) => pairs.every(([theirs, ours]) => l[theirs] === r[ours]));
    const at = pairs[pairs.length - 1]![1];
    rows.forEach((row, i) => {
      const before = items[i]!.before;
      const which = before && frozen(before) ? before : frozen(row) ? row : null;
      if (which) out[i]!.push({ field: at, message: fz.message(which) });
    });
  }

  /** Dictionary values, people, departments and refs, in the rows and in their lists' rows. */
  async function valueProblems(
    q: Db,
    def: RecordDef,
    ctx: WriteContext,
    rows: readonly Record<string, unknown>[],
    out: FieldProblem[][],
    changed: (i: number, key: string) => boolean,
    keptIds: (i: number, key: string) => number[],
    look: Lookups,
  ) {
    // A value kept unchanged stays valid (an item disabled or a person leaving since).
    const entries = rows.flatMap((row, i) =>
      valuesOf(def, row)
        .filter((e) => present(e.value) && changed(i, e.at))
        .map((e) => ({ ...e, i })),
    );
    const dicts = entries.filter((e) => e.fd.dict);
    if (dicts.length) {
      const items = (await look.items([...new Set(dicts.map((e) => e.fd.dict!))])).filter(
        (it) => Number(it.status) === 1,
      );
      for (const e of dicts) {
        const options = items.filter((it) => it.dict_key === e.fd.dict);
        if (!options.some((it) => it.value === e.value))
          out[e.i]!.push({
            field: e.at,
            message: `${e.where}${e.fd.label}不正确，可选：${options
              .map((o) => `${o.value} ${o.label}`)
              .slice(0, 12)
              .join('、')}`,
          });
      }
    }

    const people = entries.filter((e) => e.fd.kind === 'user' || e.fd.kind === 'users');
    const depts = entries.filter((e) => e.fd.kind === 'dept');
    if (people.length || depts.length) {
      const n = await look.names(
        people.flatMap((e) => idsOf(e.value)),
        depts.map((e) => e.value as number),
      );
      const enabled = new Set(n.users.filter((u) => u.enabled).map((u) => u.id));
      const known = new Set(n.depts.map((d) => d.id));
      for (const e of people)
        if (idsOf(e.value).some((id) => !enabled.has(id)))
          out[e.i]!.push({ field: e.at, message: `${e.where}所选${e.fd.label}不存在或已停用，请重新选择` });
      for (const e of depts)
        if (!known.has(e.value as number))
          out[e.i]!.push({ field: e.at, message: `${e.where}所选${e.fd.label}不存在，请重新选择` });
    }

    // A ref names a row the caller may read (a draft of another record answers like a missing row);
    // a refs field's ids each do. With `active`, a row newly chosen must be active (an enabled
    // group): on an update only the ids new to the row are held to it, so a group disabled since
    // stays on the applications that chose it.
    const refs = entries
      .filter((e) => e.fd.ref)
      .flatMap((e) => {
        const ids = e.fd.kind === 'refs' ? ((e.value as number[]) ?? []) : [e.value as number];
        const kept = e.fd.kind === 'refs' ? new Set(keptIds(e.i, e.at)) : new Set<number>();
        return ids.map((id) => ({ ...e, value: id, kept: kept.has(id) }));
      });
    for (const name of new Set(refs.map((e) => e.fd.ref!.record))) {
      const target = deps.byName.get(name)!;
      const mine = refs.filter((e) => e.fd.ref!.record === name);
      const conds = ctx.refs.get(name) ?? null;
      const found = conds
        ? await repo.findAllIn(
            q,
            target,
            'id',
            mine.map((e) => e.value),
            conds,
          )
        : [];
      const byId = new Map(found.map((r) => [r.id, r]));
      const said = new Set<string>();
      for (const e of mine) {
        const r = byId.get(e.value);
        const active = e.fd.ref!.active;
        const message = !r
          ? `${e.where}所选${e.fd.label}不存在或已删除，请重新选择`
          : active && !e.kept && r[active.field] !== active.value
            ? `${e.where}所选${e.fd.label}“${String(r[e.fd.ref!.by] ?? '')}”已停用，请重新选择`
            : null;
        // One message per field and row (two missing groups are one refusal).
        if (message && !said.has(`${e.i}:${e.at}:${message}`)) {
          said.add(`${e.i}:${e.at}:${message}`);
          out[e.i]!.push({ field: e.at, message });
        }
      }
    }
  }

  /**
   * File and image fields: an id new to the row must be the caller's own upload for this
   * record, not yet used by any row, of the field's kind, types and size.
   */
  async function fileProblems(
    q: Db,
    def: RecordDef,
    user: SessionUser,
    items: readonly Pending[],
    rows: readonly Record<string, unknown>[],
    out: FieldProblem[][],
    changed: (i: number, key: string) => boolean,
  ) {
    const fields = Object.entries(def.fields).filter(([, fd]) => fd.kind === 'file' || fd.kind === 'image');
    if (!fields.length) return;
    const wanted = rows.flatMap((row, i) =>
      fields
        .filter(([key]) => changed(i, key))
        .map(([key, fd]) => {
          const kept = new Set(idsOf(items[i]!.before?.[key]));
          return { i, key, fd, ids: idsOf(row[key]).filter((id) => !kept.has(id)) };
        })
        .filter((w) => w.ids.length),
    );
    if (!wanted.length) return;
    const found = await (deps.attachRows?.(q, [...new Set(wanted.flatMap((w) => w.ids))]) ?? []);
    const byId = new Map(found.map((a) => [Number(a.id), a]));
    for (const { i, key, fd, ids } of wanted) {
      const problem = ids
        .map((id) => {
          const a = byId.get(id);
          if (!a || a.table_name !== def.name || a.uploaded_by !== user.id || a.record_id !== null)
            return `${fd.label}中有文件不存在或已失效，请重新上传`;
          if (fd.kind === 'image' && (!a.inline || !a.mime))
            return `${fd.label}只能是 PNG、JPG、GIF、WebP 格式的图片`;
          const types = fd.accept?.types;
          if (types?.length && !types.includes(extensionOf(a.name)))
            return `${fd.label}只能是 ${types.join('、')} 格式的文件，“${a.name}”不是`;
          const max = fd.accept?.maxBytes ?? ATTACH_MAX_BYTES;
          if (Number(a.size) > max) return `${fd.label}的文件不能超过 ${formatSize(max)}，“${a.name}”过大`;
          return null;
        })
        .find(Boolean);
      if (problem) out[i]!.push({ field: key, message: problem });
    }
  }

  /** The row another record's row this one belongs to (an item's dictionary) must exist. */
  async function ownerRowProblems(
    q: Db,
    def: RecordDef,
    rows: readonly Record<string, unknown>[],
    out: FieldProblem[][],
  ) {
    const link = def.belongsTo;
    if (!link) return;
    const values = rows.map((r) => r[link.field]).filter(present);
    if (!values.length) return;
    const owners = await repo.findAllIn(q, deps.byName.get(link.record)!, link.by, values);
    const known = new Set(owners.map((o) => o[link.by]));
    rows.forEach((row, i) => {
      if (present(row[link.field]) && !known.has(row[link.field]))
        out[i]!.push({
          field: link.field,
          message: `${def.fields[link.field]!.label}不存在，请刷新后重试`,
        });
    });
  }

  /**
   * What depends on the record's other rows: a tree's parent, unique keys and the record's own
   * rules. The stored rows they may meet are read at once, then each row is judged in file order
   * against them and the rows of the file accepted before it.
   */
  async function storedProblems(
    q: Db,
    def: RecordDef,
    items: readonly Pending[],
    rows: readonly Record<string, unknown>[],
    out: FieldProblem[][],
    look: Lookups,
  ) {
    const tree = def.tree;
    const parents = tree
      ? await repo.findAllIn(q, def, tree.by, rows.map((r) => r[tree.field]).filter(present))
      : [];
    const uniques = await Promise.all(
      (def.unique ?? []).map((u) =>
        repo.findAllIn(
          q,
          def,
          u.fields[0]!,
          rows.map((r) => r[u.fields[0]!]),
        ),
      ),
    );
    const rules = def.rules ?? [];
    const wants = rules.map((rule) => rows.map((row) => rule.peers(row)));
    const peers = await Promise.all(
      rules.map(async (_rule, k) => {
        const fields = Object.keys(wants[k]![0] ?? {});
        if (!fields.length) return repo.findAll(q, def, [], 1_000_000);
        const [first, ...rest] = fields;
        const union = (f: string) => wants[k]!.flatMap((w) => [...(w[f] ?? [])]);
        const conds: Cond[] = rest.map((f) => ({ field: f, op: 'in', value: [...new Set(union(f))] }));
        return repo.findAllIn(q, def, first!, union(first!), conds);
      }),
    );

    // Rows of this batch already accepted, and the stored rows they replace. The accepted rows
    // are indexed (by each unique key, and by each rule's first peer field) so a file of 5,000
    // rows is judged in linear time, not by scanning every earlier row for every row.
    const accepted: Record<string, unknown>[] = [];
    const keyOf = (row: Record<string, unknown>, fields: readonly string[]) =>
      JSON.stringify(fields.map((f) => row[f] ?? null));
    const acceptedKeys = (def.unique ?? []).map(() => new Set<string>());
    const firstPeer = wants.map((w) => Object.keys(w[0] ?? {})[0]);
    const acceptedBy = rules.map(() => new Map<unknown, Record<string, unknown>[]>());
    const replaced = new Set<number>();
    const stored = (list: readonly Row[], self?: Row) =>
      list.filter((r) => r.id !== self?.id && !replaced.has(r.id));
    const same = (a: Record<string, unknown>, b: Record<string, unknown>, keys: readonly string[]) =>
      keys.every((k) => a[k] === b[k]);

    for (const [i, row] of rows.entries()) {
      const self = items[i]!.before;
      if (tree && present(row[tree.field])) {
        const match = (r: Record<string, unknown>) =>
          r[tree.by] === row[tree.field] && same(r, row, tree.scope);
        if (!stored(parents).some(match) && !accepted.some(match))
          out[i]!.push({
            field: tree.field,
            message: `${def.fields[tree.field]!.label}“${String(row[tree.field])}”不存在`,
          });
      }
      (def.unique ?? []).forEach((u, k) => {
        if (u.fields.some((f) => !present(row[f]))) return;
        const match = (r: Record<string, unknown>) => same(r, row, u.fields);
        if (stored(uniques[k]!, self).some(match) || acceptedKeys[k]!.has(keyOf(row, u.fields)))
          out[i]!.push({ field: u.fields[u.fields.length - 1]!, message: u.message });
      });
      if (!out[i]!.length)
        for (const [k, rule] of rules.entries()) {
          const want = wants[k]![i]!;
          const match = (r: Record<string, unknown>) =>
            Object.entries(want).every(([f, values]) => values.includes(r[f]));
          const first = firstPeer[k];
          const near = first
            ? [...new Set(want[first] ?? [])].flatMap((v) => acceptedBy[k]!.get(v) ?? [])
            : accepted;
          const mine = [...stored(peers[k]!, self).filter(match), ...(near.filter(match) as Row[])];
          const p = rule.check(row, mine, await deps.wordsFor(def, [row, ...mine], look));
          if (p) {
            out[i]!.push(p);
            break;
          }
        }
      if (!out[i]!.length) {
        accepted.push(row);
        (def.unique ?? []).forEach((u, k) => acceptedKeys[k]!.add(keyOf(row, u.fields)));
        rules.forEach((_rule, k) => {
          const first = firstPeer[k];
          if (!first) return;
          const list = acceptedBy[k]!.get(row[first]);
          if (list) list.push(row);
          else acceptedBy[k]!.set(row[first], [row]);
        });
        if (self) replaced.add(self.id);
      }
    }
  }

  return { problemsOfMany };
}
