import { formatMuseumMinute } from '../../src/shared/rules/museum-time';
import { hashPassword } from '../../src/server/modules/auth/password';
import { insertRegistration } from '../../src/server/modules/registration/registration.repo';
import * as recordsRepo from '../../src/server/records/records.repo';
import { adultVolunteer, schoolGroup } from '../../src/shared/records/volunteer/people';
import { recruitSign } from '../../src/shared/records/volunteer/recruit';
import {
  appointOrder,
  appointOrderVisitor,
  appointTeamOrder,
  appointTicket,
} from '../../src/shared/records/reservation/orders';
import { bsBookApproval } from '../../src/shared/records/book/books';
import { bsDigitalassetsInfo } from '../../src/shared/records/collection/collection';
import type { TestServer } from './harness';

/**
 * One valid sample per declared record, for the generic API suite (records-generic.test.ts):
 * `make(n, ids)` builds the n-th distinct valid body (distinct so uniques and peer rules never
 * collide between samples), `change` one edit of it. A record without a sample here fails the
 * suite: declaring a record means saying what a valid one looks like. A sample with files or
 * refs makes them fresh (an upload is used by one row only).
 */

export interface SampleIds {
  /** Account → user id of the demo museum. */
  user: (account: string) => number;
  /** Department name → id. */
  dept: (name: string) => number;
  /** A fresh upload of the admin's for `table` (a record's name): an image, or a file named `name`. */
  upload: (table: string, kind: 'file' | 'image', name?: string) => Promise<number>;
  /** A fresh row of a record, made from its own sample (what a ref points to). */
  row: (record: string) => Promise<number>;
}

/**
 * One parent row per suite for a record sorted within its parent (a chapter within its showroom,
 * a unit within its chapter), so samples share a sort scope and up/down has a neighbour to swap.
 */
const SHARED_ROWS = new WeakMap<SampleIds, Map<string, Promise<number>>>();
function sharedRow(ids: SampleIds, record: string): Promise<number> {
  const held = SHARED_ROWS.get(ids) ?? new Map<string, Promise<number>>();
  SHARED_ROWS.set(ids, held);
  if (!held.has(record)) held.set(record, ids.row(record));
  return held.get(record)!;
}

export interface Sample {
  make: (n: number, ids: SampleIds) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** A change to make in an update, and the field it shows in. */
  change: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * For a record without a create call (its rows arrive another way: a registration from the
   * public page): stores `body` as that way would, and answers the row's id.
   */
  insert?: (s: TestServer, body: Record<string, unknown>) => Promise<number>;
}

let registrationHash: Promise<string> | undefined;

/** The exhibition the relation samples of one test server share. */
const relationMains = new WeakMap<SampleIds, Promise<number>>();
const relationMainOf = (ids: SampleIds) => {
  let main = relationMains.get(ids);
  if (!main) relationMains.set(ids, (main = ids.row('bsExhibition')));
  return main;
};

