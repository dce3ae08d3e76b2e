import { sql } from 'kysely';
import type { PhotoHit } from '../../../shared/api/photo';
import { COLLECTION_READ } from '../../../shared/records/collection/collection';
import type { Db } from '../../db/index';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';
import type { PhotoCollection } from './photo.service';

/*
 * The collection's side of image search: a 藏品 record's images are attachments of the record
 * (table bsDigitalassetsInfo, its `images` field, ',3,5,' text; the keeper uploads them or
 * picks them from the drive, which copies the bytes). A hit is one image of one record the
 * caller may read (藏品资料 or 藏品资料管理); a deleted record's images are never answered.
 */

export const COLLECTION_TABLE = 'bsDigitalassetsInfo';
const MAX_TEXT_HITS = 500;

interface Row {
  att_id: number;
  att_name: string;
  md5: string;
  record_id: number;
  record_name: string;
  register_no: string;
  taken_at: number | string | null;
  tags: string | null;
  width: number | null;
  height: number | null;
}

function toHit(r: Row): Omit<PhotoHit, 'similarity' | 'distance'> & { md5: string } {
  const dot = r.att_name.lastIndexOf('.');
  return {
    md5: r.md5,
    source: 'collection',
    userFileId: null,
    attachmentId: Number(r.att_id),
    fileName: dot > 0 ? r.att_name.slice(0, dot) : r.att_name,
    extendName: dot > 0 ? r.att_name.slice(dot + 1) : '',
    filePath: '',
    takenAt: r.taken_at === null ? null : Number(r.taken_at),
    tags: r.tags ? r.tags.split('\n').filter(Boolean) : [],
    imageWidth: r.width,
    imageHeight: r.height,
    record: { id: Number(r.record_id), name: r.record_name, code: r.register_no },
  };
}

const SELECT = sql`select a.id as att_id, a.name as att_name, a.md5, r.id as record_id, r.name as record_name,
  r.register_no, h.taken_at, h.tags, h.width, h.height
  from attachment a
  join bs_digitalassets_info r on r.id = a.record_id
  left join image_hash h on h.md5 = a.md5
  where a.table_name = ${COLLECTION_TABLE} and r.del_flag = 0
    and r.images like '%,' || cast(a.id as varchar(12)) || ',%'`;

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createPhotoCollection(deps: { db: Db; access: Access }): PhotoCollection {
  const { db } = deps;
  async function mayRead(user: SessionUser) {
    for (const key of COLLECTION_READ) if (await deps.access.can(user, key)) return true;
    return false;
  }
  return {
    async byContent(user, md5s) {
      if (!md5s.length || !(await mayRead(user))) return [];
      const rows = await sql<Row>`${SELECT} and a.md5 in (${sql.join([...md5s])})`.execute(db);
      return rows.rows.map(toHit);
    },
    async byText(user, q) {
      if (!(await mayRead(user))) return [];
      const parts = [SELECT];
      const kw = q.keyword?.trim().toLowerCase();
      if (kw) {
        const p = `%${likeEscape(kw)}%`;
        parts.push(
          sql`and (lower(r.name) like ${p} escape '\\' or lower(r.register_no) like ${p} escape '\\'
            or lower(r.era) like ${p} escape '\\' or lower(r.material) like ${p} escape '\\'
            or lower(r.description) like ${p} escape '\\' or lower(a.name) like ${p} escape '\\'
            or lower(h.tags) like ${p} escape '\\')`,
        );
      }
      if (q.from !== undefined) parts.push(sql`and h.taken_at >= ${q.from}`);
      if (q.to !== undefined) parts.push(sql`and h.taken_at < ${q.to}`);
      parts.push(sql`order by r.register_no, a.id limit ${MAX_TEXT_HITS}`);
      const rows = await sql<Row>`${sql.join(parts, sql` `)}`.execute(db);
      return rows.rows.map(toHit);
    },
  };
}

/** Contents of the records' images with no hash row of `version` (the backfill's next batch). */
export async function unhashedCollection(db: Db, version: number, limit: number): Promise<string[]> {
  const rows = await sql<{ md5: string }>`select distinct a.md5 from attachment a
    left join image_hash h on h.md5 = a.md5 and h.version = ${version}
    where a.table_name = ${COLLECTION_TABLE} and a.record_id is not null and h.md5 is null
    limit ${limit}`.execute(db);
  return rows.rows.map((r) => r.md5);
}
