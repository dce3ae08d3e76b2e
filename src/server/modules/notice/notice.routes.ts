import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CooperationClearBody,
  CooperationReadBody,
  LIVE_STREAM_PATH,
  NoticeClearBody,
  NoticeReadBody,
  type LiveTopic,
  type SidebarCounts,
} from '../../../shared/api/notice';
import { ShareToUsersBody } from '../../../shared/api/share';
import { DONE } from '../../plugins/envelope';
import type { AuthService } from '../auth/auth.service';
import type { LiveBus } from './live';
import type { NoticeService } from './notice.service';

/** How often an open stream proves it is alive and re-checks its session. */
export const HEARTBEAT_MS = 25_000;

/** The topics whose change moves the side menu's counts (SidebarCounts): their events carry them. */
const COUNTED: ReadonlySet<LiveTopic> = new Set<LiveTopic>(['notice', 'cooperation', 'approval']);

/**
 * The notice centre under /singleMuseum (spec/office.md §7 "Notices and collaboration", the
 * count calls) and its live stream. Every read is the caller's own; see shared/api/notice.ts.
 */
export function noticeRoutes(
  app: FastifyInstance,
  deps: { notices: NoticeService; bus: LiveBus; auth: AuthService; heartbeatMs?: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notices } = deps;

  // A share link sent to chosen colleagues (the share dialog, for shares without a code).
  r.post('/notice/shareFileToUsers', { schema: { body: ShareToUsersBody } }, async (req) => {
    await notices.notify({
      receivers: req.body.receiver,
      content: req.body.noticeContent,
      source: 'share',
      from: req.user.id,
    });
    return DONE;
  });

  r.post('/notice/list', async (req) => notices.notices(req.user.id));
  r.post('/notice/read', { schema: { body: NoticeReadBody } }, async (req) => {
    await notices.readNotice(req.user.id, req.body.noticeId);
    return DONE;
  });
  r.post('/notice/clear', { schema: { body: NoticeClearBody } }, async (req) => {
    await notices.clearNotices(req.user.id);
    return DONE;
  });

  r.post('/sysCooperation/list', async (req) => notices.cooperation(req.user.id));
  r.post('/sysCooperation/read', { schema: { body: CooperationReadBody } }, async (req) => {
    await notices.readCooperation(req.user.id, req.body.cooperationId);
    return DONE;
  });
  r.post('/sysCooperation/clear', { schema: { body: CooperationClearBody } }, async (req) => {
    await notices.readCooperation(req.user.id, null);
    return DONE;
  });

  r.post('/workflowActvity/message/list', async (req) => notices.approvalMessages(req.user.id));
  // POST /workflowInst/read (a copy opened) lives with the approval requests (workflow module).

  r.get('/workflowActvity/count', async (req) => notices.counts(req.user.id));
  // GET /bsDigitalassetsInfo/countApproval lives with the collection (its data approvals).

  /*
   * The live stream (Server-Sent Events). EventSource cannot set headers, so the session comes
   * from the token cookie (GET only; the auth plugin). It carries no content, only which of the
   * user's lists changed and, when those move the side menu's counts, the new counts (numbers,
   * read for the stream's own user after the session is checked again), so a stream left open
   * after sign-out leaks nothing: it ends at its next change or heartbeat once the session is gone.
   */
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });
  r.get(LIVE_STREAM_PATH, async (req, reply) => {
    const userId = req.user.id;
    const token = (typeof req.headers.token === 'string' && req.headers.token) || req.cookies.token || '';
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Reverse proxies must not buffer the stream.
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    // `retry`: how long the browser waits before reconnecting on its own.
    res.write('retry: 3000\n\nevent: ready\ndata: {}\n\n');

    /*
     * The counts travel with the change. Without them the page heard of a notice, then asked
     * for the counts: a second round trip before the bell moved, and on a loaded tablet (or CI's
     * two busy cores) that round trip was what pushed the bell past the spec's 2 seconds. Events
     * are written in order through `chain`, so a later event never carries older counts.
     */
    /** Whether the stream's session still stands (the heartbeat and the counts ask). */
    const signedIn = () =>
      deps.auth.resolve(token).then(
        (u) => u?.id === userId,
        () => false,
      );
    let chain = Promise.resolve();
    const write = async (topics: LiveTopic[]) => {
      let counts: SidebarCounts | undefined;
      if (topics.some((t) => COUNTED.has(t))) {
        if (!(await signedIn())) return end();
        // A failed read costs only the shortcut: the page reads the counts itself.
        counts = await notices.counts(userId).catch(() => undefined);
      }
      if (!res.writableEnded) res.write(`event: change\ndata: ${JSON.stringify({ topics, counts })}\n\n`);
    };

    /*
     * One write often changes several of the user's lists in a row (publishing an announcement
     * tells 'notice', then 'announce'). Each event makes every open tab refetch its lists, and
     * a second event cancels and repeats the first's refetch: twice the requests, on the six
     * connections a browser allows per server. Publications of the same turn of the event loop
     * go out as one event.
     */
    let queued: Set<LiveTopic> | null = null;
    const send = (topics: readonly LiveTopic[]) => {
      if (queued) {
        for (const t of topics) queued.add(t);
        return;
      }
      queued = new Set(topics);
      setImmediate(() => {
        const merged = [...(queued ?? [])];
        queued = null;
        // A write that failed (the socket went) must not stop the ones after it.
        chain = chain.then(() => write(merged)).catch(() => undefined);
      });
    };
    const unsubscribe = deps.bus.subscribe(userId, send);
    const beat = setInterval(() => {
      void signedIn().then((ok) => (ok ? res.write(': ping\n\n') : end()));
    }, deps.heartbeatMs ?? HEARTBEAT_MS);
    function end() {
      clearInterval(beat);
      unsubscribe();
      open.delete(end);
      if (!res.writableEnded) res.end();
    }
    open.add(end);
    req.raw.on('close', end);
  });
}
