/**
 * The reservation statistics' shape and words (records-design §7.4 stats, S25: what museums
 * report): `dayStat` … `yearStat` answer one `ReservationStat`. Pure, shared by the server and
 * a later chart page.
 */

export interface ReservationStat {
  /** The buckets: a day's slots ('09:00–11:00'), a week's or month's days, a year's months. */
  labels: string[];
  /** Places of the open tickets. */
  capacity: number[];
  /** Individual persons whose booking stands (not cancelled or voided). */
  booked: number[];
  /** Individual visitors admitted, plus the people of teams admitted (their 实到人数). */
  entered: number[];
  /** Individual visitors who never came, plus the people of teams that never came. */
  noShow: number[];
  /** Individual visitors whose booking was cancelled or voided. */
  cancelled: number[];
  /** People of approved teams (已通过, 已入馆, 已失约). */
  teamPersons: number[];
  /** Admitted visitors with a resident ID, by the region its first two digits name. */
  byProvince: { code: string; name: string; count: number }[];
  /** The same visitors by age band (their birth year against the visit's year). */
  byAgeBand: { band: string; count: number }[];
  /** The same visitors by gender (the ID's 17th digit: odd 男, even 女). */
  byGender: { gender: '男' | '女'; count: number }[];
}

/** GB/T 2260's provinces by the first two digits of a resident ID. */
export const PROVINCES: Readonly<Record<string, string>> = {
  '11': '北京',
  '12': '天津',
  '13': '河北',
  '14': '山西',
  '15': '内蒙古',
  '21': '辽宁',
  '22': '吉林',
  '23': '黑龙江',
  '31': '上海',
  '32': '江苏',
  '33': '浙江',
  '34': '安徽',
  '35': '福建',
  '36': '江西',
  '37': '山东',
  '41': '河南',
  '42': '湖北',
  '43': '湖南',
  '44': '广东',
  '45': '广西',
  '46': '海南',
  '50': '重庆',
  '51': '四川',
  '52': '贵州',
  '53': '云南',
  '54': '西藏',
  '61': '陕西',
  '62': '甘肃',
  '63': '青海',
  '64': '宁夏',
  '65': '新疆',
  '71': '台湾',
  '81': '香港',
  '82': '澳门',
};

/** Age bands as museums report them: minors apart, then working ages and seniors. */
export const AGE_BANDS = ['未满14岁', '14–17岁', '18–34岁', '35–59岁', '60岁及以上'] as const;

export function ageBandOf(age: number): (typeof AGE_BANDS)[number] {
  if (age < 14) return '未满14岁';
  if (age < 18) return '14–17岁';
  if (age < 35) return '18–34岁';
  if (age < 60) return '35–59岁';
  return '60岁及以上';
}
