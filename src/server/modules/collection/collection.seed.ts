import type { Kysely } from 'kysely';
import type { Db } from '../../db/index';

/**
 * The demo museum's collection (README "Collection (issue 24)"): a dozen registered objects
 * across categories, levels and states, without images, so 藏品资料 and the dashboards have data.
 * Dictionary values are the census codes of shared/records/dictionaries.ts.
 */
export const DEMO_RELICS: readonly (readonly [
  no: string,
  name: string,
  category: string,
  level: string,
  era: string,
  material: string,
  preservation: string,
  source: string,
])[] = [
  ['演示总0001', '兽面纹青铜鼎', '4', '1', '西周', '青铜', '1', '6'],
  ['演示总0002', '青花缠枝莲纹梅瓶', '3', '2', '明', '瓷', '1', '2'],
  ['演示总0003', '彩绘陶俑', '2', '3', '汉', '陶', '2', '7'],
  ['演示总0004', '白玉龙纹璧', '1', '2', '战国', '玉', '1', '1'],
  ['演示总0005', '山水图轴', '10', '3', '清', '纸', '3', '2'],
  ['演示总0006', '铜镜', '4', '4', '唐', '青铜', '2', '8'],
  ['演示总0007', '开元通宝', '14', '4', '唐', '铜', '1', '9'],
  ['演示总0008', '木雕佛像', '8', '3', '宋', '木', '3', '6'],
  ['演示总0009', '粉彩花鸟纹碗', '3', '4', '清', '瓷', '1', '1'],
  ['演示总0010', '石刻墓志', '9', '5', '北魏', '石', '2', '5'],
  ['演示总0011', '铁剑', '18', '5', '汉', '铁', '3', '7'],
  ['演示总0012', '刺绣屏风', '15', '5', '清', '丝', '4', '2'],
];

export async function seedDemoCollection(db: Db, now: number) {
  const q = db as unknown as Kysely<any>;
  for (const [no, name, category, level, era, material, preservation, source] of DEMO_RELICS)
    await q
      .insertInto('bs_digitalassets_info')
      .values({
        register_no: no,
        name,
        category,
        level,
        era,
        material,
        completeness: preservation === '1' ? '1' : '2',
        preservation,
        source,
        quantity: 1,
        storage_location: '一号库房',
        create_time: now,
        update_time: now,
      })
      .execute();
}
