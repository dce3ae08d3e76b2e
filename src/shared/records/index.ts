import type { RecordDef } from './define';
import { dutyRoster } from './office/duty-roster';
import { wkDynamic } from './office/wk-dynamic';
import { dictItem, dictType } from './system/dictionary';

/**
 * Every declared record. The server registers the calls of each, the generic API test suite
 * runs against each (tests/server/records-generic.test.ts), the OpenAPI document describes
 * each. Declaring a record means: its file under `records/<module>/`, a line here, a frozen
 * migration for its table, and a sample in tests/server/records-samples.ts.
 */
export const RECORDS: readonly RecordDef[] = [dictType, dictItem, dutyRoster, wkDynamic];

/** Records with rich text: their editor images are attachments of the record (attach tables). */
export const RICH_TEXT_RECORDS: readonly string[] = RECORDS.filter((r) =>
  Object.values(r.fields).some((f) => f.kind === 'rich'),
).map((r) => r.name);

export function recordByName(name: string): RecordDef | undefined {
  return RECORDS.find((r) => r.name === name);
}

export { dictItem, dictType, dutyRoster, wkDynamic };
