import { imagePath, downloadPath } from '../../../shared/api/attach';
import type { InstDetail, InstListQuery, InstStartBody } from '../../../shared/api/workflow';
import { formatMuseumTime } from '../../../shared/rules/museum-time';
import { WorkflowDefinition, type FormField } from '../../../shared/workflow/definition';
import {
  act,
  canStart,
  ENTRY,
  plan,
  release,
  REQUEST,
  start,
  type Action,
  type Effect,
  type Entry,
  type NodeRun,
  type RunState,
} from '../../../shared/workflow/engine';
import { checkForm, displayValue } from '../../../shared/workflow/form';
import type { Db } from '../../db/index';
import { conflict, forbidden, invalid, notFound } from '../../errors';
import { toAttachment, type AttachService } from '../attach/attach.service';
import type { SessionUser } from '../auth/auth.service';
import { AWAITING, COPIED, type ApprovalWriter, type NoticeService } from '../notice/notice.service';
import * as repo from './approval.repo';
import { WORKFLOW_MESSAGE_TYPE } from './approval.repo';
import { loadOrgSnapshot, type OrgSnapshot } from './org-snapshot';
import * as wfRepo from './workflow.repo';
import { pickerUsers } from './workflow.service';

/** The words of approval requests that are not the engine's (its refusals are WF_MSG). */
export const INST_MSG = {
  /** Also for requests the caller may not see: whether it exists is not told. */
  gone: '审批不存在或您无权查看',
  templateClosed: '该审批模板未发布或已停用，请刷新后重试',
  notStarter: '您不在该审批的发起范围内',
  targetGone: '转交的同事不存在或已停用，请重新选择',
  commentGone: '评论不存在或已删除',
  noTakeover: (title: string) => `“${title}”正等待该员工审批，且没有可接手的系统管理员，暂不能停用`,
  notAuthor: '只能删除自己的评论',
  attachGone: (label: string) => `“${label}”中有附件不存在、不是您上传的或已被其他申请使用，请重新上传`,
  attachTwice: (label: string) => `“${label}”中的附件已用在其他字段，请重新上传`,
  notImage: (label: string) => `“${label}”只能上传图片（PNG、JPG、GIF、WebP），请重新选择`,
  commented: (name: string, title: string, text: string) => `${name}评论了“${title}”：${text}`,
} as const;

/**
 * What the starter is told when their request moves without them (issue 17 §2): passed,
 * refused (with the reason) or handed to someone else. Named by the template, as staff think
 * of what they filed (「年假」), not by the generated title 王芳的请假.
 */
export const OUTCOME_MSG = {
  passed: (tpl: string) => `您的「${tpl}」申请已通过`,
  refused: (tpl: string, reason: string) =>
    reason ? `您的「${tpl}」申请已被拒绝：${reason}` : `您的「${tpl}」申请已被拒绝`,
  transferred: (tpl: string, from: string, to: string) => `您的「${tpl}」申请已由${from}转交给${to}处理`,
} as const;

/** 我发起的 with the request's panel open, in the list of the template's category. */
export const mystartLink = (r: { id: number; category: string }) =>
  r.category === 'gongwen'
    ? `/gongwen/process-mystart?actvityId=${r.id}`
    : `/approve/process-mystart?state=mystart&actvityId=${r.id}`;

/**
 * The starter's notice for one transition, or null. Only a change of outcome or of who decides
 * counts: agreeing on a node that moves to the next approver is not news to the starter (the
 * timeline shows it), and cancelling is the starter's own act.
 */
export function outcomeNotice(
  before: RunState,
  after: RunState,
  action: Action | undefined,
  tpl: string,
  name: (userId: number) => string,
): string | null {
  if (before.status === REQUEST.running && after.status === REQUEST.passed) return OUTCOME_MSG.passed(tpl);
  if (before.status === REQUEST.running && after.status === REQUEST.refused) {
    const entry = after.nodes.at(-1)?.entries.find((e) => e.status === ENTRY.refused);
    return OUTCOME_MSG.refused(tpl, entry?.comment ?? '');
  }
  if (action?.action === 'transfer')
    return OUTCOME_MSG.transferred(tpl, name(action.userId), name(action.to));
  return null;
}

