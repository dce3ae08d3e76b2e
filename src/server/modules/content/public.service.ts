import { MUSEUM_PREFIX } from '../../../shared/api/envelope';
import {
  CONTENT_PUBLIC_BASE,
  HOME_LIMITS,
  HOME_POSITION,
  PAGE_SIZE_DEFAULT,
  PHASES,
  PUBLIC_KINDS,
  type PhaseKey,
  type PublicFile,
  type PublicItem,
  type PublicKind,
  type PublicListInput,
  type PublicPageAnswer,
} from '../../../shared/api/content-public';
import { AUDIO_TYPES, VIDEO_TYPES, parseContentRef } from '../../../shared/records/content/common';
import { exhibitionPhase } from '../../../shared/records/content/exhibition';
import { AudioVideo, CONTENT_RECORDS, bsCarousel, bsExhibition } from '../../../shared/records/content/index';
import type { RecordDef, Row } from '../../../shared/records/define';
import { museumHall } from '../../../shared/records/site/museum-map';
import { museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { AppError, invalid, notFound } from '../../errors';
import { ErrorCode } from '../../../shared/api/envelope';
import { dictItems } from '../../records/records.repo';
import { attachmentsByIds, rowsByIds, visibleByIds, visiblePage, type PublicCond } from './public.repo';

/**
 * The public read API (README "Website and mini-program content" › "Public read API and
 * preview"): what a visitor may see of the content records, as a website or a mini-program
 * reads it. Every answer is read from the database at the moment it is asked (no cache in the
 * process), so a take-down on any instance is gone from the next answer of every instance.
 *
 * What a row shows: its public fields only. Never who made or changed it (createBy, updateBy),
 * its state or counters (status, viewCount, playCount), or a link to anything a visitor may not
 * see (a 内容详情 link to a row taken down since, a video or English row not published). Files
 * become `{id, url, name, size, type}` with a URL of the public media call, which serves a file
 * only while the row it is bound to is visible; rich text images are pointed there too.
 */

const MEDIA_URL = `${MUSEUM_PREFIX}${CONTENT_PUBLIC_BASE}/media?id=`;
const RICH_IMAGE_RE = /\/singleMuseum\/attach\/image\?attachmentId=([1-9]\d{0,9})/g;

const byName = new Map<string, RecordDef>(CONTENT_RECORDS.map((d) => [d.name, d]));
/** The records the API serves (bsRelation is not one: an exhibition's relations are its own call later). */
export const PUBLIC_RECORDS: ReadonlySet<string> = new Set(
  Object.values(PUBLIC_KINDS).flatMap(
    (k) => ['zh' in k ? k.zh : null, 'en' in k ? k.en : null].filter(Boolean) as string[],
  ),
);

/** Never shown to visitors. */
// relicId: a digital relic's row in the collection register, which is the museum's, not public.
const HIDDEN = new Set(['status', 'viewCount', 'playCount', 'relicId']);
/** Long text kept for the detail. */
const DETAIL_ONLY = new Set(['transcript']);

const MEDIA_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
};
const IMAGE_EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

type Attachment = Awaited<ReturnType<typeof attachmentsByIds>>[number];

const extOf = (name: string) =>
  name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';

/** What a public file is served as, or null when it may not be served (not an image, audio, video or PDF). */
export function publicTypeOf(a: Pick<Attachment, 'name' | 'inline' | 'mime'>): {
  type: string;
  kind: 'image' | 'audio' | 'video' | 'file';
} | null {
  if (a.inline && a.mime && IMAGE_EXT[a.mime]) return { type: a.mime, kind: 'image' };
  const ext = extOf(a.name);
  const type = MEDIA_TYPES[ext];
  if (!type) return null;
  if ((AUDIO_TYPES as readonly string[]).includes(ext)) return { type, kind: 'audio' };
  if ((VIDEO_TYPES as readonly string[]).includes(ext)) return { type, kind: 'video' };
  return { type, kind: 'file' };
}

