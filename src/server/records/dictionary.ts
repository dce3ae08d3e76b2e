import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SEED_DICTIONARIES } from '../../shared/records/dictionaries';
import { DictOption, SelectByArrBody, SelectByKeyQuery } from '../../shared/records/system/dictionary';
import { serializeOn } from '../db/dialect';
import type { Db } from '../db/index';
import * as repo from './records.repo';

/**
 * The dictionaries' two read calls of the spec (office.md §7 "Dictionary"), for every signed-in
 * person: `GET collectDict/getSelectDataByKey?key=` answers one dictionary's enabled items as
 * [{label, value, parentValue}], `POST collectDict/getSelectDataByArr {keys}` several as
 * {key: [...]} (a form asks once for all its fields). An unknown key answers an empty list, as a
 * dictionary with no items would: a form then offers nothing rather than failing.
 * Keys and items are edited through the generic record calls (collectDict/*, collectDictItem/*).
 */
export function dictionaryRoutes(app: FastifyInstance, deps: { db: Db }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const options = async (keys: readonly string[]) => {
    const rows = await repo.dictItems(deps.db, keys, true);
    const out: Record<string, DictOption[]> = Object.fromEntries(keys.map((k) => [k, []]));
    for (const i of rows)
      out[i.dict_key]!.push({ label: i.label, value: i.value, parentValue: i.parent_value });
    return out;
  };
  r.get(
    '/collectDict/getSelectDataByKey',
    {
      schema: { querystring: SelectByKeyQuery },
      config: { summary: '字典 · 读取一个字典的选项', answer: z.array(DictOption) },
    },
    async (req) => (await options([req.query.key]))[req.query.key]!,
  );
  r.post(
    '/collectDict/getSelectDataByArr',
    {
      schema: { body: SelectByArrBody },
      config: { summary: '字典 · 一次读取多个字典的选项', answer: z.record(z.string(), z.array(DictOption)) },
    },
    async (req) => options([...new Set(req.body.keys)]),
  );
}

/**
 * Adds the seeded dictionaries and items that are missing (shared/records/dictionaries.ts), at
 * every start. Only missing ones, by key and by (key, value): what an administrator renamed,
 * re-sorted or disabled stays as they left it. Answers how many items were added.
 */
export async function seedDictionaries(db: Db, now = Date.now()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Several instances starting at once (README "Scale-out") seed in turn: the second sees the
    // first's rows instead of inserting them again into a unique key.
    await serializeOn(trx, ['seed-dictionaries']);
    const keys = await repo.dictTypeKeys(trx);
    const items = await repo.dictItemKeys(trx);
    let added = 0;
    for (const d of SEED_DICTIONARIES) {
      if (!keys.has(d.key))
        await repo.insertDictType(trx, { dict_key: d.key, dict_name: d.name, remark: d.remark }, now);
      for (const [i, item] of d.items.entries()) {
        if (items.has(`${d.key}\u0000${item.value}`)) continue;
        await repo.insertDictItem(
          trx,
          {
            dict_key: d.key,
            label: item.label,
            value: item.value,
            parent_value: item.parent ?? '',
            sort: (i + 1) * 10,
          },
          now,
        );
        added++;
      }
    }
    return added;
  });
}