/** The attachment table of approval requests (attach/upload with tableName 'approval'). */
export const APPROVAL_TABLE = 'approval';

export const PRIORITY_TEXT: Record<number, string> = { 1: '普通', 2: '紧急', 3: '非常紧急' };

export const STATUS_TEXT: Record<number, string> = { 1: '审批中', 3: '已拒绝', 4: '已撤销', 6: '审批通过' };
const ENTRY_TEXT: Record<number, string> = {
  [ENTRY.approved]: '已同意',
  [ENTRY.refused]: '已拒绝',
  [ENTRY.transferred]: '已转交',
};

const parseDef = (json: string) => WorkflowDefinition.parse(JSON.parse(json));
const readState = (json: string) => JSON.parse(json) as RunState;
const dateOf = (at: string | undefined) => (at ? formatMuseumTime(Date.parse(at)) : '');

/**
 * Approval requests (issue 8): start, decide, cancel, transfer, comment, read, the detail and
 * the lists. Every state change runs in one transaction that re-reads the request, applies the
 * engine's `act`, stores the new state and writes the messages its effects name. The request's
 * row is locked first (repo.lockRequest), so two any-one approvers acting at once settle the
 * node once and the second hears 已被他人处理, on PostgreSQL as on SQLite. The live bus is told
 * after the commit.
 */
