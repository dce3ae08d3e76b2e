import { rm } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DRIVE_PREFIX, MUSEUM_PREFIX } from '../shared/api/envelope';
import { AVATAR_MAX_BYTES } from '../shared/api/org';
import type { Config } from './config';
import type { Db } from './db/index';
import { createAccess } from './modules/auth/access';
import { announceRoutes } from './modules/announce/announce.routes';
import { ANNOUNCE_TABLE, INFO_PUBLISH, createAnnounceService } from './modules/announce/announce.service';
import { attachRoutes } from './modules/attach/attach.routes';
import { createChunkUploads } from './modules/attach/attach.chunks';
import { createAttachService } from './modules/attach/attach.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createAppPasswords } from './modules/auth/app-password.service';
import { davPlugin, registerDavMethods } from './modules/dav/dav.plugin';
import { directoryRoutes } from './modules/directory/directory.routes';
import { createDirectoryService } from './modules/directory/directory.service';
import { addressBookScheme } from './modules/directory/directory.import';
import { peopleScheme } from './modules/org/org.import';
import { createAreas } from './modules/drive/area';
import { driveRoutes } from './modules/drive/drive.routes';
import { createDriveService } from './modules/drive/drive.service';
import { posterRoutes } from './modules/drive/media.routes';
import { createMediaService } from './modules/drive/media.service';
import { createThumbs, forgettingDerived } from './modules/drive/thumbs';
import { uploadRoutes } from './modules/drive/upload.routes';
import { photoRoutes } from './modules/photo/photo.routes';
import { createPhotoService } from './modules/photo/photo.service';
import { createPhotoCollection } from './modules/photo/photo-collection.repo';
import { createUploadService } from './modules/drive/upload.service';
import type { LiveBus } from './modules/notice/live';
import { noticeRoutes } from './modules/notice/notice.routes';
import { createNoticeService } from './modules/notice/notice.service';
import { officeRoutes, officeSaveRoutes } from './modules/office/office.routes';
import { createOfficeService } from './modules/office/office.service';
import { orgRoutes } from './modules/org/org.routes';
import { createOrgService } from './modules/org/org.service';
import { projectRoutes } from './modules/project/project.routes';
import { PROJECT_TABLE, createProjectService } from './modules/project/project.service';
import { personalRoutes } from './modules/personal/personal.routes';
import { createPersonalService } from './modules/personal/personal.service';
import { scheduleRoutes } from './modules/schedule/schedule.routes';
import { createScheduleService } from './modules/schedule/schedule.service';
import { shareRoutes } from './modules/share/share.routes';
import { createShareService } from './modules/share/share.service';
import { unzipRoutes } from './modules/unzip/unzip.routes';
import { approvalRoutes } from './modules/workflow/approval.routes';
import { attendanceRoutes } from './modules/attendance/attendance.routes';
import { createAttendanceService } from './modules/attendance/attendance.service';
import { APPROVAL_TABLE, createApprovalService } from './modules/workflow/approval.service';
import { workflowRoutes } from './modules/workflow/workflow.routes';
import { createWorkflowService } from './modules/workflow/workflow.service';
import { APPROVAL_SETTING } from './modules/workflow/workflow.routes';
import { createUnzipService } from './modules/unzip/unzip.service';
import { syslogPlugin } from './modules/syslog/syslog.plugin';
import { syslogRoutes } from './modules/syslog/syslog.routes';
import { createSyslog } from './modules/syslog/syslog.service';
import { authPlugin } from './plugins/auth';
import { registerFloodGuard } from './plugins/flood-guard';
import { nulGuardPlugin } from './plugins/nul-guard';
import { envelopePlugin } from './plugins/envelope';
import { securityHeaders } from './plugins/security-headers';
import { formBodyPlugin } from './plugins/form-body';
import { idempotencyPlugin } from './plugins/idempotency';
import { webPlugin } from './plugins/web';
import { type Cluster, createCluster, jobsOf } from './cluster/index';
import { createStorage, type Storage } from './storage/index';
import { RECORDS, appointOrder, downloadDoc, hasAttachments, serviceRecord } from '../shared/records/index';
import type { RecordDef } from '../shared/records/define';
import { collectRoutes, openApiRoute } from './plugins/openapi';
import { dictionaryRoutes, seedDictionaries } from './records/dictionary';
import { createImports, importRoutes, recordScheme } from './records/records.import';
import { recordRoutes } from './records/records.routes';
import { businessRoutes } from './modules/business/business.routes';
import { createBusinessService } from './modules/business/business.service';
import { downloadRoutes } from './modules/download/download.routes';
import { volunteerServiceRoutes } from './modules/volunteer-service/volunteer-service.routes';
import { createVolunteerService as createSessionService } from './modules/volunteer-service/volunteer-service.service';
import { createRecordService } from './records/records.service';
import { registrationRoutes } from './modules/registration/registration.routes';
import { volunteerRoutes } from './modules/volunteer/volunteer.routes';
import { reservationRoutes } from './modules/reservation/reservation.routes';
import { bookRoutes } from './modules/book/book.routes';
import { createBookReminders } from './modules/book/book.reminders';
import { bookAdminRoutes } from './modules/book/book.admin';
import { createBookService } from './modules/book/book.service';
import { bookStatsRoutes } from './modules/book/book-stats.routes';
import { createBookStats } from './modules/book/book.stats';
import { bsBookApproval } from '../shared/records/book/books';
import { bsDigitalassetsInfo } from '../shared/records/collection/collection';
import { APPLY_TABLE, createCollectionService, previewPath } from './modules/collection/collection.service';
import { collectionRoutes } from './modules/collection/collection.routes';
import { bsRepairManagement } from '../shared/records/repair/repair';
import { registerRepairRules } from './modules/repair/repair.rules';
import { bsCarousel } from '../shared/records/content/index';
import { contentRoutes } from './modules/content/content.routes';
import { contentStatsRoutes } from './modules/content/content-stats.routes';
import { createContentStats } from './modules/content/content-stats';
import { registerContentDurations } from './modules/content/durations';
import { createContentService } from './modules/content/content.service';
import { registerWebsiteRules } from './modules/content/website.rules';
import { createActivityService } from './modules/activity/activity.service';
import { activityRoutes } from './modules/activity/activity.routes';
import { activitySign } from '../shared/records/activity/activity';
import { bsIdentify } from '../shared/records/content/website';
import { createGate, gateRoutes } from './modules/reservation/gate';
import { reservationStatExportRoutes } from './modules/reservation/stats-export';
import { createReservationService } from './modules/reservation/reservation.service';
import { teamVisitorsScheme } from './modules/reservation/team-visitors.import';
import { publicReservationRoutes } from './modules/reservation/public.routes';
import { createPublicReservationService, maskPhone } from './modules/reservation/public.service';
import { publicContentRoutes } from './modules/content/public.routes';
import { createPublicContentService } from './modules/content/public.service';
import { countView } from './modules/content/views';
import { volunteerMeRoutes } from './modules/volunteer-me/volunteer-me.routes';
import { confirmedHoursSince, createVolunteerMeService } from './modules/volunteer-me/volunteer-me.service';
import { createVolunteerService } from './modules/volunteer/volunteer.service';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { createDashboardService } from './modules/dashboard/dashboard.service';
import { dashboardSources } from './modules/dashboard/dashboard.sources';
import { createRegistrationService } from './modules/registration/registration.service';

