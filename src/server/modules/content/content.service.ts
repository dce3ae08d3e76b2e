import {
  PUBLISHED,
  LINK_HOST_DICT,
  parseContentRef,
  urlProblem,
} from '../../../shared/records/content/common';
import { isShowing } from '../../../shared/records/content/carousel';
import { bsDigitalassetsInfo } from '../../../shared/records/collection/collection';
import { RELATION_SUBS, SP_SUBS, WENWU_SUB } from '../../../shared/records/content/exhibition';
import {
  AudioVideo,
  CONTENT_RECORDS,
  bsCarousel,
  bsCulturalcreative,
  bsExhibition,
  bsGuideChapter,
  bsGuideShowroom,
  bsGuideUnit,
  bsRelation,
} from '../../../shared/records/content/index';
import type { FieldProblem, RecordDef, Row } from '../../../shared/records/define';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import type { RecordService } from '../../records/records.service';
import type { SessionUser } from '../auth/auth.service';
import { linkHrefsIn } from '../attach/rich-html';

/**
 * Website and mini-program content (issue 23; README "Website and mini-program content"): the
 * rules of the content records that need the database, registered on the records engine.
 *
 * - **Links.** Every link a row holds (its rich text's `<a href>`, a digital exhibition's and an
 *   outside video's `url`, a carousel's web link, a shop link) is https on the administrator's
 *   allow-list (the `content_link_host` dictionary); a path on our own site and mailto: are
 *   fine in rich text. A carousel's 内容详情 link names an existing, published content row.
 *   (Rich text is sanitized before this: scripts, event handlers and javascript: are gone.)
 * - **The guide's tree.** A showroom with chapters, a chapter with units, cannot be deleted; the
 *   refusal says how many.
 * - **Relations.** A relation's two rows exist; an exhibition, video or good a relation holds
 *   cannot be deleted while it does.
 * - **展示中.** The carousel's list filter for what visitors see now (published, in its window).
 * - **spList / spSave** (spec §7): an exhibition's videos and goods, read and replaced at once.
 */

// The collection's 藏品 are an exhibition's exhibits (wenwuList/wenwuSave), so a relation may
// point at them too.
const byName = new Map([...CONTENT_RECORDS, bsDigitalassetsInfo].map((d) => [d.name, d]));

/** Fields holding one outside link each, per record, and when they do (a carousel's web link). */
const URL_FIELDS: Record<
  string,
  readonly { field: string; when?: (row: Record<string, unknown>) => boolean }[]
> = {
  bsDigitalExhibition: [{ field: 'url' }],
  enDigitalExhibition: [{ field: 'url' }],
  AudioVideo: [{ field: 'url' }],
  bsCarousel: [{ field: 'linkValue', when: (r) => Number(r.linkType) === 2 }],
  bsCulturalcreative: [{ field: 'buyLink', when: (r) => Number(r.buyType) === 2 }],
  enCulturalcreative: [{ field: 'buyLink' }],
  // The mini-program's 数字文物 (content/applet.ts): its 3D or panorama address.
  bsDigitalRelic: [{ field: 'modelUrl' }],
};