export function createApprovalService(deps: {
  db: Db;
  notices: NoticeService;
  attach: AttachService;
  isAdmin: (user: SessionUser) => Promise<boolean>;
  now?: () => number;
}) {
  const { db, notices } = deps;
  const now = deps.now ?? Date.now;
  /**
   * Other modules' reactions to a request's end (the collection's data approvals apply a change
   * when it passes): run inside the transaction that ends it, exactly once (the request's row is
   * locked and a request ends once). A refusal undoes the decision. Each may answer what to run
   * after the commit.
   */
  const endHooks: ((trx: Db, requestId: number, status: number) => Promise<(() => void) | void>)[] = [];

  /** Messages for the engine's effects, inside the transaction. */
  async function carryOut(trx: Db, w: ApprovalWriter, r: MessageHead, effects: Effect[]) {
    const head = {
      actvityId: r.id,
      title: r.title,
      type: WORKFLOW_MESSAGE_TYPE,
      startTime: r.created_at,
      from: r.starter_id,
    };
    for (const e of effects) {
      if (e.type === 'await') await w.open(trx, { ...head, receivers: e.userIds, status: AWAITING });
      else if (e.type === 'copy') await w.open(trx, { ...head, receivers: e.userIds, status: COPIED });
      else if (e.type === 'close') await w.close(trx, r.id, AWAITING, e.userIds, WORKFLOW_MESSAGE_TYPE);
      // An ended request awaits nobody any more (only our messages: ids are per module).
      else await w.close(trx, r.id, AWAITING, null, WORKFLOW_MESSAGE_TYPE);
    }
  }

  /** The starter, anyone who awaits or awaited a decision, anyone copied, and administrators. */
  async function mayRead(trx: Db, user: SessionUser, admin: boolean, r: repo.RequestRecord) {
    if (admin || r.starter_id === user.id) return true;
    return (await repo.messageStatuses(trx, r.id, user.id)).length > 0;
  }

  /** Re-reads the request inside the transaction; refuses one the caller may not see. */
  async function visible(trx: Db, user: SessionUser, admin: boolean, id: number) {
    const r = await repo.requestById(trx, id);
    if (!r || !(await mayRead(trx, user, admin, r))) throw notFound(INST_MSG.gone);
    return r;
  }

  /** One engine action as one transaction; the engine's refusal is the answer's message. */
  async function transition(
    user: SessionUser,
    id: number,
    make: (org: () => Promise<OrgSnapshot>) => Promise<Action>,
  ) {
    const admin = await deps.isAdmin(user);
    const w = notices.approvalWriter();
    const after: (() => void)[] = [];
    const status = await db.transaction().execute(async (trx) => {
      await repo.lockRequest(trx, id);
      const r = await visible(trx, user, admin, id);
      let snap: OrgSnapshot | undefined;
      const org = async () => (snap ??= await loadOrgSnapshot(trx));
      const action = await make(org);
      // The org now, not at start: a later node skips people disabled since (run.ts Reachable).
      const res = act(readState(r.state), action, await org());
      if (!res.ok) throw conflict(res.message);
      await store(trx, w, r, res, { by: user.id, action, org: await org(), after });
      return res.state.status;
    });
    w.publish();
    for (const fn of after) fn();
    return { status };
  }

  /**
   * Stores the request's new state and writes its effects' messages, inside the transaction,
   * and tells the starter of an outcome they did not cause themselves (`by` null: the system,
   * e.g. a disabled approver released). The notice commits with the state, so an
   * Idempotency-Key replay (answered from the stored answer, running nothing) or a retry
   * without a key (refused by the engine) never tells twice.
   */
  async function store(
    trx: Db,
    w: ApprovalWriter,
    r: repo.RequestRecord,
    next: { state: RunState; effects: Effect[] },
    cause: { by: number | null; action?: Action; org: OrgSnapshot; after?: (() => void)[] },
  ) {
    const t = now();
    const ended = next.state.status !== REQUEST.running;
    await repo.saveState(
      trx,
      r.id,
      {
        state: JSON.stringify(next.state),
        status: next.state.status,
        finished_at: ended ? (r.finished_at ?? t) : null,
      },
      t,
    );
    await carryOut(trx, w, r, next.effects);
    if (ended && r.status === REQUEST.running)
      for (const hook of endHooks) {
        const after = await hook(trx, r.id, next.state.status);
        if (after) cause.after?.push(after);
      }
    if (cause.by === r.starter_id) return;
    const name = (u: number) => cause.org.person(u)?.name ?? '';
    const content = outcomeNotice(readState(r.state), next.state, cause.action, r.template_name, name);
    if (content)
      await w.notice(trx, { receivers: [r.starter_id], content, from: cause.by, link: mystartLink(r) });
  }

  /**
   * The attachment and image fields of a new request: each id must be an 'approval' attachment
   * the starter uploaded and no request uses yet (nor another field of this one); an image
   * field takes only bytes sniffed as an image. Answers every id, to bind to the request.
   */
  async function checkAttachments(
    trx: Db,
    user: SessionUser,
    fields: readonly FormField[],
    form: Record<string, unknown>,
  ): Promise<number[]> {
    const all: number[] = [];
    for (const f of fields) {
      if (f.type !== 'attachment' && f.type !== 'image') continue;
      const ids = (form[f.id] as number[] | undefined) ?? [];
      if (!ids.length) continue;
      if (ids.some((x) => all.includes(x))) throw invalid(INST_MSG.attachTwice(f.label));
      const problem = await deps.attach.unboundProblem(trx, {
        user,
        table: APPROVAL_TABLE,
        ids,
        image: f.type === 'image',
      });
      if (problem === 'gone') throw invalid(INST_MSG.attachGone(f.label));
      if (problem === 'notImage') throw invalid(INST_MSG.notImage(f.label));
      all.push(...ids);
    }
    return all;
  }

  /**
   * A comment tells the starter and everyone who has been an approver of the request so far
   * (every entry of the nodes reached, transfers included), never its author, by a notice
   * linking to the request in the list where each finds it.
   */
  async function tellOfComment(author: SessionUser, r: repo.RequestRecord, text: string) {
    const org = await loadOrgSnapshot(db);
    const state = readState(r.state);
    const current = r.status === REQUEST.running ? state.nodes[state.nodes.length - 1] : undefined;
    const pendingNow = new Set(
      current?.entries.filter((e) => e.status === undefined && !current.settled).map((e) => e.userId),
    );
    const approvers = [...new Set(state.nodes.flatMap((n) => n.entries.map((e) => e.userId)))];
    const able = (ids: number[]) => ids.filter((u) => u !== author.id && org.isActive(u));
    const content = INST_MSG.commented(org.person(author.id)?.name ?? author.userName, r.title, text);
    const groups: [number[], string][] = [
      [able([r.starter_id]), mystartLink(r)],
      [
        able(approvers.filter((u) => u !== r.starter_id && pendingNow.has(u))),
        `/approve/process-pending?state=pending&actvityId=${r.id}`,
      ],
      [
        able(approvers.filter((u) => u !== r.starter_id && !pendingNow.has(u))),
        `/approve/process-done?state=done&actvityId=${r.id}`,
      ],
    ];
    for (const [receivers, link] of groups) {
      if (!receivers.length) continue;
      // The comment is saved by now; a receiver disabled in the last instant must not turn
      // that success into an error (a retry would then post the comment twice).
      await notices
        .notify({ receivers, content, source: 'approval', from: author.id, link })
        .catch(() => undefined);
    }
  }

  const service = {
    /** Whether the person may see the request (its attachments follow this). */
    async canSee(user: SessionUser, id: number): Promise<boolean> {
      const r = await repo.requestById(db, id);
      return Boolean(r) && (await mayRead(db, user, await deps.isAdmin(user), r!));
    },

    /**
     * A person was disabled: the org service calls this inside its transaction (app.ts wires
     * it), after the change, so the snapshot no longer counts them. Every running request
     * whose current node awaits them is re-settled by the engine (`release`) and its messages
     * follow (theirs closes; whoever now decides gets one). Answers what to run after the
     * commit (the live bus). Idempotent: a second call finds nothing awaiting them.
     */
    async releaseDisabled(trx: Db, userId: number): Promise<() => void> {
      const w = notices.approvalWriter();
      const ids = await repo.awaitingOf(trx, userId);
      const org = ids.length ? await loadOrgSnapshot(trx) : undefined;
      for (const id of ids) {
        await repo.lockRequest(trx, id);
        const r = (await repo.requestById(trx, id))!;
        let next: ReturnType<typeof release>;
        try {
          next = release(readState(r.state), org!);
        } catch {
          // Only when nobody is left and no enabled administrator could take over.
          throw conflict(INST_MSG.noTakeover(r.title));
        }
        if (next) await store(trx, w, r, next, { by: null, org: org! });
      }
      return () => w.publish();
    },

    /** A module's reaction to a request's end, in its transaction (see `endHooks`). */
    onEnded(hook: (trx: Db, requestId: number, status: number) => Promise<(() => void) | void>) {
      endHooks.push(hook);
    },

    /**
     * start, with `also` run inside its transaction once the request exists (a module's own row
     * that points at it): both are stored, or neither.
     */
    async start(
      user: SessionUser,
      body: InstStartBody,
      also?: (trx: Db, actvityId: number) => Promise<void>,
    ) {
      const w = notices.approvalWriter();
      const id = await db.transaction().execute(async (trx) => {
        const t = await wfRepo.templateById(trx, body.templateId);
        if (!t || !t.enabled || t.current_version === null || t.published === null) {
          throw notFound(INST_MSG.templateClosed);
        }
        const def = parseDef(t.published);
        const org = await loadOrgSnapshot(trx);
        if (!canStart(def, user.id, org)) throw forbidden(INST_MSG.notStarter);
        const checked = checkForm(def.fields, body.form);
        if (!checked.ok) throw invalid(checked.message);
        const attIds = await checkAttachments(trx, user, def.fields, checked.form);
        const { state, effects } = start(plan(def, checked.form, user.id, org), user.id, org);
        const at = now();
        const title = `${org.person(user.id)?.name ?? user.userName}的${t.name}`;
        const running = state.status === REQUEST.running;
        const id = await repo.insertRequest(
          trx,
          {
            template_id: t.id,
            version: t.current_version,
            starter_id: user.id,
            title,
            form: JSON.stringify(checked.form),
            state: JSON.stringify(state),
            status: state.status,
            priority: body.priority,
            finished_at: running ? null : at,
          },
          at,
        );
        // The request uses its attachments from now on: readable by whoever may see it.
        await deps.attach.bindInTx(trx, { user, table: APPROVAL_TABLE, recordId: id, ids: attIds });
        await carryOut(trx, w, { id, title, created_at: at, starter_id: user.id }, effects);
        if (also) await also(trx, id);
        return id;
      });
      w.publish();
      return { actvityId: id };
    },

    decide(user: SessionUser, id: number, action: 2 | 3, reason: string | undefined) {
      const at = new Date(now()).toISOString();
      return transition(user, id, async () => ({
        userId: user.id,
        action,
        at,
        ...(reason ? { comment: reason } : {}),
      }));
    },
    cancel(user: SessionUser, id: number, reason: string) {
      const at = new Date(now()).toISOString();
      return transition(user, id, async () => ({ userId: user.id, action: 4, comment: reason, at }));
    },
    deliver(user: SessionUser, id: number, target: number) {
      const at = new Date(now()).toISOString();
      return transition(user, id, async (org) => {
        if (!(await org()).isActive(target)) throw notFound(INST_MSG.targetGone);
        return { userId: user.id, action: 'transfer', to: target, at };
      });
    },

    async comment(user: SessionUser, id: number, content: string) {
      const admin = await deps.isAdmin(user);
      const { r, commentId } = await db.transaction().execute(async (trx) => {
        const r = await visible(trx, user, admin, id);
        return { r, commentId: await repo.insertComment(trx, r.id, user.id, content, now()) };
      });
      await tellOfComment(user, r, content);
      return { commentId };
    },
    async deleteComment(user: SessionUser, id: number, commentId: number) {
      const admin = await deps.isAdmin(user);
      await db.transaction().execute(async (trx) => {
        const r = await visible(trx, user, admin, id);
        const c = await repo.commentById(trx, r.id, commentId);
        if (!c) throw notFound(INST_MSG.commentGone);
        if (c.user_id !== user.id) throw forbidden(INST_MSG.notAuthor);
        await repo.deleteComment(trx, c.id);
      });
    },

    /**
     * A copy opened: the caller's copy message leaves their list (the notice centre's rule, for
     * any request id) and, when they were copied on this request, it counts as read.
     */
    async read(user: SessionUser, id: number) {
      const w = notices.approvalWriter();
      await db.transaction().execute(async (trx) => {
        await w.close(trx, id, COPIED, [user.id]);
        // Other modules' copies (resource reviews) close too; only ours are recorded as read.
        if ((await repo.messageStatuses(trx, id, user.id)).includes(COPIED)) {
          await repo.markRead(trx, id, user.id, now());
        }
      });
      w.publish();
    },

    async detail(user: SessionUser, id: number): Promise<InstDetail> {
      const admin = await deps.isAdmin(user);
      return db.transaction().execute(async (trx) => {
        const r = await visible(trx, user, admin, id);
        const version = await wfRepo.versionOf(trx, r.template_id, r.version);
        const def = parseDef(version!.definition);
        const state = readState(r.state);
        const form = JSON.parse(r.form) as Record<string, unknown>;
        const org = await loadOrgSnapshot(trx);
        const [commentRows, copied, read, attRows] = await Promise.all([
          repo.comments(trx, r.id),
          repo.copiedUsers(trx, r.id),
          repo.readers(trx, r.id),
          deps.attach.rowsOf(trx, attachmentIds(def.fields, form)),
        ]);
        const people = (ids: number[]) => pickerUsers(org, ids);
        const deptName = new Map(org.departments.map((d) => [d.id, d.name]));
        const copySteps = state.steps.flatMap((s) => (s.kind === 'copy' ? [s] : []));
        // Only the request's own attachments (bound at start) are shown.
        const att = new Map(
          attRows
            .filter((a) => a.table_name === APPROVAL_TABLE && a.record_id === r.id)
            .map((a) => [a.id, a]),
        );
        return {
          title: r.title,
          userImage: org.person(r.starter_id)?.image ?? '',
          status: r.status,
          isCancel: r.starter_id === user.id && r.status === REQUEST.running ? 0 : 1,
          priority: r.priority,
          fields: def.fields.map((f: FormField) => {
            const row = {
              name: f.id,
              label: f.label,
              title: f.label,
              value: displayValue(f, form[f.id], {
                person: (p) => org.person(p)?.name ?? '',
                dept: (d) => deptName.get(d) ?? '',
              }),
            };
            if (f.type !== 'attachment' && f.type !== 'image') return row;
            const mine = ((form[f.id] as number[] | undefined) ?? []).flatMap((x) => {
              const a = att.get(x);
              return a ? [a] : [];
            });
            // Images (bytes sniffed as one) show inline; everything else is a file to download.
            const isImg = (a: (typeof mine)[number]) => Boolean(a.inline && a.mime);
            return {
              ...row,
              img: mine.filter(isImg).map((a) => ({ attId: a.id, attPath: imagePath(a.id) })),
              other: mine
                .filter((a) => !isImg(a))
                .map((a) => ({
                  attId: a.id,
                  attName: a.name,
                  attFileTypeStr: toAttachment(a).attFileTypeStr,
                  attPath: downloadPath(a.id),
                  attSize: Number(a.size),
                })),
            };
          }),
          detail: detailGroups(r, state, org),
          approval: timeline(state, org),
          comment: commentRows.map((c) => ({
            commentId: c.id,
            name: org.person(c.user_id)?.name ?? '',
            userImage: org.person(c.user_id)?.image ?? '',
            date: formatMuseumTime(c.created_at),
            comment: c.content,
            canDelete: c.user_id === user.id,
            actvityId: r.id,
          })),
          notice: copySteps[0]?.notice ?? 1,
          readList: people(copied.filter((u) => read.has(u))),
          unreadList: people(copied.filter((u) => !read.has(u))),
          copytoList: people([...new Set(copySteps.flatMap((s) => s.recipients))]),
        };
      });
    },

    async list(user: SessionUser, q: InstListQuery) {
      const { currentPage, pageCount, ...filters } = q;
      const { rows, total } = await repo.listPage(db, user.id, {
        ...filters,
        offset: (currentPage - 1) * pageCount,
        limit: pageCount,
      });
      const org = await loadOrgSnapshot(db);
      return {
        total,
        list: rows.map((x) => ({
          actvityId: x.id,
          title: x.title,
          templateName: x.template_name,
          starterName: x.starter_name,
          userImage: org.person(x.starter_id)?.image ?? '',
          status: x.status,
          priority: x.priority,
          createTime: formatMuseumTime(x.created_at),
        })),
      };
    },

    templates(category: 'normal' | 'gongwen' | 'all') {
      return repo.templatesOf(db, category);
    },
  };
  return service;
}
export type ApprovalService = ReturnType<typeof createApprovalService>;