export interface AppDeps {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  /** The live bus; the cluster's unless given (tests publish through the server's own). */
  bus?: LiveBus;
  /**
   * What instances share (locks, bus, job claims, counters) and where bytes are kept; made
   * from the configuration when not given (and then closed with the app). Tests pass their own
   * to reach them, or to run two instances over the same Redis and bucket.
   */
  cluster?: Cluster;
  storage?: Storage;
  /**
   * Told of every route as it is registered, before any plugin or module: the tests walk the
   * real route table with it (tests/server/validation-walk.test.ts). Not a route, so nothing
   * of it is reachable over HTTP.
   */
  onRoute?: (route: RouteOptions) => void;
  /** The records served (src/shared/records); tests may add fixture records with their tables. */
  records?: readonly RecordDef[];
}

/**
 * The Content-Security-Policy the app runs under: no inline script, no foreign origin except a
 * configured ONLYOFFICE Document Server, whose api.js and editor frame the /onlyoffice page loads.
 */
const cspFor = (office: string[]) => ({
  defaultSrc: ["'self'"],
  // The MD5 worker (hash-wasm) compiles WebAssembly; this allows that, not JavaScript eval().
  scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...office],
  frameSrc: ["'self'", ...office],
  // Mantine writes CSS variables into <style> elements at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
});