export function createPublicContentService(deps: { db: Db; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  function defOf(kind: PublicKind, lang: 'zh' | 'en'): RecordDef {
    const k = PUBLIC_KINDS[kind] as { title: string; zh?: string; en?: string };
    const name = k[lang];
    if (!name)
      throw invalid(
        lang === 'en'
          ? `${k.title}暂无英文版，请去掉 lang=en 或改为 lang=zh`
          : `${k.title}只有英文版，请使用 lang=en`,
      );
    return byName.get(name)!;
  }

  /** The filters a kind takes; any other given is refused, so a typo never silently lists everything. */
  const FILTERS: Partial<Record<PublicKind, readonly (keyof PublicListInput)[]>> = {
    carousel: ['position'],
    exhibition: ['phase'],
    chapter: ['showroomId'],
    unit: ['chapterId', 'labelCode'],
    science: ['category'],
    news: ['category'],
    article: ['column'],
  };
  const FILTER_KEYS = [
    'position',
    'phase',
    'showroomId',
    'chapterId',
    'labelCode',
    'category',
    'column',
  ] as const;

  function condsOf(kind: PublicKind, q: PublicListInput, t: number): PublicCond[] {
    const allowed = FILTERS[kind] ?? [];
    for (const key of FILTER_KEYS)
      if (q[key] !== undefined && !allowed.includes(key))
        throw invalid(
          allowed.length
            ? `${PUBLIC_KINDS[kind].title}不能按 ${key} 筛选（可用：${allowed.join('、')}）`
            : `${PUBLIC_KINDS[kind].title}不能按 ${key} 筛选`,
        );
    const conds: PublicCond[] = [];
    if (kind === 'carousel')
      conds.push({ field: 'position', value: q.position ?? HOME_POSITION[q.lang ?? 'zh'] });
    if (q.phase) conds.push({ phase: q.phase, today: museumDate(t) });
    if (q.showroomId !== undefined) conds.push({ field: 'showroomId', value: q.showroomId });
    if (q.chapterId !== undefined) conds.push({ field: 'chapterId', value: q.chapterId });
    if (q.labelCode !== undefined) conds.push({ field: 'labelCode', value: q.labelCode });
    if (q.category !== undefined) conds.push({ field: 'category', value: q.category });
    if (q.column !== undefined) conds.push({ field: 'column', value: q.column });
    return conds;
  }

  /** Rows as visitors see them: public fields, files with public URLs, labels and linked rows. */
  async function present(
    def: RecordDef,
    rows: readonly Row[],
    t: number,
    detail: boolean,
  ): Promise<PublicItem[]> {
    if (!rows.length) return [];
    const fields = Object.entries(def.fields);
    const fileKeys = fields.filter(([, fd]) => fd.kind === 'file' || fd.kind === 'image').map(([k]) => k);
    const richKeys = fields.filter(([, fd]) => fd.kind === 'rich').map(([k]) => k);

    // Files: only those bound to this very row (a stale id never serves another row's file).
    const fileIds = rows.flatMap((r) => fileKeys.flatMap((k) => (r[k] as number[] | undefined) ?? []));
    const atts = new Map((await attachmentsByIds(db, fileIds)).map((a) => [a.id, a]));
    const filesOf = (row: Row, key: string): PublicFile[] =>
      ((row[key] as number[] | undefined) ?? []).flatMap((id) => {
        const a = atts.get(id);
        const pt = a ? publicTypeOf(a) : null;
        if (!a || !pt || a.table_name !== def.name || a.record_id !== row.id) return [];
        return [{ id: a.id, url: `${MEDIA_URL}${a.id}`, name: a.name, size: Number(a.size), type: pt.type }];
      });

    // Halls of the museum map (public: a hall's name, floor, number and place on the plan).
    const hallIds = rows.flatMap((r) => [
      ...(typeof r.hallId === 'number' ? [r.hallId] : []),
      ...(Array.isArray(r.showroomIds) ? (r.showroomIds as number[]) : []),
    ]);
    const halls = new Map(
      (await rowsByIds(db, museumHall, hallIds)).map((h) => [
        h.id,
        {
          id: h.id,
          name: String(h.name ?? ''),
          floor: String(h.floor ?? ''),
          hallNo: String(h.hallNo ?? ''),
          openState: Number(h.openState ?? 1),
          mapX: h.mapX ?? null,
          mapY: h.mapY ?? null,
        },
      ]),
    );

    // Videos a showroom, unit or classroom plays: only while they are published themselves.
    const videoIds = rows.flatMap((r) =>
      ['videoId', 'mediaId'].flatMap((k) => (typeof r[k] === 'number' ? [r[k] as number] : [])),
    );
    const videoRows = await visibleByIds(db, AudioVideo, videoIds, t);
    const videos = new Map(
      (await present(AudioVideo, videoRows, t, false)).map((v) => [
        v.id,
        {
          id: v.id,
          title: v.title,
          mediaType: v.mediaType,
          mediaFile: v.mediaFile,
          url: v.url,
          durationSeconds: v.durationSeconds,
          cover: v.cover,
        },
      ]),
    );

    // Rows another refers to (an English row's Chinese one, a digital exhibition's exhibition):
    // their ids only while visible.
    const refVisible = new Map<string, Set<number>>();
    for (const [key, fd] of fields) {
      if (fd.kind !== 'ref' || !fd.ref || ['hallId', 'videoId', 'mediaId'].includes(key)) continue;
      const target = byName.get(fd.ref.record);
      if (!target) continue;
      const ids = rows.flatMap((r) => (typeof r[key] === 'number' ? [r[key] as number] : []));
      refVisible.set(key, new Set((await visibleByIds(db, target, ids, t)).map((r) => r.id)));
    }

    // A carousel's 内容详情 link: kept only while its target is visible.
    const linkOk = new Set<number>();
    if (def === bsCarousel)
      for (const r of rows) {
        if (Number(r.linkType) !== 3) continue;
        const ref = parseContentRef('链接地址', String(r.linkValue ?? ''));
        const target = typeof ref === 'string' ? undefined : byName.get(ref.record);
        if (typeof ref !== 'string' && target && (await visibleByIds(db, target, [ref.id], t)).length)
          linkOk.add(r.id);
      }

    const dictKeys = fields.flatMap(([, fd]) => (fd.dict ? [fd.dict] : []));
    const items = await dictItems(db, dictKeys, false);
    const today = museumDate(t);

    return rows.map((row) => {
      const out: PublicItem = { id: row.id };
      for (const [key, fd] of fields) {
        if (HIDDEN.has(key)) continue;
        if (!detail && (fd.kind === 'rich' || DETAIL_ONLY.has(key))) continue;
        const v = row[key];
        if (fileKeys.includes(key)) out[key] = filesOf(row, key);
        else if (richKeys.includes(key))
          out[key] = String(v ?? '').replace(RICH_IMAGE_RE, (_m, id: string) => `${MEDIA_URL}${id}`);
        else if (key === 'hallId') out.hall = typeof v === 'number' ? (halls.get(v) ?? null) : null;
        else if (key === 'showroomIds')
          out.halls = ((v as number[] | undefined) ?? []).flatMap((id) =>
            halls.has(id) ? [halls.get(id)!] : [],
          );
        else if (key === 'videoId' || key === 'mediaId')
          out[key === 'videoId' ? 'video' : 'media'] = typeof v === 'number' ? (videos.get(v) ?? null) : null;
        else if (refVisible.has(key))
          out[key] = typeof v === 'number' && refVisible.get(key)!.has(v) ? v : null;
        else out[key] = v;
        if (fd.kind === 'status' && fd.options)
          out[`${key}Label`] = fd.options.find((o) => o.value === v)?.label ?? '';
        if (fd.dict)
          out[`${key}Label`] = items.find((i) => i.dict_key === fd.dict && i.value === v)?.label ?? '';
      }
      if (def === bsCarousel && Number(row.linkType) === 3 && !linkOk.has(row.id)) {
        out.linkType = 0;
        out.linkTypeLabel = '无';
        out.linkValue = '';
      }
      if (def === bsExhibition || def.name === 'enExhibition') {
        const label = exhibitionPhase(row, today);
        out.phase = (Object.keys(PHASES) as PhaseKey[]).find((k) => PHASES[k] === label)!;
        out.phaseLabel = label;
      }
      return out;
    });
  }

  return {
    async list(kind: PublicKind, q: PublicListInput): Promise<PublicPageAnswer> {
      const t = now();
      const def = defOf(kind, q.lang ?? 'zh');
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? PAGE_SIZE_DEFAULT;
      const { rows, total } = await visiblePage(db, def, condsOf(kind, q, t), t, { page, pageSize });
      return { list: await present(def, rows, t, false), total, page, pageSize };
    },

    async detail(kind: PublicKind, id: number, lang: 'zh' | 'en' = 'zh'): Promise<PublicItem> {
      const t = now();
      const def = defOf(kind, lang);
      const [row] = await visibleByIds(db, def, [id], t);
      // A draft, a row taken down, one outside its window and one that never was: the same words.
      if (!row) throw notFound(`该${PUBLIC_KINDS[kind].title}不存在或未发布`);
      return (await present(def, [row], t, true))[0]!;
    },

    /** The record a kind reads in a language (what a detail read counts a view on). */
    recordOf(kind: PublicKind, lang: 'zh' | 'en' = 'zh'): string {
      return defOf(kind, lang).name;
    },

    /** The mini-program home: its carousel, the exhibitions on now, the guide's showrooms. */
    async home(lang: 'zh' | 'en' = 'zh') {
      const t = now();
      const carousel = await visiblePage(
        db,
        bsCarousel,
        [{ field: 'position', value: HOME_POSITION[lang] }],
        t,
        {
          page: 1,
          pageSize: HOME_LIMITS.carousel,
        },
      );
      const exhDef = defOf('exhibition', lang);
      const exh = await visiblePage(db, exhDef, [{ phase: 'now', today: museumDate(t) }], t, {
        page: 1,
        pageSize: HOME_LIMITS.exhibitions,
      });
      const roomDef = defOf('showroom', lang);
      const rooms = await visiblePage(db, roomDef, [], t, { page: 1, pageSize: HOME_LIMITS.showrooms });
      return {
        lang,
        carousel: await present(bsCarousel, carousel.rows, t, false),
        exhibitions: await present(exhDef, exh.rows, t, false),
        showrooms: await present(roomDef, rooms.rows, t, false),
      };
    },

    /**
     * A file for visitors: only one bound to a row the API shows now (published, inside its
     * window), and only an image, audio, video or PDF. Anything else answers HTTP 404 with the
     * same words, so a visitor cannot tell a draft's file from one that does not exist.
     */
    async media(id: number) {
      const [a] = await attachmentsByIds(db, [id]);
      const gone = () => new AppError(ErrorCode.notFound, '文件不存在或未公开', 404);
      if (!a || a.record_id === null || !PUBLIC_RECORDS.has(a.table_name)) throw gone();
      const def = byName.get(a.table_name)!;
      const pt = publicTypeOf(a);
      if (!pt || !(await visibleByIds(db, def, [a.record_id], now())).length) throw gone();
      // The name the bytes are sent under carries the type's extension (an image's by its bytes).
      const ext = pt.kind === 'image' ? IMAGE_EXT[pt.type]! : extOf(a.name);
      const name = extOf(a.name) === ext ? a.name : `${a.name}.${ext}`;
      return {
        plan: { kind: 'file' as const, name, md5: a.md5, size: Number(a.size), mtime: Number(a.created_at) },
        kind: pt.kind,
        // The row the file belongs to: a play of an audio or video row counts on it.
        owner: { table: a.table_name, id: a.record_id },
      };
    },
  };
}
export type PublicContentService = ReturnType<typeof createPublicContentService>;