/** A link in rich text that stays on our site or writes a mail: not an outside host. */
const OWN_LINK = /^(\/(?!\/)|mailto:|#)/i;

export function createContentService(deps: { db: Db; records: RecordService; now?: () => number }) {
  const { db, records } = deps;
  const now = deps.now ?? Date.now;

  /** The enabled hosts of the allow-list. */
  async function allowedHosts(q: Db): Promise<string[]> {
    return (await repo.dictItems(q, [LINK_HOST_DICT], true)).map((i) => i.value);
  }

  async function linkProblems(
    q: Db,
    def: RecordDef,
    row: Record<string, unknown>,
  ): Promise<FieldProblem | null> {
    let hosts: string[] | undefined;
    const allowed = async () => (hosts ??= await allowedHosts(q));
    for (const [key, fd] of Object.entries(def.fields)) {
      if (fd.kind !== 'rich' || typeof row[key] !== 'string') continue;
      for (const href of linkHrefsIn(row[key])) {
        if (OWN_LINK.test(href)) continue;
        const p = urlProblem(`${fd.label}中的链接`, href, await allowed());
        if (p) return { field: key, message: p };
      }
    }
    for (const { field, when } of URL_FIELDS[def.name] ?? []) {
      const v = row[field];
      if (typeof v !== 'string' || !v.trim() || (when && !when(row))) continue;
      const p = urlProblem(def.fields[field]!.label, v, await allowed());
      if (p) return { field, message: p };
    }
    if (def === bsCarousel && Number(row.linkType) === 3) {
      const ref = parseContentRef('链接地址', String(row.linkValue ?? ''));
      if (typeof ref === 'string') return { field: 'linkValue', message: ref };
      const target = byName.get(ref.record)!;
      const found = await repo.find(q, target, ref.id);
      if (!found)
        return {
          field: 'linkValue',
          message: `链接地址指向的${target.title}（编号 ${ref.id}）不存在或已删除`,
        };
      if (found.status !== PUBLISHED)
        return {
          field: 'linkValue',
          message: `链接地址指向的${target.title}“${target.describe(found)}”尚未发布，请先发布它再链接`,
        };
    }
    return null;
  }

  for (const def of CONTENT_RECORDS)
    if (def !== bsRelation) records.registerWriteCheck(def.name, (q, row) => linkProblems(q, def, row));

  // A relation's rows exist (the main one an exhibition, the other a video or a good).
  records.registerWriteCheck(bsRelation.name, async (q, row) => {
    const main = byName.get(String(row.mainTable));
    if (!main || !(await repo.find(q, main, Number(row.mainId))))
      return { field: 'mainId', message: '主内容不存在或已删除，请刷新后重试' };
    const sub = byName.get(String(row.subTable));
    if (!sub || !(RELATION_SUBS as readonly string[]).includes(sub.name))
      return { field: 'subTable', message: `关联内容类型只能是 ${RELATION_SUBS.join('、')}` };
    if (!(await repo.find(q, sub, Number(row.subId))))
      return { field: 'subId', message: `所选${sub.title}不存在或已删除，请重新选择` };
    return null;
  });

  // The guide's tree: a parent with rows under it stays, and the words say how many.
  const children = [
    [bsGuideShowroom, bsGuideChapter, 'showroomId', '展厅', bsGuideChapter.title],
    [bsGuideChapter, bsGuideUnit, 'chapterId', '章节', bsGuideUnit.title],
  ] as const;
  for (const [parent, child, field, what, under] of children)
    records.registerDeleteGuard(parent.name, async (trx, row) => {
      const n = await repo.count(trx, child, [{ field, op: 'eq', value: row.id }]);
      return n
        ? `${what}“${parent.describe(row)}”下还有 ${n} 个${under}，请先删除或移到其他${what}后再删除`
        : null;
    });

  // What a relation holds stays while it does.
  const relationGuard = (side: 'main' | 'sub', def: RecordDef) => async (trx: Db, row: Row) => {
    const n = await repo.count(trx, bsRelation, [
      { field: `${side}Table`, op: 'eq', value: def.name },
      { field: `${side}Id`, op: 'eq', value: row.id },
    ]);
    if (!n) return null;
    return side === 'main'
      ? `${def.title}“${def.describe(row)}”还关联着 ${n} 条视频、文创或展品，请先在“关联内容”和“展品”中移除它们`
      : `${def.title}“${def.describe(row)}”已被 ${n} 个展览关联，请先在这些展览的“关联内容”中移除它`;
  };
  records.registerDeleteGuard(bsExhibition.name, relationGuard('main', bsExhibition));
  records.registerDeleteGuard(AudioVideo.name, relationGuard('sub', AudioVideo));
  records.registerDeleteGuard(bsCulturalcreative.name, relationGuard('sub', bsCulturalcreative));

  // 展示中: the carousel rows visitors see now (showing=1), or the others (showing=0). A museum
  // has dozens of carousel rows, so they are read and judged by `isShowing` here rather than
  // in SQL (a window with either end open is not one condition of the engine's).
  records.registerListFilter(bsCarousel.name, async (query) => {
    if (query.showing === undefined) return [];
    const t = now();
    const rows = await repo.findAll(db, bsCarousel, [], 100_000);
    const ids = rows.filter((r) => isShowing(r, t) === query.showing).map((r) => r.id);
    return [{ field: 'id', op: 'in', value: ids }];
  });

  /** An exhibition's relations of the kinds `subs`, in order, each with its row's words. */
  async function relationList(user: SessionUser, exhibitionId: number, subs: readonly string[]) {
    const { conds } = await records.readScope(bsExhibition, user);
    if (!(await repo.find(db, bsExhibition, exhibitionId, conds)))
      throw notFound('该展览不存在或已被删除，请刷新后重试');
    const rels = await repo.findAll(db, bsRelation, [
      { field: 'mainTable', op: 'eq', value: bsExhibition.name },
      { field: 'mainId', op: 'eq', value: exhibitionId },
      { field: 'subTable', op: 'in', value: [...subs] },
    ]);
    const list = [];
    for (const r of rels) {
      const sub = byName.get(String(r.subTable));
      const row = sub ? await repo.find(db, sub, Number(r.subId)) : undefined;
      list.push({
        id: r.id,
        subTable: String(r.subTable),
        subId: Number(r.subId),
        sort: Number(r.sort),
        note: String(r.note ?? ''),
        // A 藏品 has a name and a 总登记号, content rows a title and a publish state.
        title: row ? (sub === bsDigitalassetsInfo ? sub.describe(row) : String(row.title ?? '')) : '',
        status: row ? (sub === bsDigitalassetsInfo ? 1 : Number(row.status)) : null,
      });
    }
    return { list };
  }

  /**
   * Replaces an exhibition's relations of the kinds `subs` with `items`, in their order (sort 10,
   * 20, …): items kept keep their rows, new ones are added, the rest of those kinds removed, in
   * one transaction. Relations of the other kinds are left as they are (spSave never touches the
   * exhibits, wenwuSave never the videos and goods).
   */
  async function relationSave(
    user: SessionUser,
    exhibitionId: number,
    subs: readonly string[],
    items: readonly { subTable: string; subId: number; note?: string }[],
  ) {
    const ctx = await records.writeContext(bsRelation, user);
    if (!(await repo.find(db, bsExhibition, exhibitionId)))
      throw notFound('该展览不存在或已被删除，请刷新后重试');
    const seen = new Set<string>();
    for (const it of items) {
      const key = `${it.subTable}:${it.subId}`;
      if (seen.has(key)) throw invalid(`关联内容重复：${key}，每条内容只需添加一次`);
      seen.add(key);
    }
    await db.transaction().execute(async (trx) => {
      const before = await repo.findAll(trx, bsRelation, [
        { field: 'mainTable', op: 'eq', value: bsExhibition.name },
        { field: 'mainId', op: 'eq', value: exhibitionId },
        { field: 'subTable', op: 'in', value: [...subs] },
      ]);
      const keep = new Map(before.map((r) => [`${String(r.subTable)}:${String(r.subId)}`, r]));
      for (const r of before)
        if (!seen.has(`${String(r.subTable)}:${String(r.subId)}`))
          await repo.remove(trx, bsRelation, r.id, user.id, now());
      const pending = items.map((it, i) => {
        const old = keep.get(`${it.subTable}:${it.subId}`);
        const values = {
          mainTable: bsExhibition.name,
          mainId: exhibitionId,
          subTable: it.subTable,
          subId: it.subId,
          note: it.note ?? String(old?.note ?? ''),
          sort: (i + 1) * 10,
        };
        return { values, before: old };
      });
      const r = await records.saveMany(trx, bsRelation, ctx, pending);
      if ('problems' in r) {
        const i = r.problems.findIndex((p) => p.length);
        throw invalid(`第 ${i + 1} 条关联内容：${r.problems[i]![0]!.message}`);
      }
    });
    return { count: items.length };
  }

  return {
    /** An exhibition's related videos and goods, in order, each with its title and status. */
    spList: (user: SessionUser, exhibitionId: number) => relationList(user, exhibitionId, SP_SUBS),

    /** Replaces an exhibition's videos and goods with `items`, in their order. */
    spSave: (
      user: SessionUser,
      exhibitionId: number,
      items: readonly { subTable: string; subId: number; note?: string }[],
    ) => relationSave(user, exhibitionId, SP_SUBS, items),

    /** An exhibition's exhibits (藏品), in order, each as 名称（总登记号）. */
    wenwuList: (user: SessionUser, exhibitionId: number) => relationList(user, exhibitionId, [WENWU_SUB]),

    /** Replaces an exhibition's exhibits with `items` (藏品 ids), in their order. */
    wenwuSave: (
      user: SessionUser,
      exhibitionId: number,
      items: readonly { subId: number; note?: string }[],
    ) =>
      relationSave(
        user,
        exhibitionId,
        [WENWU_SUB],
        items.map((it) => ({ ...it, subTable: WENWU_SUB })),
      ),

    /**
     * 藏品 an exhibition editor may pick as exhibits, by 名称 or 总登记号 (at most 50). Editors
     * need not hold the collection's pages: they see only what an exhibit label shows (名称,
     * 总登记号, 类别, 年代), never 库房位置 or the images' originals.
     */
    async wenwuOptions(user: SessionUser, keyword: string) {
      await records.writeContext(bsRelation, user);
      const k = keyword.trim();
      const rows = await repo.findAll(
        db,
        bsDigitalassetsInfo,
        k ? [{ op: 'keyword', fields: ['name', 'registerNo'], value: k }] : [],
        50,
      );
      const list = rows.map((r) => ({
        id: r.id,
        name: String(r.name ?? ''),
        registerNo: String(r.registerNo ?? ''),
        era: String(r.era ?? ''),
      }));
      return { list };
    },
  };
}
export type ContentService = ReturnType<typeof createContentService>;
