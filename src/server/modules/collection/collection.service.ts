import type { Kysely } from 'kysely';
import type { ApplyDetail, ApplyExtractBody, ApplyListQuery, ApplyRow } from '../../../shared/api/collection';
import { EXTRACT_DAYS } from '../../../shared/api/collection';
import {
  bsDigitalassetsInfo,
  COLLECTION_READ,
  COLLECTION_WRITE,
} from '../../../shared/records/collection/collection';
import { formFields, type Row } from '../../../shared/records/define';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import type { RecordService } from '../../records/records.service';
import * as attachRepo from '../attach/attach.repo';
import type { Access } from '../auth/access';
import { effectiveRoles, type SessionUser } from '../auth/auth.service';
import type { AttachService } from '../attach/attach.service';
import { imagePath } from '../../../shared/api/attach';
import type { createApprovalService } from '../workflow/approval.service';
import { WORKFLOW_MESSAGE_TYPE } from '../workflow/approval.repo';
import { changedFields, describeImages, KIND_WORDS } from './collection.rules';
import { DATA_TEMPLATE, ensureCollectionTemplates, EXTRACT_TEMPLATE } from './collection.templates';

/** The attachment table of images a data approval carries until it is applied. */
export const APPLY_TABLE = 'bsDigitalassetsApply';

const def = bsDigitalassetsInfo;
const GONE = '申请不存在或您无权查看';
const RECORD_GONE = '藏品不存在或您无权查看';

/** Request states mirrored from the approval (shared/records/collection APPLY_STATES). */
const STATE = { running: 1, passed: 2, refused: 3, cancelled: 4 } as const;

type ApplyTable = {
  id: number;
  kind: number;
  record_id: number | null;
  register_no: string;
  name: string;
  payload: string;
  reason: string;
  applicant_id: number;
  actvity_id: number | null;
  status: number;
  create_time: number;
  decided_at: number | null;
  applied_at: number | null;
  expires_at: number | null;
  download_count: number;
};

const q = (db: Db) => db as unknown as Kysely<any>;
const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => n > 0) : []);

/**
 * The collection's data approvals (README "Collection (issue 24)"): 新增/修改 a 藏品 and 提取
 * its originals, each an approval request of the engine whose end this module hears
 * (`approvals.onEnded`) inside the deciding transaction: a passed 新增/修改 is applied to the row
 * then and there, once (a conditional UPDATE on `applied_at IS NULL`, under the request's lock);
 * a refused or cancelled one changes nothing; a passed 提取 opens the originals for EXTRACT_DAYS.
 */