/** The timeline's notes on nodes whose people differ from the design. */
export const NODE_NOTE = {
  noApprover: '未找到审批人，由系统管理员审批',
  allDisabled: '原审批人已停用或不存在，已转由系统管理员审批',
  someDisabled: (n: number) => `已跳过 ${n} 位已停用或不存在的审批人`,
} as const;

type MessageHead = { id: number; title: string; created_at: number; starter_id: number };

/**
 * The detail's timeline: every planned step in order. Reached approver nodes show each entry's
 * decision; pending entries read 审批中 on the current node, 无需处理 on a node someone else
 * settled, 已撤销 once cancelled; nodes not reached show their approvers as 待审批 while the
 * request runs and are left out once it has ended. Copy-to shows 已抄送 once sent.
 */
function timeline(state: RunState, org: OrgSnapshot): InstDetail['approval'] {
  const running = state.status === REQUEST.running;
  const passed = state.status === REQUEST.passed;
  const byStep = new Map<number, NodeRun>(state.nodes.map((n) => [n.step, n]));
  const user = (e: Entry, pendingText: string) => ({
    name: org.person(e.userId)?.name ?? '',
    userImage: org.person(e.userId)?.image ?? '',
    status: e.status ?? null,
    statusText: e.status ? ENTRY_TEXT[e.status]! : pendingText,
    date: dateOf(e.at),
    comment: e.comment ?? '',
    isTransfer: e.status === ENTRY.transferred,
  });
  return state.steps.flatMap((s, i) => {
    if (s.kind === 'copy') {
      const sent = s.notice === 0 || passed;
      const text = sent ? '已抄送' : '待抄送';
      if (!sent && !running) return [];
      return [
        {
          type: 2,
          nodeName: s.nodeName,
          statusText: text,
          examineMode: 0,
          nodeUserList: s.recipients.map((u) => user({ userId: u }, text)),
        },
      ];
    }
    const node = byStep.get(i);
    if (!node) {
      if (!running) return [];
      return [
        {
          type: 1,
          nodeName: s.nodeName,
          statusText: '待审批',
          examineMode: s.examineMode,
          nodeUserList: s.approvers.map((u) => user({ userId: u }, '待审批')),
          ...(s.escalated && { note: NODE_NOTE.noApprover }),
        },
      ];
    }
    const skipped = node.skipped?.length ?? 0;
    const note = node.escalated
      ? skipped
        ? NODE_NOTE.allDisabled
        : NODE_NOTE.noApprover
      : skipped
        ? NODE_NOTE.someDisabled(skipped)
        : undefined;
    const refused = node.entries.some((e) => e.status === ENTRY.refused);
    const nodeText = node.settled
      ? refused
        ? '已拒绝'
        : '已同意'
      : state.status === REQUEST.cancelled
        ? '已撤销'
        : STATUS_TEXT[REQUEST.running]!;
    const pendingText = node.settled ? '无需处理' : nodeText;
    return [
      {
        type: 1,
        nodeName: s.nodeName,
        statusText: nodeText,
        examineMode: node.examineMode,
        nodeUserList: node.entries.map((e) => user(e, pendingText)),
        ...(note && { note }),
      },
    ];
  });
}

