import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index';

/*
 * A hot query compiled once per shape and run with fresh values (issue 25). Kysely builds an
 * operation tree and compiles it to SQL at every call: about 12 µs for a one-table SELECT, and
 * about 60 µs for the first page of a folder (two parts, a union and the counts), where SQLite
 * runs the statement itself in about 10 µs. A template is compiled the first time its shape is
 * seen, per database (SQLite and PostgreSQL write parameters differently), with stand-ins for
 * the values; each run swaps the stand-ins among the compiled parameters for the values.
 *
 * Only for values that end up as bound parameters: a stand-in must not decide the query's
 * shape; whatever does (a sort column, a page size written into the SQL) is `shape`.
 * tests/server/query-template.test.ts checks a template answers as the built query.
 */

const STAND_IN = '\u0000gwy-template:';

type Scalars = Record<string, string | number>;

/**
 * `build(db, shape, values)` makes the query: `shape` holds what decides the SQL text (used as
 * is, and the template's key), `values` what is only bound (stand-ins at compile time).
 */
export function queryTemplate<S extends Scalars, V extends Scalars, R>(
  build: (db: Db, shape: S, values: V) => Compilable<R>,
): (db: Db, shape: S, values: V) => Promise<R[]> {
  const compiled = new WeakMap<Db, Map<string, CompiledQuery<R>>>();
  return async (db, shape, values) => {
    let byShape = compiled.get(db);
    if (!byShape) compiled.set(db, (byShape = new Map()));
    const key = JSON.stringify(shape);
    let template = byShape.get(key);
    if (!template) {
      const standIns = Object.fromEntries(Object.keys(values).map((k) => [k, `${STAND_IN}${k}`])) as V;
      template = build(db, shape, standIns).compile();
      // Shapes come from closed sets (sort, order, page size); bounded all the same.
      if (byShape.size >= 200) byShape.clear();
      byShape.set(key, template);
    }
    const parameters = template.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(STAND_IN) ? values[p.slice(STAND_IN.length)] : p,
    );
    const { rows } = await db.executeQuery(CompiledQuery.raw(template.sql, parameters) as CompiledQuery<R>);
    return rows;
  };
}