/** Days apart, so duty rows of different samples never share a shift's hours. */
const dutyDay = (n: number) => {
  const d = new Date(Date.UTC(2031, 0, 1) + n * 3 * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/**
 * The n-th month from 2001-01, one per sample (n < 1200): business data samples never share a
 * month, so the months the generic suite closes never hold another sample's rows.
 */
const monthOf = (n: number) => ({ year: 2001 + Math.floor(n / 12), month: 1 + (n % 12) });

/** A valid resident ID number for the n-th sample (GB 11643 check digit computed). */
function idNumber(n: number): string {
  const body = `1101051990${String(1 + (n % 12)).padStart(2, '0')}${String(1 + (n % 28)).padStart(2, '0')}${String(n % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return `${body}${'10X98765432'[sum % 11]}`;
}

/** A person's name for the n-th sample: names take no digits, so n is spelled in Han numerals. */
const hanName = (n: number) => `志愿${[...String(n)].map((d) => '零一二三四五六七八九'[Number(d)]).join('')}`;
/** The birth date written in idNumber(n). */
const birthOf = (n: number) =>
  `1990-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
/** The n-th reservation sample's day, far ahead (so its slot is never over). */
const reservationDay = (n: number) =>
  new Date(Date.UTC(2031, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const mobileOf = (n: number) => `136${String(10_000_000 + n).slice(-8)}`;

/** A valid ISBN-13 for the n-th sample (978 prefix, check digit computed). */
function isbnOf(n: number): string {
  const body = `9787${String(n % 100_000_000).padStart(8, '0')}`;
  const sum = [...body].reduce((a, c, i) => a + Number(c) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export const SAMPLES: Record<string, Sample> = {
  dictType: {
    make: (n) => ({ dictKey: `sample_key_${n}`, dictName: `样例字典${n}`, remark: '测试用' }),
    change: (b) => ({ ...b, dictName: `${String(b.dictName)}（改）` }),
  },
  dictItem: {
    make: (n) => ({ dictKey: 'duty_type', label: `样例项${n}`, value: `s${n}`, sort: 100 + n, status: 1 }),
    change: (b) => ({ ...b, label: `${String(b.label)}（改）` }),
  },
  dutyRoster: {
    make: (n, ids) => ({
      dutyDate: dutyDay(n),
      dutyType: '1',
      shift: '1',
      leaderId: ids.user('director'),
      staffIds: [ids.user('staff02'), ids.user('staff04')],
      dutyPhone: '010-12345678',
      remark: '',
    }),
    change: (b) => ({ ...b, dutyPhone: '13800001234', remark: '改为手机值班' }),
  },
  wkDynamic: {
    make: (n, ids) => ({
      title: `馆内动态样例${n}`,
      deptId: ids.dept('办公室'),
      summary: '样例摘要',
      content: '<p>样例正文</p>',
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  staffRegistration: {
    make: (n, ids) => ({
      userName: `新同事${n}`,
      phone: `137${String(10_000_000 + n).slice(-8)}`,
      deptId: ids.dept('办公室'),
      remark: '样例申请',
    }),
    change: (b) => b,
    // As register/apply stores it (its throttle aside: the suite makes many).
    insert: async (s, b) =>
      insertRegistration(
        s.db,
        {
          userName: String(b.userName),
          phone: String(b.phone),
          deptId: Number(b.deptId),
          remark: String(b.remark ?? ''),
          ip: '127.0.0.1',
          passwordHash: await (registrationHash ??= hashPassword('Sample#2026')),
        },
        Date.now(),
      ),
  },
  museumFloor: {
    make: (n) => ({ name: `样例楼层${n}`, code: `T${n}`, plan: '<p>出入口在南侧</p>', sort: 100 + n }),
    change: (b) => ({ ...b, name: `${String(b.name)}改` }),
  },
  museumHall: {
    // On the demo museum's 一层 (seeded with the demo, as every test server is).
    make: (n) => ({
      name: `样例展厅${n}`,
      floor: '1F',
      hallNo: `S${n}`,
      openState: 1,
      mapX: n % 100,
      mapY: 50,
      intro: '样例简介',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, openState: 3, intro: '布展中' }),
  },
  businessMonth: {
    make: (n) => ({ ...monthOf(n), status: 0, remark: '' }),
    change: (b) => b,
  },
  businessDataPersonal: {
    make: (n) => ({
      ...monthOf(n),
      items: [
        { indicator: '1', value: n, unit: '场' },
        { indicator: '3', value: 2, unit: '篇' },
      ],
      workSummary: '完成常设展讲解',
      nextPlan: '',
    }),
    change: (b) => ({ ...b, items: [{ indicator: '2', value: 1, unit: '个' }], nextPlan: '筹备暑期活动' }),
  },
  businessDataDept: {
    make: (n, ids) => ({
      deptId: ids.dept('办公室'),
      ...monthOf(n),
      indicators: [{ indicator: '1', value: 1000 + n }],
      summary: '',
    }),
    change: (b) => ({ ...b, summary: '本月接待平稳' }),
  },
  businessDataPlan: {
    make: (n, ids) => ({
      deptId: ids.dept('办公室'),
      title: `工作计划样例${n}`,
      year: 2030,
      period: 2,
      periodNo: 1 + (n % 4),
      items: [
        {
          content: '完成展厅灯光改造',
          ownerId: ids.user('staff01'),
          deadline: '2030-03-31',
          progress: 40,
          state: 2,
        },
      ],
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  downloadDoc: {
    make: async (n, ids) => ({
      title: `下载资料样例${n}`,
      category: '1',
      file: [await ids.upload('downloadDoc', 'file', `表格${n}.pdf`)],
      description: '',
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  volunteerGroup: {
    make: (n) => ({ name: `样例服务组${n}`, description: '样例', sort: 100 + n, status: 1 }),
    change: (b) => ({ ...b, name: `${String(b.name)}改` }),
  },
  volunteerApplication: {
    make: async (n, ids) => ({
      type: 1,
      name: hanName(n),
      gender: 1,
      birthDate: birthOf(n),
      idType: 1,
      idNumber: idNumber(n),
      phone: mobileOf(n),
      emergencyName: '李家人',
      emergencyPhone: '13800001111',
      groupIds: [await ids.row('volunteerGroup')],
      availableTimes: '周末上午、节假日',
      specialties: '英语',
    }),
    change: (b) => b,
  },
  adultVolunteer: {
    make: async (n, ids) => ({
      name: hanName(n),
      gender: 2,
      birthDate: birthOf(n),
      idType: 1,
      idNumber: idNumber(n),
      phone: mobileOf(n),
      groupId: await ids.row('volunteerGroup'),
      emergencyName: '王家人',
      emergencyPhone: '010-66001234',
      appointable: false,
    }),
    change: (b) => ({ ...b, specialties: '手语' }),
    // As a passed interview makes it (volunteer.service createVolunteer): 见习, numbered.
    insert: (s, b) =>
      recordsRepo.insert(
        s.db,
        adultVolunteer,
        { ...b, volunteerNo: `T${String(b.phone).slice(-6)}`, joinDate: '2030-01-01', status: 1 },
        null,
        Date.now(),
      ),
  },
  schoolGroup: {
    make: (n) => ({
      schoolName: `样例第${n}中学`,
      schoolType: 2,
      contactTeacher: '赵老师',
      teacherPhone: mobileOf(n),
      studentCount: 30,
      status: 1,
    }),
    change: (b) => b,
    // Filled in on the mini-program: stored as it is.
    insert: (s, b) => recordsRepo.insert(s.db, schoolGroup, b, null, Date.now()),
  },
  studentVolunteer: {
    make: (n) => ({
      studentNo: `XS${n}`,
      category: 1 + (n % 2),
      name: hanName(n),
      gender: 1,
      birthDate: '2012-03-04',
      school: '样例实验中学',
      grade: '初二',
      guardianName: '学生家长',
      guardianPhone: mobileOf(n),
      status: 1,
    }),
    change: (b) => ({ ...b, grade: '初三' }),
  },
  volunteerNotice: {
    make: async (n, ids) => ({
      title: `志愿者公告样例${n}`,
      category: 1,
      cover: [await ids.upload('volunteerNotice', 'image')],
      content: '<p>本周六培训</p>',
      audience: 1,
      isTop: false,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  recruit: {
    make: async (n, ids) => ({
      title: `招募样例${n}`,
      cover: [await ids.upload('recruit', 'image')],
      type: 1,
      groupId: await ids.row('volunteerGroup'),
      targetType: 1,
      content: '<p>招募讲解志愿者</p>',
      signupStart: '2030-01-01 09:00',
      signupEnd: '2030-02-01 18:00',
      total: 5 + (n % 5),
      hoursPerPerson: '3',
      needReview: true,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  recruitSign: {
    make: async (n, ids) => ({
      recruitId: await ids.row('recruit'),
      volunteerId: await ids.row('adultVolunteer'),
      name: hanName(n),
      phone: mobileOf(n),
    }),
    change: (b) => b,
    // As the sign-up call makes it: one place taken from the recruit.
    insert: async (s, b) => {
      const id = await recordsRepo.insert(
        s.db,
        recruitSign,
        { ...b, places: 1, signupTime: Date.now(), status: 0 },
        null,
        Date.now(),
      );
      await s.db
        .updateTable('volunteer_recruit')
        .set((eb) => ({ used: eb('used', '+', 1) }))
        .where('id', '=', Number(b.recruitId))
        .execute();
      return id;
    },
  },
  // Volunteer service (issue 20). Days and times spread by n so no two samples collide.
  serviceRecord: {
    make: (n, ids) => ({
      volunteerId: ids.user('staff04'),
      volunteerKind: 1 + (n % 2),
      serviceType: 3,
      serviceDate: dutyDay(n),
      startTime: '09:00',
      endTime: '11:30',
      content: `活动服务样例${n}`,
      location: '一号展厅',
      audienceCount: 20,
    }),
    change: (b) => ({ ...b, content: `${String(b.content)}（改）` }),
  },
  volunteerExhibition: {
    make: (n) => ({
      name: `志愿服务展览${n}`,
      hall: `展厅${n}`,
      startDate: '2031-01-01',
      endDate: '2031-12-31',
      explainMinutes: 30,
      explainTimes: [{ time: '10:00' }, { time: '14:30' }],
      needQualification: true,
      status: 1,
      intro: '样例展览',
    }),
    change: (b) => ({ ...b, name: `${String(b.name)}（改）` }),
  },
  exhibitionSession: {
    make: async (n, ids) => ({
      exhibitionId: await ids.row('volunteerExhibition'),
      serviceDate: dutyDay(n),
      startTime: '10:00',
      endTime: '10:30',
      type: 1,
      quota: 2,
      recruitOpen: false,
    }),
    change: (b) => ({ ...b, quota: 3 }),
  },
  explainerQualification: {
    make: async (n, ids) => ({
      exhibitionId: await ids.row('volunteerExhibition'),
      volunteerId: ids.user('staff04'),
      trialTime: '2031-01-05 10:00',
      trialScore: 80 + (n % 20),
      examinerIds: [ids.user('staff01'), ids.user('staff02')],
      comment: '讲解流畅',
    }),
    change: (b) => ({ ...b, trialScore: 95 }),
  },
  sessionCheckIn: {
    make: async (_n, ids) => ({
      detailId: await ids.row('exhibitionSession'),
      volunteerId: ids.user('staff04'),
      role: 1,
    }),
    change: (b) => b,
    // As setting a session's explainers makes it (volunteer-service setExplain).
    insert: async (s, b) => {
      const t = Date.now();
      const row = await s.db
        .insertInto('volunteer_check_in')
        .values({
          create_time: t,
          update_time: t,
          create_by: null,
          update_by: null,
          detail_id: b.detailId as number,
          volunteer_id: b.volunteerId as number,
          role: b.role as number,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  },
  volunteerServiceSetting: {
    make: (n) => ({
      type: 1 + (n % 2),
      intro: `服务介绍${n}`,
      openWeekdays: '2,3,4,5,6,7',
      sessions: [{ startTime: '09:00', endTime: '11:00', quota: 10 }],
      annualMinHours: 60,
      hoursUnit: 30,
      autoConfirmHours: false,
    }),
    change: (b) => ({ ...b, annualMinHours: 40 }),
  },
  studentServiceSlot: {
    make: (n) => ({
      serviceDate: dutyDay(n),
      startTime: '09:00',
      endTime: '11:00',
      total: 20 + (n % 10),
      open: true,
    }),
    change: (b) => ({ ...b, total: Number(b.total) + 1 }),
  },
  studentServiceAppoint: {
    make: async (_n, ids) => ({
      slotId: await ids.row('studentServiceSlot'),
      volunteerId: ids.user('staff04'),
      persons: 2,
      remark: '样例预约',
    }),
    change: (b) => b,
  },
  // Book lending (issue 22): the rules row, a book with copies to lend, an application to borrow it.
  bookRule: {
    make: (n) => ({
      maxActive: 1 + (n % 9),
      maxBorrowDays: 30,
      maxDefers: 1,
      maxDeferDays: 15,
      pickupDays: 3,
      maxReceive: 5,
    }),
    change: (b) => ({ ...b, maxBorrowDays: 60 }),
  },
  bsBookInfo: {
    make: async (n, ids) => ({
      type: 1,
      title: `样例图书${n}`,
      subtitle: '馆藏研究',
      author: `作者${n}`,
      publisher: '文物出版社',
      publishDate: '2024-05',
      isbn: isbnOf(n),
      clcNo: 'K878.2',
      callNo: `K878.2/${n}`,
      edition: '第 1 版',
      pages: 320,
      binding: 2,
      price: 98.5,
      summary: '本馆藏品研究',
      keywords: '青铜器',
      cover: [await ids.upload('bsBookInfo', 'image')],
      ebookFileId: [await ids.upload('bsBookInfo', 'file', `电子版${n}.pdf`)],
      location: `资料室 ${1 + (n % 9)} 架 2 层`,
      totalCount: 5,
      lendMode: 1,
      source: 1,
      entryDate: '2025-03-01',
      status: 1,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（修订）` }),
  },
  bsBookApproval: {
    make: async (n, ids) => ({
      bookId: await ids.row('bsBookInfo'),
      applyType: 1,
      applicantId: ids.user('admin'),
      quantity: 1,
      borrowDays: 1 + (n % 30),
      reason: `研究用${n}`,
    }),
    change: (b) => b,
    // As POST add makes it (status 待审批; the checks are the book module's, tested in books.test.ts).
    insert: (s, b) =>
      recordsRepo.insert(
        s.db,
        bsBookApproval,
        { ...b, status: 1, deferCount: 0, returnCondition: 0 },
        null,
        Date.now(),
      ),
  },
  // The collection (issue 24): no create call (data approvals add rows; collection*.test.ts),
  // so the sample is stored as an approved 新增 stores it.
  bsDigitalassetsInfo: {
    make: async (n, ids) => ({
      registerNo: `样例总${String(n).padStart(5, '0')}`,
      name: `样例青铜鼎${n}`,
      category: String(1 + (n % 35)),
      level: String(1 + (n % 5)),
      era: '西周',
      texture: '11',
      material: '青铜',
      dimensions: '通高 38.5 厘米',
      weight: '2.35 千克',
      quantity: 1,
      completeness: '1',
      preservation: '1',
      source: '1',
      inTimeRange: '5',
      accessionDate: '2020-05-01',
      storageLocation: `一号库房 A 柜 ${1 + (n % 9)} 层`,
      images: [await ids.upload('bsDigitalassetsInfo', 'image')],
      description: '器形规整，纹饰清晰',
      remark: '',
    }),
    change: (b) => ({ ...b, name: `${String(b.name)}（修订）` }),
    insert: (s, b) => recordsRepo.insert(s.db, bsDigitalassetsInfo, b, null, Date.now()),
  },
  // Fixture records (records-fixtures.ts): the shapes no declared record uses yet.
  // Visitor reservations (issue 21). Days far ahead (2031+), one per sample, so the cancel
  // transition's "slot not over" holds and no two samples share a ticket or a template's minute.
  appointSetting: {
    make: (n) => ({
      openTime: '09:00',
      lastEntryTime: '16:00',
      closeTime: '17:00',
      closedWeekdays: '1',
      specialDates: [{ date: '2031-10-06', open: true, note: '国庆' }],
      advanceDays: 7,
      maxPersonsPerOrder: 1 + (n % 5),
      onePerIdPerDay: true,
      teamNeedsApproval: true,
      notice: `须知${n}`,
    }),
    change: (b) => ({ ...b, advanceDays: 14 }),
  },
  appointSettingTimes: {
    // One minute each, n minutes after 00:00, so no two samples overlap on a shared weekday.
    make: (n) => {
      const hm = (m: number) =>
        `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      return {
        name: `场次${n}`,
        startTime: hm(n % 1400),
        endTime: hm((n % 1400) + 1),
        capacity: 350,
        teamCapacity: 50,
        weekdays: '2,3,4,5,6,7',
        enabled: true,
      };
    },
    change: (b) => ({ ...b, capacity: 300 }),
  },
  appointTicket: {
    make: async (n, ids) => ({
      date: reservationDay(n),
      timeId: await ids.row('appointSettingTimes'),
      startTime: '09:00',
      endTime: '11:00',
      totalSum: 350,
      teamTotal: 50,
      isOpen: true,
    }),
    change: (b) => b,
    // Generated from a template (reservation.service generate): its counters start full.
    insert: (s, b) =>
      recordsRepo.insert(
        s.db,
        appointTicket,
        { ...b, surplusSum: 300, bookedSum: 0, teamSurplus: 50, teamBooked: 0, closeReason: '' },
        null,
        Date.now(),
      ),
  },
  appointOrder: {
    make: async (n, ids) => ({
      ticketId: await ids.row('appointTicket'),
      date: reservationDay(n),
      startTime: '09:00',
      endTime: '11:00',
      contactName: hanName(n),
      contactPhone: mobileOf(n),
      visitorCount: 2,
      channel: 3,
    }),
    change: (b) => b,
    // As POST book makes it (its places are the ticket's; the engine only reads and cancels).
    insert: (s, b) =>
      recordsRepo.insert(
        s.db,
        appointOrder,
        {
          ...b,
          orderNo: `P${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(0, 20),
          status: 1,
          verifyCode: `code-${Math.random()}`,
        },
        null,
        Date.now(),
      ),
  },
  appointOrderVisitor: {
    make: (n) => ({
      date: reservationDay(n),
      name: hanName(n),
      idType: 1,
      idNumber: idNumber(n),
      isMinor: false,
      checkStatus: 0,
    }),
    change: (b) => b,
    insert: (s, b) => recordsRepo.insert(s.db, appointOrderVisitor, b, null, Date.now()),
  },
  appointTeamOrder: {
    make: async (n, ids) => ({
      teamName: `样例参观团${n}`,
      unitName: `样例第${n}中学`,
      teamType: 1,
      leaderName: hanName(n),
      leaderPhone: mobileOf(n),
      leaderIdType: 1,
      leaderIdNumber: idNumber(n),
      ticketId: await ids.row('appointTicket'),
      visitorCount: 12,
      adultCount: 2,
      minorCount: 10,
      needExplain: true,
      explainExhibitionId: await ids.row('volunteerExhibition'),
      explainLanguage: 1,
      letterFile: [await ids.upload('appointTeamOrder', 'file', `介绍信${n}.pdf`)],
      pledgeFile: [await ids.upload('appointTeamOrder', 'file', `安全承诺书${n}.pdf`)],
      purpose: '研学',
    }),
    change: (b) => b,
    // As POST save makes it (status 待审核, its places taken from the ticket's team places).
    insert: (s, b) =>
      recordsRepo.insert(
        s.db,
        appointTeamOrder,
        {
          ...b,
          orderNo: `T${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(0, 20),
          date: '2031-06-01',
          startTime: '09:00',
          status: 0,
        },
        null,
        Date.now(),
      ),
  },
  appointBlackList: {
    make: (n) => ({
      name: hanName(n),
      idType: 1,
      idNumber: idNumber(n),
      reason: 2,
      remark: '倒卖门票',
      startDate: '2031-01-01',
      endDate: '2031-12-31',
    }),
    change: (b) => ({ ...b, remark: '倒卖门票，经核实' }),
  },
  // Website and mini-program content (issue 23). Links point at the demo museum's allow-list
  // (720yun.com, demo-museum.cn; seed.ts DEMO_LINK_HOSTS).
  AudioVideo: {
    make: async (n, ids) => ({
      mediaType: 1,
      videoTypeId: '1',
      title: `样例视频${n}`,
      cover: [await ids.upload('AudioVideo', 'image')],
      summary: '青铜器修复纪录片',
      content: '<p>样例正文</p>',
      mediaFile: [await ids.upload('AudioVideo', 'file', `视频${n}.mp4`)],
      url: `https://demo-museum.cn/video/${n}.mp4`,
      durationSeconds: 300,
      speaker: '张老师',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）`, videoTypeId: '2' }),
  },
  bsCarousel: {
    make: async (n, ids) => ({
      position: 1 + (n % 6),
      title: `样例轮播${n}`,
      images: [await ids.upload('bsCarousel', 'image')],
      linkType: 2,
      linkValue: `https://www.720yun.com/t/${n}`,
      startTime: '2026-01-01 09:00',
      endTime: '2036-01-01 09:00',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, linkType: 1, linkValue: '/pages/exhibition/detail?id=3' }),
  },
  bsGuideShowroom: {
    make: async (n, ids) => ({
      hallId: await ids.row('museumHall'),
      title: `样例导览展厅${n}`,
      cover: [await ids.upload('bsGuideShowroom', 'image')],
      summary: '商周青铜器',
      content: '<p>样例正文</p>',
      audioId: [await ids.upload('bsGuideShowroom', 'file', `讲解${n}.mp3`)],
      audioSeconds: 180,
      videoId: await ids.row('AudioVideo'),
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  bsGuideChapter: {
    make: async (n, ids) => ({
      showroomId: await sharedRow(ids, 'bsGuideShowroom'),
      chapterNo: '第一部分',
      title: `样例章节${n}`,
      cover: [await ids.upload('bsGuideChapter', 'image')],
      summary: '礼器',
      content: '<p>样例正文</p>',
      audioId: [await ids.upload('bsGuideChapter', 'file', `章节${n}.m4a`)],
      audioSeconds: 90,
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, chapterNo: '第二部分' }),
  },
  bsGuideUnit: {
    make: async (n, ids) => ({
      chapterId: await sharedRow(ids, 'bsGuideChapter'),
      title: `样例单元${n}`,
      cover: [await ids.upload('bsGuideUnit', 'image')],
      summary: '鼎',
      content: '<p>样例正文</p>',
      images: [await ids.upload('bsGuideUnit', 'image'), await ids.upload('bsGuideUnit', 'image')],
      audioId: [await ids.upload('bsGuideUnit', 'file', `单元${n}.mp3`)],
      audioSeconds: 60,
      videoId: await ids.row('AudioVideo'),
      labelCode: `U-${n}`,
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, labelCode: `${String(b.labelCode)}X` }),
  },
  bsExhibition: {
    make: async (n, ids) => ({
      exhType: 2,
      title: `样例展览${n}`,
      cover: [await ids.upload('bsExhibition', 'image'), await ids.upload('bsExhibition', 'image')],
      summary: '江南织造特展',
      content: '<p>样例正文</p>',
      showroomIds: [await ids.row('museumHall')],
      startDate: '2026-12-01',
      endDate: '2027-03-01',
      organizer: '本馆',
      coOrganizer: '南京博物院',
      curator: '王策展',
      banner: [await ids.upload('bsExhibition', 'image')],
      ticketInfo: '免费，需预约',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, endDate: '2027-06-01' }),
  },
  enExhibition: {
    make: async (n, ids) => ({
      zhId: await ids.row('bsExhibition'),
      exhType: 2,
      title: `Sample Exhibition ${n}`,
      cover: [await ids.upload('enExhibition', 'image')],
      summary: 'Jiangnan weaving',
      content: '<p>Sample text</p>',
      showroomIds: [],
      startDate: '2026-12-01',
      endDate: '',
      organizer: 'The Museum',
      coOrganizer: '',
      curator: 'Wang',
      banner: [await ids.upload('enExhibition', 'image')],
      ticketInfo: 'Free',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)} (revised)` }),
  },
  bsDigitalExhibition: {
    make: async (n, ids) => ({
      digitalType: 1,
      title: `样例数字展览${n}`,
      cover: [await ids.upload('bsDigitalExhibition', 'image')],
      summary: '全景漫游',
      content: '<p>样例正文</p>',
      url: `https://www.720yun.com/t/${n}`,
      onlineDate: '2026-10-01',
      exhibitionId: await ids.row('bsExhibition'),
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, url: 'https://pano.720yun.com/t/9' }),
  },
  enDigitalExhibition: {
    make: async (n, ids) => ({
      zhId: await ids.row('bsDigitalExhibition'),
      digitalType: 2,
      title: `Sample 3D Hall ${n}`,
      cover: [await ids.upload('enDigitalExhibition', 'image')],
      summary: '',
      content: '',
      url: `https://www.720yun.com/en/${n}`,
      onlineDate: '',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, digitalType: 1 }),
  },
  bsScience: {
    make: async (n, ids) => ({
      category: 1 + (n % 4),
      title: `样例论文${n}`,
      cover: [await ids.upload('bsScience', 'image')],
      summary: '青铜器铭文研究',
      content: '<p>样例正文</p>',
      authors: '李研究、赵研究',
      sourceName: '文物',
      publishDate: '2025-06-01',
      paperFile: [await ids.upload('bsScience', 'file', `论文${n}.pdf`)],
      keywords: '青铜器',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, authors: '李研究' }),
  },
  bsClassroom: {
    make: async (n, ids) => ({
      courseType: '1',
      title: `样例课堂${n}`,
      cover: [await ids.upload('bsClassroom', 'image')],
      summary: '认识青铜器',
      content: '<p>样例正文</p>',
      ageGroup: '小学、亲子',
      lecturer: '陈老师',
      mediaId: await ids.row('AudioVideo'),
      durationMinutes: 45,
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, ageGroup: '初中' }),
  },
  bsElecticWave: {
    make: async (n, ids) => ({
      column: '文物里的中国',
      episodeNo: n,
      title: `样例节目${n}`,
      cover: [await ids.upload('bsElecticWave', 'image')],
      summary: '一件鼎的故事',
      content: '<p>样例正文</p>',
      audioId: [await ids.upload('bsElecticWave', 'file', `节目${n}.mp3`)],
      durationSeconds: 600,
      anchor: '小周',
      transcript: '大家好',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, anchor: '小吴' }),
  },
  bsCulturalcreative: {
    make: async (n, ids) => ({
      category: '1',
      title: `样例文创${n}`,
      cover: [await ids.upload('bsCulturalcreative', 'image')],
      summary: '青铜纹样书签',
      content: '<p>样例正文</p>',
      images: [await ids.upload('bsCulturalcreative', 'image')],
      price: 39.9,
      designer: '设计部',
      spec: '10×3 cm',
      buyType: 2,
      buyLink: `https://demo-museum.cn/shop/${n}`,
      isRecommend: true,
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, buyType: 1, buyLink: '/pages/shop/detail?id=1' }),
  },
  enCulturalcreative: {
    make: async (n, ids) => ({
      zhId: await ids.row('bsCulturalcreative'),
      title: `Sample Bookmark ${n}`,
      cover: [await ids.upload('enCulturalcreative', 'image')],
      summary: 'Bronze pattern',
      content: '',
      images: [await ids.upload('enCulturalcreative', 'image')],
      price: 39.9,
      buyLink: '',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, buyLink: 'https://demo-museum.cn/en/shop/1' }),
  },
  bsRelation: {
    // One exhibition for the suite's relations, so its sort moves have neighbours.
    make: async (n, ids) => ({
      mainTable: 'bsExhibition',
      mainId: await relationMainOf(ids),
      subTable: n % 2 ? 'AudioVideo' : 'bsCulturalcreative',
      subId: await ids.row(n % 2 ? 'AudioVideo' : 'bsCulturalcreative'),
      note: '展厅播放',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, note: '改为导览视频' }),
  },
  enNews: {
    make: async (n, ids) => ({
      category: 1 + (n % 2),
      title: `Sample News ${n}`,
      cover: [await ids.upload('enNews', 'image')],
      summary: 'Opening hours',
      content: '<p>Open daily.</p>',
      source: 'The Museum',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, source: 'Press office' }),
  },
  enShowroom: {
    make: async (n, ids) => ({
      zhId: await ids.row('bsGuideShowroom'),
      title: `Sample Hall ${n}`,
      cover: [await ids.upload('enShowroom', 'image')],
      summary: 'Bronzes',
      content: '',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)} (revised)` }),
  },
  // The mini-program's own pages (issue 23, content/applet.ts).
  bsDigitalRelic: {
    make: async (n, ids) => ({
      title: `样例文物${n}`,
      era: '西周',
      material: '青铜',
      dimensions: '通高 30 厘米',
      images: [await ids.upload('bsDigitalRelic', 'image'), await ids.upload('bsDigitalRelic', 'image')],
      summary: '礼器',
      content: '<p>样例介绍</p>',
      modelUrl: `https://pano.720yun.com/t/relic${n}`,
      audioId: [await ids.upload('bsDigitalRelic', 'file', `文物${n}.mp3`)],
      audioSeconds: 90,
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, era: '东周' }),
  },
  bsVolunteerIntro: {
    make: async (n, ids) => ({
      title: `志愿者简介${n}`,
      cover: [await ids.upload('bsVolunteerIntro', 'image')],
      content: `<p>简介第 ${n} 版</p>`,
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（修订）` }),
  },
  bsVolunteerStory: {
    make: async (n, ids) => ({
      title: `样例风采${n}`,
      photos: [await ids.upload('bsVolunteerStory', 'image')],
      storyDate: '2026-11-20',
      people: '李明',
      summary: '讲解服务',
      content: '<p>样例故事</p>',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, people: '王芳' }),
  },
  // The website's and the English website's own records (issue 23; content/website.ts).
  bsArticle: {
    make: async (n, ids) => ({
      column: 1 + (n % 4),
      title: `样例文章${n}`,
      cover: [await ids.upload('bsArticle', 'image')],
      summary: '清宫里的节令',
      content: '<p>样例正文</p>',
      source: '宣教部',
      attachments: [await ids.upload('bsArticle', 'file', `制度${n}.pdf`)],
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, source: '办公室' }),
  },
  bsCourse: {
    make: async (n, ids) => ({
      // One year for every sample, so the sort moves within a year have neighbours.
      year: 1959,
      eventDate: '1959-10-01',
      title: `样例大事${n}`,
      summary: '新馆落成开放',
      images: [await ids.upload('bsCourse', 'image')],
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, eventDate: '' }),
  },
  bsIdentify: {
    make: async (n, ids) => ({
      channel: 2,
      applicant: hanName(n),
      phone: `139${String(20_000_000 + n).slice(-8)}`,
      email: `visitor${n}@example.com`,
      relicName: `青花瓷瓶${n}`,
      category: '瓷器',
      description: '高约 30 厘米，底有六字款，家传',
      photos: [await ids.upload('bsIdentify', 'image'), await ids.upload('bsIdentify', 'image')],
    }),
    change: (b) => ({ ...b, category: '陶瓷' }),
  },
  bsIdentifyRecord: {
    // A relic brought in person: no request (a request must be accepted first; content-web tests).
    make: async (n, ids) => ({
      relicName: `铜镜${n}`,
      expertId: ids.user('staff04'),
      identifyDate: '2026-11-20',
      era: '唐',
      material: '铜',
      conclusion: 1 + (n % 4),
      opinion: '包浆自然，纹饰符合唐代特征',
      recordPhotos: [await ids.upload('bsIdentifyRecord', 'image')],
      report: [await ids.upload('bsIdentifyRecord', 'file', `报告${n}.pdf`)],
    }),
    change: (b) => ({ ...b, era: '盛唐' }),
  },
  enRelic: {
    make: async (n, ids) => ({
      title: `Sample Vase ${n}`,
      cover: [await ids.upload('enRelic', 'image')],
      summary: 'A blue-and-white vase',
      content: '<p>Sample text</p>',
      era: 'Qing Dynasty',
      material: 'Porcelain',
      dimensions: 'H. 32 cm',
      gallery: [await ids.upload('enRelic', 'image')],
      relicId: '',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, relicId: 12 }),
  },
  enActivity: {
    make: async (n, ids) => ({
      title: `Sample Workshop ${n}`,
      cover: [await ids.upload('enActivity', 'image')],
      summary: 'Rubbing workshop',
      content: '<p>Sample text</p>',
      startDate: '2026-12-05',
      endDate: '2026-12-06',
      timeText: '10:00–11:30',
      place: 'Lecture Hall, 2F',
      audience: 'Families',
      booking: 'Free, booking required',
      sort: 100 + n,
    }),
    change: (b) => ({ ...b, endDate: '' }),
  },
  // Social education activities (issue 24). An activity that started 10 minutes ago and takes
  // sign-ups (开放报名) for 2 more hours, so a sign-up, 签到, 缺席 and 取消 all hold now.
  activityType: {
    make: (n) => ({ name: `活动类型${n}`, description: '样例类型', sort: 100 + n, status: 1 }),
    change: (b) => ({ ...b, description: '样例类型（改）' }),
  },
  activity: {
    make: async (n, ids) => ({
      title: `社教活动样例${n}`,
      typeId: await ids.row('activityType'),
      cover: [await ids.upload('activity', 'image')],
      place: '学术报告厅',
      startTime: formatMuseumMinute(Date.now() - 10 * 60_000),
      endTime: formatMuseumMinute(Date.now() + 3 * 3600_000),
      signupEnd: formatMuseumMinute(Date.now() + 2 * 3600_000),
      open: true,
      total: 20 + (n % 10),
      maxPersons: 4,
      audience: '亲子家庭',
      organizer: ids.user('staff07'),
      summary: '青铜器拓片体验',
      content: '<p>活动详情</p>',
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  activitySign: {
    make: async (n, ids) => {
      const activityId = await ids.row('activity');
      return { activityId, name: hanName(n), phone: mobileOf(n), persons: 2, remark: '样例报名' };
    },
    change: (b) => b,
  },
  activityRecord: {
    make: async (n, ids) => ({
      activityId: await ids.row('activity'),
      heldDate: dutyDay(n),
      participants: 30 + n,
      summary: '活动顺利举办',
      photos: [await ids.upload('activityRecord', 'image')],
      files: [await ids.upload('activityRecord', 'file', '活动方案.pdf')],
    }),
    change: (b) => ({ ...b, participants: Number(b.participants) + 1 }),
  },
  fxItem: {
    make: async (n, ids) => ({
      name: `测试藏品${n}`,
      keeperId: await ids.row('fxPerson'),
      photos: [await ids.upload('fxItem', 'image'), await ids.upload('fxItem', 'image')],
      scan: [await ids.upload('fxItem', 'file', '扫描.pdf')],
      parts: [{ part: '盖', count: 1, kind: '1', checkerId: ids.user('staff04') }],
    }),
    change: (b) => ({
      ...b,
      parts: [...(b.parts as object[]), { part: '座', count: 2, kind: '', checkerId: '' }],
    }),
  },
  fxPerson: {
    make: (n) => ({
      name: `测试人${n}`,
      phone: `139${String(10_000_000 + n).slice(-8)}`,
      idNumber: idNumber(n),
      birthDate: '1990-05-01',
      active: true,
      level: 1 + (n % 2),
    }),
    change: (b) => ({ ...b, name: `${String(b.name)}改` }),
  },
  fxSlot: {
    // The counter grows with every record's samples: kept under the field's max of 1000.
    make: (n) => ({ label: `场次${n}`, total: 10 + (n % 900), open: true }),
    change: (b) => ({ ...b, total: Number(b.total) + 1 }),
  },
  fxBooking: {
    make: () => ({ slotId: 1, persons: 2 }),
    change: (b) => b,
  },
  fxSetting: {
    make: (n) => ({ type: 1 + (n % 2), advanceDays: 1 + (n % 30), notice: `须知${n}` }),
    change: (b) => ({ ...b, advanceDays: 7 }),
  },
  fxLog: {
    make: (n) => ({ action: `操作${n}`, result: n % 2 }),
    change: (b) => b,
  },
};