/** Every attachment id a stored form names, in field order. */
function attachmentIds(fields: readonly FormField[], form: Record<string, unknown>): number[] {
  return fields.flatMap((f) =>
    f.type === 'attachment' || f.type === 'image' ? ((form[f.id] as number[] | undefined) ?? []) : [],
  );
}

/** 审批编号: the submission day and the request id, e.g. 20261122-000042 (unique: the id is). */
export function serialOf(r: { id: number; created_at: number }): string {
  return `${formatMuseumTime(r.created_at).slice(0, 10).replace(/-/g, '')}-${String(r.id).padStart(6, '0')}`;
}

/**
 * The detail's groups (spec §3 detail[]), documented in README "Approval requests":
 * 申请信息 (审批编号, 申请人, 所在部门, 提交时间, 紧急程度, 流程版本) and
 * 审批进度 (审批状态, 当前节点, 当前审批人, 完成时间).
 */
function detailGroups(r: repo.RequestRecord, state: RunState, org: OrgSnapshot): InstDetail['detail'] {
  const names = new Map(org.departments.map((d) => [d.id, d.name]));
  const depts = org
    .ownDeptsOf(r.starter_id)
    .map((d) => names.get(d) ?? '')
    .filter(Boolean);
  const running = r.status === REQUEST.running;
  const current = running ? state.nodes[state.nodes.length - 1] : undefined;
  const waiting = current?.entries.filter((e) => e.status === undefined).map((e) => e.userId) ?? [];
  return [
    {
      label: '申请信息',
      arr: [
        { label: '审批编号', value: serialOf(r) },
        { label: '申请人', value: org.person(r.starter_id)?.name ?? '' },
        { label: '所在部门', value: depts.join('、') },
        { label: '提交时间', value: formatMuseumTime(r.created_at) },
        { label: '紧急程度', value: PRIORITY_TEXT[r.priority] ?? PRIORITY_TEXT[1]! },
        { label: '流程版本', value: `${r.template_name} 第 ${r.version} 版` },
      ],
    },
    {
      label: '审批进度',
      arr: [
        { label: '审批状态', value: STATUS_TEXT[r.status] ?? '' },
        { label: '当前节点', value: current ? (state.steps[current.step]?.nodeName ?? '') : '已结束' },
        {
          label: '当前审批人',
          value:
            waiting
              .map((u) => org.person(u)?.name ?? '')
              .filter(Boolean)
              .join('、') || '—',
        },
        { label: '完成时间', value: r.finished_at ? formatMuseumTime(r.finished_at) : '—' },
      ],
    },
  ];
}
