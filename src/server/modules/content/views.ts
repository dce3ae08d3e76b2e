import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PUBLISHED } from '../../../shared/records/content/common';
import { CONTENT_RECORDS, bsRelation } from '../../../shared/records/content/index';
import { addDays, museumDate } from '../../../shared/rules/museum-time';
import { clientAddress } from '../../client-address';
import type { Db } from '../../db/index';
import * as repo from './views.repo';

/*
 * View and play counts of website and mini-program content (issue 23; README "View counts and
 * 统计"; migration 0043). The public read API counts a visit here; the 统计 pages
 * (content-stats.ts) read the day table.
 */

/** What is counted: a detail read (浏览量, `view_count`) or a media play (播放量, `play_count`). */
export type ViewKind = 'view' | 'play';
export const VIEW_KIND = { view: 1, play: 2 } as const;

/** Records whose rows are counted: every content record but the relation rows. */
const COUNTED = new Map(CONTENT_RECORDS.filter((d) => d !== bsRelation).map((d) => [d.name, d]));
/** Records with a 播放量: the audio and video rows. */
const PLAYED = new Set(['AudioVideo']);

/**
 * One visit to the museum's public face: who (their address and browser, hashed before anything
 * is stored) and when (the museum day it counts on). Build it from a request with `visitOf`.
 */
export interface MuseumVisit {
  /** The request's `req.ip` (behind a trusted proxy, the client it forwarded for). */
  ip: string;
  /** The User-Agent header; '' when none was sent. */
  userAgent: string;
  /** When the visit happened (epoch ms); now when left out (tests pass a time). */
  now?: number;
}

/** The visit a public request is: its address and browser, now. */
export function visitOf(req: FastifyRequest): MuseumVisit {
  return { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') };
}

/**
 * Crawlers announce themselves: their reads are not visitors' and would fill the top list with
 * whatever a search engine indexed. (A browser, headless or not, is counted.)
 */
const CRAWLER = /bot\b|bot\/|spider|crawl|slurp|bingpreview|facebookexternalhit/i;

/** The day's salts, once read, per database (a day's salt never changes; past days' are deleted). */
const saltsOf = new WeakMap<Db, Map<string, string>>();
/** The museum day whose older hashes were last pruned, per database. */
const prunedFor = new WeakMap<Db, string>();

async function saltOf(db: Db, day: string): Promise<string> {
  let salts = saltsOf.get(db);
  if (!salts) saltsOf.set(db, (salts = new Map()));
  const known = salts.get(day);
  if (known) return known;
  const salt = await repo.daySalt(db, day);
  if (salts.size > 8) salts.clear();
  salts.set(day, salt);
  return salt;
}

/**
 * Drops the hashes and salts of days before yesterday (yesterday's stay a little: a visit at
 * 23:59:59 may still be committing). Once a day per process; several processes doing it at
 * once delete the same rows.
 */
async function pruneOld(db: Db, day: string): Promise<void> {
  if (prunedFor.get(db) === day) return;
  prunedFor.set(db, day);
  const keep = addDays(day, -1);
  await repo.pruneBefore(db, keep);
  const salts = saltsOf.get(db);
  for (const d of salts?.keys() ?? []) if (d < keep) salts!.delete(d);
}

/** The visitor as stored: a hash of the day's salt, the address (IPv6 by its /64) and the browser. */
function visitorHash(salt: string, visit: MuseumVisit): string {
  return createHash('sha256')
    .update(`${salt}\n${clientAddress(visit.ip)}\n${visit.userAgent.slice(0, 512)}`)
    .digest('hex');
}

/**
 * Counts one visit to a published content row: its 浏览量 (`kind` 'view', a detail read) or,
 * for an audio or video row (`AudioVideo`), its 播放量 (`kind` 'play', a media play).
 * Answers whether it was counted.
 *
 * **How to call it** (the public read API, after it has answered the row):
 *
 * ```ts
 * import { countView, visitOf } from '../content/views';
 * await countView(db, visitOf(req), 'bsExhibition', id);          // a detail read
 * await countView(db, visitOf(req), 'AudioVideo', id, 'play');   // a media play
 * ```
 *
 * `table` is the record's name (bsExhibition, enNews, AudioVideo …), as in `/bs/<record>`. It
 * never throws for a visitor's reasons: an unknown record, a missing, deleted or unpublished row
 * or a crawler is simply not counted (false). A failure of the database does throw: the caller
 * decides whether a lost count may fail its answer (the public API should log and carry on).
 *
 * **At most one counted visit per visitor, row, kind and museum day.** The visitor is a SHA-256
 * of the day's random salt, the address (an IPv6 address by its /64, as every throttle counts
 * it) and the User-Agent: the address is never stored, and when the day's salt is deleted (with
 * the day's hashes, the day after next) no hash can be tied to anyone. The rule is the primary
 * key of `content_view_seen`, so a burst of the same request (a refresh storm, a script) counts
 * once, on SQLite and on PostgreSQL, across instances.
 *
 * In one transaction: the visitor is recorded (or found already counted: nothing more), the
 * row's `view_count` / `play_count` goes up by one while it is published (not: everything is
 * undone), and the day's counter goes up by one upsert (INSERT … ON CONFLICT DO UPDATE SET
 * n = n + 1). So the row's total and the sum of its days never disagree.
 */
export async function countView(
  db: Db,
  visit: MuseumVisit,
  table: string,
  id: number,
  kind: ViewKind = 'view',
): Promise<boolean> {
  const def = COUNTED.get(table);
  if (!def || !Number.isSafeInteger(id) || id <= 0) return false;
  if (kind === 'play' && !PLAYED.has(table)) return false;
  if (CRAWLER.test(visit.userAgent)) return false;
  const day = museumDate(visit.now ?? Date.now());
  const salt = await saltOf(db, day);
  await pruneOld(db, day);
  return repo.countOnce(db, {
    record: table,
    table: def.table,
    column: kind === 'play' ? 'play_count' : 'view_count',
    published: PUBLISHED,
    id,
    day,
    kind: VIEW_KIND[kind],
    visitor: visitorHash(salt, visit),
  });
}
