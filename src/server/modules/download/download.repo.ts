import type { Db } from '../../db/index';

/**
 * Counts one download of a document by a person on a museum day, in one transaction: the day's
 * row is inserted unless it exists (the primary key), and only a new row raises the count.
 * Answers whether it counted.
 */
export async function countDownload(db: Db, docId: number, userId: number, day: string, now: number) {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto('download_log')
      .values({ doc_id: docId, user_id: userId, day, time: now })
      .onConflict((oc) => oc.columns(['doc_id', 'user_id', 'day']).doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .updateTable('download_doc')
      .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
      .where('id', '=', docId)
      .execute();
    return true;
  });
}