export function createCollectionService(deps: {
  db: Db;
  access: Access;
  records: RecordService;
  attach: AttachService;
  approvals: ReturnType<typeof createApprovalService>;
  now?: () => number;
}) {
  const { db, access, records, attach, approvals } = deps;
  const now = deps.now ?? Date.now;
  let templates: { data: number; extract: number } | undefined;
  const templateIds = async () => (templates ??= await ensureCollectionTemplates(db));

  /** A person as the engine's calls name them; `roles` only when asked (never inside a transaction). */
  const asUser = async (trx: Db, id: number, withRoles = false): Promise<SessionUser> => {
    const u = await q(trx)
      .selectFrom('user')
      .select(['id', 'account', 'user_name'])
      .where('id', '=', id)
      .executeTakeFirst();
    return {
      id,
      account: String(u?.account ?? ''),
      userName: String(u?.user_name ?? ''),
      roles: withRoles ? await effectiveRoles(db, id) : [],
      tokenHash: '',
    };
  };

  const rowOf = (r: ApplyTable, names: Map<number, string>): ApplyRow => ({
    id: Number(r.id),
    kind: Number(r.kind),
    status: Number(r.status),
    recordId: r.record_id === null ? null : Number(r.record_id),
    registerNo: r.register_no,
    name: r.name,
    applyReason: r.reason,
    applicantId: Number(r.applicant_id),
    applicantName: names.get(Number(r.applicant_id)) ?? '',
    actvityId: r.actvity_id === null ? null : Number(r.actvity_id),
    createTime: Number(r.create_time),
    decidedAt: r.decided_at === null ? null : Number(r.decided_at),
    appliedAt: r.applied_at === null ? null : Number(r.applied_at),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    downloadCount: Number(r.download_count),
  });

  async function namesOf(ids: number[]) {
    if (!ids.length) return new Map<number, string>();
    const rows = await q(db)
      .selectFrom('user')
      .select(['id', 'user_name'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((u) => [Number(u.id), String(u.user_name)]));
  }

  async function findRecord(trx: Db, id: number): Promise<Row | undefined> {
    return (await q(trx)
      .selectFrom(def.table)
      .selectAll()
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst()) as Row | undefined;
  }

  /** The stored row as the API names it (camelCase, lists as arrays). */
  async function recordValues(id: number, user: SessionUser) {
    try {
      return (await records.detail(def, user, id)).record;
    } catch {
      return null;
    }
  }

  /** Who may read an apply: its applicant, the keepers, and whoever may see its approval. */
  async function mayRead(user: SessionUser, r: ApplyTable): Promise<boolean> {
    if (Number(r.applicant_id) === user.id) return true;
    if (await access.can(user, COLLECTION_WRITE)) return true;
    return r.actvity_id !== null && (await approvals.canSee(user, Number(r.actvity_id)));
  }

  async function applyById(trx: Db, id: number) {
    return (await q(trx)
      .selectFrom('bs_digitalassets_apply')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()) as ApplyTable | undefined;
  }

  /**
   * Applies a passed 新增/修改 in the deciding transaction: the apply's new images are copied to
   * the record's own attachments (unbound, then bound by the engine's save), the row is saved
   * by the engine's rules as the applicant (a register number taken meanwhile refuses the
   * decision with the engine's words), and the apply remembers the row.
   */
  async function applyChange(trx: Db, r: ApplyTable): Promise<string[]> {
    const payload = JSON.parse(r.payload) as Record<string, unknown>;
    const applicant = await asUser(trx, Number(r.applicant_id));
    const wanted = idsOf(payload.images);
    const rows = wanted.length ? await attachRepo.findAttachments(trx, wanted) : [];
    const byId = new Map(rows.map((a) => [Number(a.id), a]));
    const images: number[] = [];
    for (const id of wanted) {
      const a = byId.get(id);
      if (!a) continue;
      if (a.table_name === APPLY_TABLE) {
        images.push(
          await attachRepo.insertAttachment(
            trx,
            {
              table_name: def.name,
              name: a.name,
              size: Number(a.size),
              md5: a.md5,
              inline: a.inline,
              mime: a.mime,
              uploaded_by: applicant.id,
            },
            now(),
          ),
        );
      } else if (
        a.table_name === def.name &&
        r.record_id !== null &&
        Number(a.record_id) === Number(r.record_id)
      )
        images.push(id);
    }
    const body = { ...payload, images };
    const kind = Number(r.kind);
    const saved = await records.writeInTx(
      trx,
      def,
      applicant,
      body,
      kind === 2 ? { id: Number(r.record_id) } : {},
    );
    await q(trx)
      .updateTable('bs_digitalassets_apply')
      .set({ record_id: saved.id })
      .where('id', '=', r.id)
      .execute();
    return saved.dropped;
  }

  /** The approval engine's end of a request: ours when an apply points at it. */
  async function onEnded(trx: Db, requestId: number, status: number): Promise<(() => void) | void> {
    const r = (await q(trx)
      .selectFrom('bs_digitalassets_apply')
      .selectAll()
      .where('actvity_id', '=', requestId)
      .executeTakeFirst()) as ApplyTable | undefined;
    if (!r || Number(r.status) !== STATE.running) return;
    const t = now();
    if (status !== 6) {
      await q(trx)
        .updateTable('bs_digitalassets_apply')
        .set({ status: status === 4 ? STATE.cancelled : STATE.refused, decided_at: t })
        .where('id', '=', r.id)
        .where('status', '=', STATE.running)
        .execute();
      return;
    }
    // Exactly once: only the update that finds it still running and unapplied goes on.
    const kind = Number(r.kind);
    const moved = await q(trx)
      .updateTable('bs_digitalassets_apply')
      .set({
        status: STATE.passed,
        decided_at: t,
        applied_at: t,
        ...(kind === 3 ? { expires_at: t + EXTRACT_DAYS * 86_400_000 } : {}),
      })
      .where('id', '=', r.id)
      .where('status', '=', STATE.running)
      .where('applied_at', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1 || kind === 3) return;
    const dropped = await applyChange(trx, r);
    if (dropped.length) return () => void attach.dropBytes(dropped).catch(() => undefined);
  }
  approvals.onEnded(onEnded);

  /** An apply's new images: the caller's own unbound image uploads for APPLY_TABLE. */
  async function checkNewImages(trx: Db, user: SessionUser, ids: number[]) {
    if (!ids.length) return;
    const problem = await attach.unboundProblem(trx, { user, table: APPLY_TABLE, ids, image: true });
    if (problem === 'gone') throw invalid('藏品图片中有图片不存在或已失效，请重新上传');
    if (problem === 'notImage') throw invalid('藏品图片只能是 PNG、JPG、GIF、WebP 格式的图片');
  }

  /** Starts the approval and stores the apply, in one transaction. */
  async function startApply(
    user: SessionUser,
    input: {
      kind: number;
      templateId: number;
      form: Record<string, unknown>;
      recordId: number | null;
      registerNo: string;
      name: string;
      payload: Record<string, unknown>;
      reason: string;
      newImages: number[];
      check: (trx: Db) => Promise<void>;
    },
  ) {
    let applyId = 0;
    const { actvityId } = await approvals.start(
      user,
      { templateId: input.templateId, form: input.form, priority: 1 },
      async (trx, actvityId) => {
        await input.check(trx);
        const r = await q(trx)
          .insertInto('bs_digitalassets_apply')
          .values({
            kind: input.kind,
            record_id: input.recordId,
            register_no: input.registerNo,
            name: input.name,
            payload: JSON.stringify(input.payload),
            reason: input.reason,
            applicant_id: user.id,
            actvity_id: actvityId,
            status: STATE.running,
            create_time: now(),
            download_count: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        applyId = Number(r.id);
        if (input.newImages.length)
          await attach.bindInTx(trx, { user, table: APPLY_TABLE, recordId: applyId, ids: input.newImages });
        // A flow that ended at once (no approver left to ask) is applied now, as a decision would.
        const req = await q(trx)
          .selectFrom('approval_request')
          .select('status')
          .where('id', '=', actvityId)
          .executeTakeFirst();
        if (req && Number(req.status) !== 1) await onEnded(trx, actvityId, Number(req.status));
      },
    );
    return { id: applyId, actvityId };
  }

  const service = {
    APPLY_TABLE,

    /** 新增 (no id) or 修改 (id) a 藏品: checked now as the save would be, applied when passed. */
    async applyChange(
      user: SessionUser,
      body: Record<string, unknown> & { id?: number; applyReason: string },
    ) {
      await access.require(user, COLLECTION_WRITE);
      const { data } = await templateIds();
      const id = body.id;
      const values: Record<string, unknown> = {};
      for (const [k] of formFields(def)) values[k] = body[k];
      const reason = body.applyReason;
      let current: Row | undefined;
      if (id !== undefined) {
        current = await findRecord(db, id);
        if (!current) throw notFound(RECORD_GONE);
      }
      const currentValues = id !== undefined ? await recordValues(id, user) : null;
      const kept = new Set(idsOf(currentValues?.images));
      const images = idsOf(values.images);
      const newImages = images.filter((x) => !kept.has(x));
      const words = currentValues ? await records.wordsFor(def, [currentValues, values]) : undefined;
      const changes = currentValues ? changedFields(def, currentValues, values, words) : [];
      if (id !== undefined && !changes.length) throw invalid('没有修改任何内容，无需提交审批');
      const registerNo = String(values.registerNo ?? '').trim();
      const name = String(values.name ?? '').trim();
      const lines =
        id !== undefined
          ? changes.map((c) => `${c.label}：${c.before || '（空）'} → ${c.after || '（空）'}`)
          : [`新增藏品 ${registerNo} ${name}`, describeImages(images.length)];
      return startApply(user, {
        kind: id === undefined ? 1 : 2,
        templateId: data,
        form: {
          applyKind: KIND_WORDS[id === undefined ? 1 : 2],
          registerNo,
          name,
          changes: lines.join('\n').slice(0, 2000),
          applyReason: reason,
        },
        recordId: id ?? null,
        registerNo,
        name,
        payload: values,
        reason,
        newImages,
        check: async (trx) => {
          // One open change per object, and per new register number: a second would race the first.
          const pending = q(trx)
            .selectFrom('bs_digitalassets_apply')
            .select('id')
            .where('status', '=', STATE.running)
            .where('kind', 'in', [1, 2]);
          if (id !== undefined) {
            if (await pending.where('record_id', '=', id).executeTakeFirst())
              throw invalid('该藏品已有审批中的修改申请，请等待审批结束后再提交');
          } else if (
            await pending.where('kind', '=', 1).where('register_no', '=', registerNo).executeTakeFirst()
          )
            throw invalid(`总登记号“${registerNo}”已有审批中的新增申请`);
          await checkNewImages(trx, user, newImages);
          // The engine's own checks (dictionaries, the unique register number…), images aside:
          // the new ones are the apply's until it passes.
          await records.writeInTx(
            trx,
            def,
            user,
            { ...values, images: [...kept].filter((x) => images.includes(x)) },
            { id, dryRun: true },
          );
        },
      });
    },

    /** 提取高清图: anyone who reads the collection asks for a record's originals. */
    async applyExtract(user: SessionUser, body: ApplyExtractBody) {
      await access.require(user, COLLECTION_READ);
      const { extract } = await templateIds();
      const row = await findRecord(db, body.id);
      if (!row) throw notFound(RECORD_GONE);
      const all = idsOf(
        String(row.images ?? '')
          .split(',')
          .filter(Boolean),
      );
      if (!all.length) throw invalid('该藏品没有图片，无法提取');
      const wanted = body.images?.length ? body.images : all;
      const strange = wanted.filter((x) => !all.includes(x));
      if (strange.length) throw invalid('所选图片不属于该藏品，请重新选择');
      const registerNo = String(row.register_no);
      const name = String(row.name);
      return startApply(user, {
        kind: 3,
        templateId: extract,
        form: { registerNo, name, images: `${wanted.length} 张（原图）`, applyReason: body.applyReason },
        recordId: body.id,
        registerNo,
        name,
        payload: { images: wanted },
        reason: body.applyReason,
        newImages: [],
        check: async () => undefined,
      });
    },

    /** role 1: my applies; role 2: those whose approval awaits or awaited me. */
    async list(user: SessionUser, query: ApplyListQuery) {
      let sel = q(db).selectFrom('bs_digitalassets_apply as a');
      if (query.applyRole === 2)
        sel = sel.where((eb) =>
          eb.exists(
            eb
              .selectFrom('approval_message as m')
              .select('m.id')
              .whereRef('m.actvity_id', '=', 'a.actvity_id')
              .where('m.user_id', '=', user.id)
              .where('m.type', '=', WORKFLOW_MESSAGE_TYPE)
              .where('m.status', '=', 1),
          ),
        );
      else sel = sel.where('a.applicant_id', '=', user.id);
      if (query.applyKind) sel = sel.where('a.kind', '=', query.applyKind);
      if (query.applyStatus) sel = sel.where('a.status', '=', query.applyStatus);
      const total = await sel.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = (await sel
        .selectAll('a')
        .orderBy('a.id', 'desc')
        .limit(query.pageCount)
        .offset((query.currentPage - 1) * query.pageCount)
        .execute()) as ApplyTable[];
      const names = await namesOf(rows.map((r) => Number(r.applicant_id)));
      const awaiting = new Set<number>();
      const acts = rows.flatMap((r) => (r.actvity_id === null ? [] : [Number(r.actvity_id)]));
      if (acts.length)
        for (const m of await q(db)
          .selectFrom('approval_message')
          .select('actvity_id')
          .where('user_id', '=', user.id)
          .where('type', '=', WORKFLOW_MESSAGE_TYPE)
          .where('status', '=', 1)
          .where('open', '=', 1)
          .where('actvity_id', 'in', acts)
          .execute())
          awaiting.add(Number(m.actvity_id));
      return {
        list: rows.map((r) => ({
          ...rowOf(r, names),
          awaitingMe: r.actvity_id !== null && awaiting.has(Number(r.actvity_id)),
        })),
        total: Number(total?.n ?? 0),
      };
    },

    async detail(user: SessionUser, id: number): Promise<ApplyDetail> {
      const r = await applyById(db, id);
      if (!r || !(await mayRead(user, r))) throw notFound(GONE);
      const payload = JSON.parse(r.payload) as Record<string, unknown>;
      const keeper = await access.can(user, COLLECTION_WRITE);
      const current =
        r.record_id !== null
          ? await recordValues(
              Number(r.record_id),
              keeper ? user : await asUser(db, Number(r.applicant_id), true),
            )
          : null;
      const kind = Number(r.kind);
      const changes =
        kind === 2 && current && Number(r.status) === STATE.running
          ? changedFields(def, current, payload, await records.wordsFor(def, [current, payload]))
          : [];
      const imgIds = idsOf(payload.images);
      const atts = imgIds.length ? await attachRepo.findAttachments(db, imgIds) : [];
      const usable =
        kind === 3 &&
        Number(r.status) === STATE.passed &&
        Number(r.applicant_id) === user.id &&
        Number(r.expires_at) > now();
      const images = imgIds.flatMap((x) => {
        const a = atts.find((y) => Number(y.id) === x);
        if (!a) return [];
        return [
          {
            attId: x,
            attName: a.name,
            // The apply's own images (readable by who reads the apply) or the record's reduced preview.
            attPath: a.table_name === APPLY_TABLE ? imagePath(x) : previewPath(x),
            ...(usable
              ? { downloadPath: `/singleMuseum/bsDigitalassetsApply/download?id=${r.id}&attachmentId=${x}` }
              : {}),
          },
        ];
      });
      const names = await namesOf([Number(r.applicant_id)]);
      return { ...rowOf(r, names), payload, current, changes, images };
    },

    /**
     * An approved extract's original, to its applicant only, while it lasts: the attachment must
     * be one the extract named and still the record's. Counted.
     */
    async download(user: SessionUser, id: number, attachmentId: number) {
      const r = await applyById(db, id);
      if (!r || Number(r.applicant_id) !== user.id || Number(r.kind) !== 3) throw notFound(GONE);
      if (Number(r.status) !== STATE.passed) throw invalid('该提取申请尚未通过审批，不能下载原图');
      if (Number(r.expires_at) <= now())
        throw invalid(`下载期限已过（审批通过后 ${EXTRACT_DAYS} 天内有效），如仍需要请重新申请`);
      const payload = JSON.parse(r.payload) as { images?: number[] };
      if (!idsOf(payload.images).includes(attachmentId)) throw notFound('该图片不在本次提取范围内');
      const [a] = await attachRepo.findAttachments(db, [attachmentId]);
      if (!a || a.table_name !== def.name || Number(a.record_id) !== Number(r.record_id))
        throw notFound('该图片已从藏品中移除，无法下载');
      await q(db)
        .updateTable('bs_digitalassets_apply')
        .set((eb: any) => ({ download_count: eb('download_count', '+', 1) }))
        .where('id', '=', id)
        .execute();
      return a;
    },

    /** Whether a reader may have a reduced preview of an attachment: it is a readable 藏品's image. */
    async previewable(user: SessionUser, attachmentId: number) {
      const [a] = await attachRepo.findAttachments(db, [attachmentId]);
      if (!a || a.table_name !== def.name || a.record_id === null || !a.inline || !a.mime) return null;
      return (await records.canRead(def, user, Number(a.record_id))) ? a : null;
    },

    /** countApproval: data approvals (新增/修改) and extracts awaiting my decision. */
    async counts(userId: number) {
      const rows = await q(db)
        .selectFrom('approval_message as m')
        .innerJoin('bs_digitalassets_apply as a', 'a.actvity_id', 'm.actvity_id')
        .select(['a.kind', (eb) => eb.fn.countAll<number>().as('n')])
        .where('m.user_id', '=', userId)
        .where('m.type', '=', WORKFLOW_MESSAGE_TYPE)
        .where('m.status', '=', 1)
        .where('m.open', '=', 1)
        .where('a.status', '=', STATE.running)
        .groupBy('a.kind')
        .execute();
      let uploadCount = 0;
      let applyCount = 0;
      for (const r of rows) {
        if (Number(r.kind) === 3) applyCount += Number(r.n);
        else uploadCount += Number(r.n);
      }
      return { uploadCount, applyCount };
    },

    /** Whether someone may read an apply's images (the attachment owner of APPLY_TABLE). */
    async canReadApply(user: SessionUser, id: number) {
      const r = await applyById(db, id);
      return Boolean(r) && (await mayRead(user, r!));
    },

    templateIds,
    DATA_TEMPLATE,
    EXTRACT_TEMPLATE,
  };
  return service;
}
export type CollectionService = ReturnType<typeof createCollectionService>;

/** A reader's reduced copy of a 藏品 image (the original is the keepers', or an approved extract's). */
export const previewPath = (attachmentId: number) =>
  `/singleMuseum/bsDigitalassetsInfo/preview?attachmentId=${attachmentId}`;