/**
 * The compilers Fastify builds each route's schemas with: Zod's. Fastify's types describe
 * factories of Ajv compilers; ours take Zod schemas, as every route declares them.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/**
 * Builds the server: plugins first (cookies, headers, limits, the envelope, validation, the
 * session check, idempotency), then each module under its prefix, then the front end.
 * Nothing here listens; main.ts and the tests do.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    https: config.tls ? { cert: await readFile(config.tls.cert), key: await readFile(config.tls.key) } : null,
    bodyLimit: 1024 * 1024,
    // req.ip is the connection's peer, or, when that peer is a proxy listed in TRUST_PROXY, the
    // client it names in X-Forwarded-For; every per-address throttle counts against req.ip.
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    // Zod validates and serializes every route. Named here, at construction, rather than set
    // afterwards, Fastify never loads its default compilers (Ajv, fast-json-stringify and their
    // formats): about 0.1 s of CPU at every start went to code no route used (issue 25).
    schemaController: { compilersFactory: zodCompilers },
    // No HEAD twin for every GET: an API call answers JSON, which nobody asks the headers of,
    // and each twin was a route more to build at every start (about 0.1 s of ~0.9 s, issue 25).
    // File answers keep theirs (FILE_ANSWER), as do static files and /login (plugins/web.ts).
    exposeHeadRoutes: false,
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // WebDAV's methods (PROPFIND, MKCOL, LOCK…), known before any route (README "Mount the drive").
  registerDavMethods(app);
  const logError = (what: string, err: unknown) => app.log.error({ err }, what);
  // Chosen once (README "Scale-out"): Redis and the object store, or this process and DATA_DIR.
  const cluster = deps.cluster ?? (await createCluster(config.scale, { onError: logError }));
  // onClose hooks run last-registered first: the shared connections close after everything else.
  if (!deps.cluster) app.addHook('onClose', async () => cluster.close());
  const storage = deps.storage ?? (await createStorage(config, cluster.locks, logError));
  const jobs = jobsOf(cluster, (name, err) => logError(`job ${name} failed`, err));
  app.addHook('onClose', async () => jobs.close());
  // Every route, for the OpenAPI document (/openapi.json).
  const routes = collectRoutes(app);

  await app.register(cookie);
  await app.register(securityHeaders, {
    contentSecurityPolicy: { directives: cspFor(config.onlyoffice ? [config.onlyoffice.origin] : []) },
    crossOriginEmbedderPolicy: false,
    hsts: config.tls ? { maxAge: 15552000 } : false,
  });
  // Per signed-in person, with a per-address ceiling for calls without a session (README
  // "Flood guard"). Keyed by the session the auth plugin's onRequest hook looks up.
  await registerFloodGuard(
    app,
    { perPerson: config.rateLimitPerMinute, anonymousPerAddress: config.rateLimitPerAddress },
    cluster.rateLimitRedis,
  );
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 20 } });
  await app.register(formBodyPlugin);
  await app.register(nulGuardPlugin);
  await app.register(envelopePlugin);

  const auth = createAuthService(db, config);
  const appPasswords = createAppPasswords({ db, auth });
  const access = createAccess(db);
  const org = createOrgService(db);
  const personal = createPersonalService(db, storage.avatars);
  const blobs = storage.blobs;
  // This instance's scratch (temporary copies of blobs for sharp and the tag reader): whatever
  // a crash left in it is nobody's.
  const scratch = path.join(config.dataDir, 'tmp');
  await rm(scratch, { recursive: true, force: true });
  const thumbs = createThumbs({
    dir: path.join(config.dataDir, 'thumbs'),
    shelf: storage.thumbs,
    store: blobs,
    tmpDir: scratch,
    lock: cluster.locks.keyed('thumb'),
    onMade: (e) => app.log.info(e, 'error' in e ? 'thumbnail refused' : 'thumbnail made'),
  });
  // Thumbnails and posters go with the content they were made from.
  const store = forgettingDerived(blobs, thumbs);
  const media = createMediaService({
    db,
    store,
    thumbs,
    tmpDir: scratch,
    onParseError: (md5, err) => app.log.info({ md5, err: String(err) }, 'music tags unreadable'),
  });
  // Image search (README "Image search"): every image's content is hashed once when stored;
  // content stored before, and the collection records' images (attachments, bound when a data
  // approval passes), are hashed by the backfill (at start, without holding the start up, then
  // every minute; one instance at a time); hashes of content gone are pruned with it.
  const photos = createPhotoService({
    db,
    store,
    attachments: storage.attachments,
    collection: createPhotoCollection({ db, access }),
    access,
    tmpDir: scratch,
    onHashError: (md5, err) => app.log.info({ md5, err: String(err) }, 'image not hashed'),
  });
  app.addHook('onClose', async () => photos.stop());
  void jobs.every('image-hash-backfill', 60_000, async () => {
    await photos.prune();
    const n = await photos.backfill();
    if (n) app.log.info({ hashed: n }, 'image search backfill');
  });
  const drive = createDriveService({
    db,
    store,
    defaultQuotaBytes: config.defaultQuotaBytes,
    blobLock: cluster.locks.keyed('blob'),
    onFileStored: (file) => {
      media.onStored(file);
      photos.onStored(file);
    },
  });
  const uploads = createUploadService({
    db,
    drive,
    store,
    dir: config.uploadDir,
    chunks: storage.uploadChunks,
    sessionLock: cluster.locks.keyed('upload'),
    sessionMs: config.uploadSessionMs,
    limits: { openMax: config.pending.uploadOpenMax, sharedBytes: config.pending.uploadSharedBytes },
  });
  // Abandoned uploads: swept at start, then periodically, by one instance at a time.
  await jobs.every('upload-sweep', Math.min(config.uploadSessionMs, 3600_000), () => uploads.sweep());
  // Staged objects a crash left in the object store (nothing to do locally).
  await jobs.every('store-sweep', 3600_000, () => storage.sweep());

  const unzip = createUnzipService({
    db,
    drive,
    store,
    limits: config.unzip,
    log: (msg, detail) => app.log.error({ detail }, msg),
    locks: cluster.locks,
  });
  await unzip.recover();
  // With several instances, jobs of an instance that died are failed by one of the others.
  if (cluster.shared) await jobs.every('unzip-orphans', 60_000, () => unzip.failOrphans());
  app.addHook('onClose', async () => unzip.settle());

  const shares = createShareService({ db, drive });
  const bus = deps.bus ?? cluster.bus;
  const notices = createNoticeService(db, bus);
  const attach = createAttachService({
    db,
    dir: path.join(config.dataDir, 'attachments'),
    store: storage.attachments,
    blobLock: cluster.locks.keyed('attachment'),
    driveStore: store,
    pendingBytes: config.pending.attachBytes,
  });
  const attachChunks = createChunkUploads({
    db,
    dir: path.join(config.dataDir, 'attach-chunks'),
    chunks: storage.attachChunks,
    lock: cluster.locks.keyed('attach-upload'),
    attach,
    openMax: config.pending.attachOpenMax,
  });
  const announce = createAnnounceService({ db, access, notices, attach, bus });
  attach.register(ANNOUNCE_TABLE, {
    canUpload: (user) => access.can(user, INFO_PUBLISH),
    canRead: (user, id) => announce.canRead(user, id),
    isPublished: (id) => announce.isPublished(id),
  });
  const approvals = createApprovalService({
    db,
    notices,
    attach,
    isAdmin: (user) => access.can(user, APPROVAL_SETTING),
  });
  // A person disabled while requests await them: those requests move on (approvers left, or
  // the administrators), in the same transaction as the disabling.
  org.onUserDisabled((trx, userId) => approvals.releaseDisabled(trx, userId));
  // Approval form attachments: any member of staff uploads (a session is an enabled account);
  // once a request uses one, whoever may see the request reads it, and it is never deleted on
  // its own (a submitted request is a record).
  attach.register(APPROVAL_TABLE, {
    canUpload: async () => true,
    canRead: (user, id) => approvals.canSee(user, id),
    isPublished: async () => true,
  });
  const projects = createProjectService({ db, notices, attach, drive });
  // Task files: any member of staff uploads (the task call checks the project); the project's
  // collaborators read them; a task's file is deleted through the task (deleteRelative).
  attach.register(PROJECT_TABLE, {
    canUpload: async () => true,
    canRead: (user, taskId) => projects.canReadTask(user, taskId),
    isPublished: async () => true,
  });
  // Uploads never saved with a record: swept at start, then hourly.
  await jobs.every('attach-sweep', 3600_000, async () => {
    await attach.sweep();
    await attachChunks.sweep();
  });

  // The records engine (ARCHITECTURE.md §9): every declared record's calls, its import scheme,
  // and the dictionaries they draw their options from (seeded at every start).
  const recordDefs = deps.records ?? RECORDS;
  await seedDictionaries(db);
  const records = createRecordService({ db, access, records: recordDefs, attach });
  // A record's rich text images and file fields are its attachments: its writers upload, its
  // readers read.
  for (const def of recordDefs)
    if (hasAttachments(def))
      attach.register(def.name, {
        canUpload: (user) => access.can(user, def.access.write),
        canRead: (user, id) => records.canRead(def, user, id),
        isPublished: (id) => records.isPublished(def, id),
      });
  // Logs (records-design §2 E) keep rows for their retentionDays: pruned at start, then every
  // 6 h, by one instance at a time.
  const logs = recordDefs.filter((d) => d.retentionDays);
  if (logs.length) {
    await jobs.every('records-log-prune', 6 * 3600_000, async () => {
      await Promise.all(logs.map((d) => records.prune(d)));
    });
  }
  // Self-registration (README "Self-registration and pending staff"): the public page's calls,
  // the account an approval creates, and the sign-in's answer for a registered phone.
  const registration = createRegistrationService({
    db,
    org,
    auth,
    records,
    bus,
    notices,
    report: (msg, err) => app.log.error({ err }, msg),
  });
  // Volunteers (README "Volunteers"): the effects of their transitions and the sign-up.
  const volunteers = createVolunteerService({
    db,
    records,
    notices,
    // No gateway: the log keeps the text with the phone masked and an initial password blanked.
    sms: (phone, text, secret) =>
      app.log.info(
        {
          phone: phone.slice(0, 3) + '****' + phone.slice(-4),
          text: secret ? text.replaceAll(secret, '******') : text,
        },
        'SMS 未配置网关，仅记录',
      ),
    // 转正 counts confirmed service records (README "Volunteer accounts and the phone view").
    hoursSince: confirmedHoursSince,
  });
  // Volunteer service (README "Volunteer service and check-in"): sessions, explainers, the signed
  // check-in code, check-in and check-out, hours; it registers its records' effects.
  const volunteer = recordDefs.includes(serviceRecord)
    ? createSessionService({
        db,
        access,
        records,
        notices,
        report: (msg, err) => app.log.error({ err }, msg),
        onAbsent: volunteers.absentFromSession,
      })
    : null;
  // The volunteer's own side: the phone view's answer, claims and withdrawals.
  const volunteerMe = createVolunteerMeService({ db, sessions: volunteer });
  // 缺勤: who never checked in to a finished session, hourly, by one instance at a time.
  if (volunteer)
    await jobs.every('volunteer-absent', 3600_000, async () => void (await volunteer.markAbsent()));
  // Visitor reservations (README "Visitor reservations"): tickets generated from the templates
  // and no-shows marked (feeding the black list) hourly, by one instance at a time.
  const reservations = recordDefs.includes(appointOrder)
    ? createReservationService({
        db,
        access,
        records,
        // Warn, as the visitor's codes below: production logs at warn, and a text that was not
        // sent (a voided booking, a team's approval) must be seen there.
        sms: (phone, text) => app.log.warn({ phone: maskPhone(phone), text }, 'SMS 未配置网关，仅记录'),
      })
    : null;
  if (reservations) {
    await jobs.every('reservation-tickets', 3600_000, async () => void (await reservations.generate(null)));
    await jobs.every(
      'reservation-no-show',
      3600_000,
      async () => void (await reservations.markNoShows(null)),
    );
  }
  // The visitor's side (README "The visitor's side"): one-time codes by phone and visitor
  // sessions. No gateway: the code goes to the server's log at warn level (seen in production,
  // whose log level is warn), with the phone masked; README says so.
  const visitorBooking = reservations
    ? createPublicReservationService({
        db,
        reservations,
        codeKey: await storage.secret('visitor-code'),
        sms: (phone, text) => app.log.warn({ phone: maskPhone(phone), text }, 'SMS 未配置网关，仅记录'),
      })
    : null;
  // The collection (README "Collection (issue 24)"): its data approvals ride the approval
  // engine; readers see reduced previews of its images, keepers and approved extracts originals.
  const collection = recordDefs.includes(bsDigitalassetsInfo)
    ? createCollectionService({ db, access, records, attach, approvals })
    : null;
  if (collection) {
    records.registerReaderImage(bsDigitalassetsInfo.name, previewPath);
    // The originals (attach/image, downloadFile) are the keepers' only.
    attach.register(bsDigitalassetsInfo.name, {
      canUpload: (user) => access.can(user, bsDigitalassetsInfo.access.write),
      canRead: (user) => access.can(user, bsDigitalassetsInfo.access.write),
      isPublished: async () => false,
    });
    // An apply's new images: its keeper uploads; its applicant, keepers and reviewers read; kept once submitted.
    attach.register(APPLY_TABLE, {
      canUpload: (user) => access.can(user, bsDigitalassetsInfo.access.write),
      canRead: (user, id) => collection.canReadApply(user, id),
      isPublished: async () => true,
    });
  }
  // Book lending (README "Book lending"): the application's rules and its transitions' effects.
  const books = recordDefs.includes(bsBookApproval)
    ? createBookService({ db, access, records, notices })
    : null;
  // Due and overdue loans remind their borrowers in the bell, once a day per loan (the
  // database's key holds that), checked hourly by one instance at a time.
  if (books) {
    const reminders = createBookReminders({ db, notices });
    await jobs.every('book-reminders', 3600_000, async () => void (await reminders.run()));
  }
  // Website and mini-program content (README "Website and mini-program content"): the link
  // allow-list, the guide's tree, relations and the carousel's 展示中 filter.
  const content = recordDefs.includes(bsCarousel) ? createContentService({ db, records }) : null;
  // The website's 文物鉴定 (README "Website and English website pages"): records need an accepted request.
  if (recordDefs.includes(bsIdentify)) registerWebsiteRules(records);
  // Durations read from the files of content rows (README "Media: Range and durations").
  if (content)
    registerContentDurations({
      db,
      records,
      store: storage.attachments,
      tmpDir: scratch,
      onReadError: (md5, err) => app.log.info({ md5, err: String(err) }, 'media duration unreadable'),
    });
  // Social education activities (README "Social education activities (issue 24)"): the sign-up's
  // window and the check-in and cancel times, and the monthly statistic.
  const activities = recordDefs.includes(activitySign)
    ? createActivityService({ db, access, records })
    : null;
  // Conservation and repair (README "Conservation and repair (issue 24)"): rules across rows.
  if (recordDefs.includes(bsRepairManagement)) registerRepairRules({ db, records });
  // Every effect a transition names is registered by now (a missing one stops the start).
  records.checkEffects();
  const imports = createImports();
  for (const def of recordDefs) if (def.importable) imports.add(recordScheme(def, { db, records }));
  const directory = createDirectoryService(db);
  // The address book and people are hand-made modules; they join the same import mechanism.
  imports.add(addressBookScheme({ db, directory }));
  imports.add(peopleScheme({ db, org }));
  if (reservations) imports.add(teamVisitorsScheme({ reservations }));

  await app.register(authPlugin, { auth, shareRequireLogin: config.shareRequireLogin });
  await app.register(idempotencyPlugin, { db, jobs });
  // The system log (README "System log"): its capture hooks see every API request from here on.
  const syslog = createSyslog({ db, report: (msg, detail) => app.log.error(detail, msg) });
  await app.register(syslogPlugin, { syslog });
  // Its retention: entries older than LOG_RETENTION_DAYS go, at start and then daily, by one
  // instance at a time.
  await jobs.every('syslog-prune', 86_400_000, async () => {
    const n = await syslog.prune(config.logRetentionDays);
    if (n) app.log.info({ deleted: n }, 'system log pruned');
  });

  await app.register(
    async (museum) => {
      authRoutes(museum, { auth, config });
      orgRoutes(museum, { org, access, db, config, avatars: storage.avatars });
      personalRoutes(museum, { personal, auth, appPasswords });
      noticeRoutes(museum, { notices, bus, auth, heartbeatMs: config.liveHeartbeatMs });
      announceRoutes(museum, { announce });
      attachRoutes(museum, { attach, chunks: attachChunks });
      workflowRoutes(museum, { workflow: createWorkflowService(db), access });
      approvalRoutes(museum, { approvals });
      attendanceRoutes(museum, { attendance: createAttendanceService(db, access) });
      directoryRoutes(museum, { directory, access });
      scheduleRoutes(museum, { schedule: createScheduleService(db) });
      projectRoutes(museum, { projects });
      recordRoutes(museum, { records, defs: recordDefs, db, syslog });
      volunteerRoutes(museum, { volunteers, records, access, db });
      // 业务数据's summaries and 下载中心's counted download, beside their records' generic calls.
      businessRoutes(museum, { business: createBusinessService({ db, access }) });
      if (recordDefs.includes(downloadDoc)) downloadRoutes(museum, { db, records, attach });
      dictionaryRoutes(museum, { db });
      importRoutes(museum, { imports, access });
      syslogRoutes(museum, { syslog, access });
      registrationRoutes(museum, { registration, access });
      if (volunteer) volunteerServiceRoutes(museum, { volunteer });
      if (reservations) reservationRoutes(museum, { reservations });
      if (books) bookRoutes(museum, { books, records });
      if (collection)
        collectionRoutes(museum, {
          collection,
          store: storage.attachments,
          // The older resource message types (none are made today) and the data approvals.
          resourceCounts: async (userId) => {
            const old = await notices.resourceCounts(userId);
            const mine = await collection.counts(userId);
            const uploadCount = old.uploadCount + mine.uploadCount;
            const applyCount = old.applyCount + mine.applyCount;
            return { all: uploadCount + applyCount, uploadCount, applyCount };
          },
        });
      if (content) contentRoutes(museum, { content });
      if (activities) activityRoutes(museum, { activities });
      // 访问统计 of the content's view counts (README "View counts and 统计").
      if (content) contentStatsRoutes(museum, { stats: createContentStats({ db, access }) });
      // The public read API of the content (README "Public read API and preview"): no sign-in.
      if (content)
        publicContentRoutes(museum, {
          content: createPublicContentService({ db }),
          store: storage.attachments,
          count: (visit, table, id, kind) => countView(db, visit, table, id, kind),
        });
      // 借阅概览's figures, the form's ISBN look-up and the e-book download (README "Book lending").
      if (books)
        bookStatsRoutes(museum, { stats: createBookStats({ db, access, records }), db, records, attach });
      if (books)
        bookAdminRoutes(museum, {
          db,
          access,
          bus,
          report: (message, err) => app.log.warn({ err }, message),
        });
      if (visitorBooking)
        publicReservationRoutes(museum, {
          visitors: visitorBooking,
          syslog,
          secureCookies: Boolean(config.tls),
        });
      // The gate tablet's list of today (README 入馆核验).
      if (reservations) gateRoutes(museum, { gate: createGate({ db, access }) });
      if (reservations) reservationStatExportRoutes(museum, { reservations });
      volunteerMeRoutes(museum, { me: volunteerMe });
      // 以图搜图 (README "Image search"): its own context for the picture body parser.
      await museum.register(async (photo) => photoRoutes(photo, { photos }));
      // The dashboards and 观众记录 (README "Dashboards and the workbench", issue 24).
      dashboardRoutes(museum, {
        dashboards: createDashboardService({ db, access, sources: dashboardSources(recordDefs) }),
      });
    },
    { prefix: MUSEUM_PREFIX },
  );
  await app.register(
    async (wangpan) => {
      const areas = createAreas(access, (user, projectId) => projects.docRights(user, projectId));
      driveRoutes(wangpan, { drive, areas, access, store, media, shares: shares.grants });
      shareRoutes(wangpan, { shares, config });
      // The file keeps its old name (office-url.key) so links signed before an upgrade still open.
      const office = createOfficeService({ drive, config, urlKey: await storage.secret('office-url') });
      officeRoutes(wangpan, { office, areas, store });
      // Its own context: the octet body parser of saves from the browser's editors.
      await wangpan.register(async (saves) => officeSaveRoutes(saves, { office, areas }));
      unzipRoutes(wangpan, { unzip, areas });
      // Its own context: the image body parser of posters must not reach other routes.
      await wangpan.register(async (posters) => posterRoutes(posters, { media, areas }));
      // Its own context: the raw-body parser of octet chunks must not reach other routes.
      await wangpan.register(async (upload) => uploadRoutes(upload, { uploads, areas }));
    },
    { prefix: DRIVE_PREFIX },
  );

  // /dav/: the drive for Windows Explorer, macOS Finder and phone file apps (issue 26).
  await app.register(davPlugin, {
    db,
    drive,
    areas: createAreas(access),
    store,
    auth,
    appPasswords,
    syslog,
    putMaxBytes: config.davMaxFileBytes,
  });

  openApiRoute(app, routes);
  await app.register(webPlugin, { distDir: config.distDir });
  return app;
}

async function readFile(p: string): Promise<Buffer> {
  const fs = await import('node:fs/promises');
  return fs.readFile(p);
}
