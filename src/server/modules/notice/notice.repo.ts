import type { Db } from '../../db/index';

/** SQL of notices: one row per person per notice. */

export async function insertNotices(
  db: Db,
  rows: {
    user_id: number;
    notice_content: string;
    source: string;
    created_by: number | null;
    link: string | null;
  }[],
  now: number,
) {
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto('notice')
      .values(rows.slice(i, i + 100).map((r) => ({ ...r, status: 1, created_at: now })))
      .execute();
  }
}

/** A person's notices, newest first (the notices issue builds the notice centre on it). */
export function noticesOf(db: Db, userId: number) {
  return db
    .selectFrom('notice')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
