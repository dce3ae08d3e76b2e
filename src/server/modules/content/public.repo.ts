import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { RecordDef, Row } from '../../../shared/records/define';
import { PUBLISHED } from '../../../shared/records/content/common';
import {
  bsCarousel,
  bsGuideChapter,
  bsGuideShowroom,
  bsGuideUnit,
} from '../../../shared/records/content/index';
import type { Db } from '../../db/index';
import { col, toRow } from '../../records/records.repo';

/**
 * The public read API's SQL (README "Public read API and preview"): what a visitor may see is
 * one WHERE clause, so a row outside it is never fetched. Visible means: not deleted, published
 * (status 1), a carousel row inside its display window (`start ≤ now < end`, either end open:
 * the SQL form of `isShowing`), a chapter only under a published showroom, a unit only under a
 * published chapter of a published showroom (taking a showroom down takes its guide down).
 * Portable across SQLite and PostgreSQL: plain comparisons and sub-selects.
 */

type Any = Kysely<any>;
type Qb = SelectQueryBuilder<any, any, any>;

/** A condition of a public list: a field equal to a value, or an exhibition's phase on a day. */
export type PublicCond =
  { field: string; value: string | number } | { phase: 'now' | 'upcoming' | 'closed'; today: string };

const visibleIds = (table: string) => (eb: ExpressionBuilder<any, any>) =>
  eb.selectFrom(table).select('id').where('del_flag', '=', 0).where('status', '=', PUBLISHED);

function visible(def: RecordDef, qb: Qb, now: number): Qb {
  let b = qb.where('del_flag', '=', 0).where('status', '=', PUBLISHED);
  if (def === bsCarousel)
    b = b
      .where((eb) => eb.or([eb('start_time', 'is', null), eb('start_time', '<=', now)]))
      .where((eb) => eb.or([eb('end_time', 'is', null), eb('end_time', '>', now)]));
  if (def === bsGuideChapter)
    b = b.where('showroom_id', 'in', (eb: ExpressionBuilder<any, any>) =>
      visibleIds(bsGuideShowroom.table)(eb),
    );
  if (def === bsGuideUnit)
    b = b.where('chapter_id', 'in', (eb: ExpressionBuilder<any, any>) =>
      visibleIds(bsGuideChapter.table)(eb).where('showroom_id', 'in', (e2: ExpressionBuilder<any, any>) =>
        visibleIds(bsGuideShowroom.table)(e2),
      ),
    );
  return b;
}

function filtered(qb: Qb, conds: readonly PublicCond[]): Qb {
  let b = qb;
  for (const c of conds) {
    if ('field' in c) {
      b = b.where(col(c.field), '=', c.value);
      continue;
    }
    const { today } = c;
    const noEnd = (eb: ExpressionBuilder<any, any>) =>
      eb.or([eb('end_date', 'is', null), eb('end_date', '=', '')]);
    if (c.phase === 'upcoming') b = b.where('start_date', '>', today);
    else if (c.phase === 'closed')
      b = b.where('end_date', 'is not', null).where('end_date', '!=', '').where('end_date', '<', today);
    else
      b = b.where('start_date', '<=', today).where((eb) => eb.or([noEnd(eb), eb('end_date', '>=', today)]));
  }
  return b;
}

/** One page of the visible rows under `conds`, in the record's order, and how many there are. */
export async function visiblePage(
  db: Db,
  def: RecordDef,
  conds: readonly PublicCond[],
  now: number,
  page: { page: number; pageSize: number },
): Promise<{ rows: Row[]; total: number }> {
  const base = filtered(visible(def, (db as unknown as Any).selectFrom(def.table), now), conds);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  let b = base.selectAll();
  for (const [key, dir] of def.order) b = b.orderBy(col(key), dir);
  const rows = await b
    .orderBy('id', 'asc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return { rows: rows.map((r) => toRow(def, r as Record<string, unknown>)), total };
}

/** The visible rows among `ids` (a detail, a media file's row, the rows a page refers to). */
export async function visibleByIds(
  db: Db,
  def: RecordDef,
  ids: readonly number[],
  now: number,
): Promise<Row[]> {
  const distinct = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0);
  if (!distinct.length) return [];
  const rows = await visible(def, (db as unknown as Any).selectFrom(def.table), now)
    .where('id', 'in', distinct)
    .selectAll()
    .execute();
  return rows.map((r) => toRow(def, r as Record<string, unknown>));
}

/** Rows of a record with no publish state (the museum map's halls) by id; never deleted ones. */
export async function rowsByIds(db: Db, def: RecordDef, ids: readonly number[]): Promise<Row[]> {
  const distinct = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0);
  if (!distinct.length) return [];
  const rows = await (db as unknown as Any)
    .selectFrom(def.table)
    .where('del_flag', '=', 0)
    .where('id', 'in', distinct)
    .selectAll()
    .execute();
  return rows.map((r) => toRow(def, r as Record<string, unknown>));
}

/** The attachments with these ids (the file fields' uploads and rich text images). */
export function attachmentsByIds(db: Db, ids: readonly number[]) {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return Promise.resolve([]);
  return db
    .selectFrom('attachment')
    .select(['id', 'table_name', 'record_id', 'name', 'size', 'md5', 'inline', 'mime', 'created_at'])
    .where('id', 'in', distinct)
    .execute();
}
