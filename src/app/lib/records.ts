import { useCallback, useMemo } from 'react';
import type { ImportDone, RecordDetail, RecordPage, RecordRow } from '../../shared/records/api';
import type { DictOption } from '../../shared/records/system/dictionary';
import { parseCall, type RecordDef } from '../../shared/records/define';
import { ApiError, errorToast, museum, OfflineError } from './api';
import { useCachedQuery } from './cached-query';
import { submitWrite } from './offline';
import type { OutboxOp } from './outbox';

/**
 * The records engine as the app reaches it (ARCHITECTURE.md §9), for every feature that shows a
 * record: lists and details kept on the device (open offline with their last sync time, as the
 * drive does), the dictionaries every enum field draws from (kept too), writes through the
 * outbox (queued without a network, replayed with their Idempotency-Key), import and export.
 *
 * Query keys: `['records', <name>, …]` for a record's views (a write to it refreshes them all),
 * `['dict', …keys]` for option lists.
 */

export const recordKeys = {
  all: (def: RecordDef) => ['records', def.name] as const,
  list: (def: RecordDef, query: Record<string, unknown>) => ['records', def.name, 'list', query] as const,
  detail: (def: RecordDef, id: number) => ['records', def.name, 'detail', id] as const,
};

/** The path of one of a record's calls, under the museum prefix. */
export function callPath(def: RecordDef, call: string): { method: 'GET' | 'POST' | 'DELETE'; path: string } {
  const { method, name } = parseCall(call);
  return { method, path: `${def.base}/${name}` };
}

/** Query values as the URL carries them (no empty filters). */
function queryOf(q: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(q))
    if (v !== undefined && v !== null && v !== '') out[k] = v as string | number;
  return out;
}

/** The list's query as the record's call takes it (a hand-written module's own words). */
const callQuery = (def: RecordDef, query: Record<string, unknown>) =>
  queryOf(def.adapter ? def.adapter.query(query) : query);

async function fetchPage(def: RecordDef, query: Record<string, unknown>, signal?: AbortSignal) {
  const { method, path } = callPath(def, def.calls.list);
  const answer =
    method === 'POST'
      ? await museum.post<unknown>(path, callQuery(def, query), { signal, silent: true })
      : await museum.get<unknown>(path, { query: callQuery(def, query), signal, silent: true });
  return def.adapter ? def.adapter.page(answer) : (answer as RecordPage);
}

/** Queued writes of this record: drawn over its list (a deleted row is marked, a new one waits). */
export interface RecordOpMeta {
  record: string;
  action: 'create' | 'update' | 'remove' | 'transition' | 'move';
  id?: number;
  body?: Record<string, unknown>;
  label?: string;
}

export function pendingFor(def: RecordDef, ops: readonly OutboxOp[]) {
  const mine = ops.filter(
    (o) => (o.meta as RecordOpMeta | undefined)?.record === def.name && o.status !== 'done',
  );
  return {
    /** Rows with a write waiting: their id → what waits. */
    byId: new Map(
      mine.flatMap((o) => ((o.meta as RecordOpMeta).id ? [[(o.meta as RecordOpMeta).id!, o] as const] : [])),
    ),
    /** New rows waiting to be created. */
    created: mine.filter((o) => (o.meta as RecordOpMeta).action === 'create'),
  };
}

/** One page of a record's list, kept on the device. */
export function useRecordPage(def: RecordDef, query: Record<string, unknown>, enabled = true) {
  return useCachedQuery<RecordPage>({
    queryKey: recordKeys.list(def, query),
    fetch: ({ signal }) => fetchPage(def, query, signal),
    enabled,
  });
}

/**
 * Every row a query selects, page by page (a month of the duty roster for the calendar), kept on
 * the device as one view.
 */
export function useAllRows(def: RecordDef, query: Record<string, unknown>, enabled = true) {
  return useCachedQuery<RecordPage>({
    queryKey: [...recordKeys.list(def, query), 'all'],
    fetch: async ({ signal, progress }) => {
      const pageCount = 200;
      const first = await fetchPage(def, { ...query, pageCount, currentPage: 1 }, signal);
      const all: RecordPage = {
        ...first,
        list: [...first.list],
        names: {
          users: { ...first.names.users },
          depts: { ...first.names.depts },
          files: { ...first.names.files },
          refs: { ...first.names.refs },
        },
      };
      for (let page = 2; all.list.length < first.total && page <= 50; page++) {
        progress(all);
        const next = await fetchPage(def, { ...query, pageCount, currentPage: page }, signal);
        if (!next.list.length) break;
        all.list.push(...next.list);
        Object.assign(all.names.users, next.names.users);
        Object.assign(all.names.depts, next.names.depts);
        Object.assign(all.names.files!, next.names.files);
        for (const [record, titles] of Object.entries(next.names.refs ?? {}))
          all.names.refs![record] = { ...all.names.refs![record], ...titles };
      }
      return all;
    },
    enabled,
  });
}

/** One row with its names and status history, kept on the device. */
export function useRecordDetail(def: RecordDef, id: number | null) {
  return useCachedQuery<RecordDetail>({
    queryKey: recordKeys.detail(def, id ?? 0),
    fetch: async ({ signal }) => {
      const { method, path } = callPath(def, def.calls.detail);
      const answer =
        method === 'POST'
          ? await museum.post<unknown>(path, { id }, { signal, silent: true })
          : await museum.get<unknown>(path, { query: { id: id! }, signal, silent: true });
      return def.adapter ? def.adapter.detail(answer) : (answer as RecordDetail);
    },
    enabled: id !== null,
  });
}

/**
 * A write to a record through the outbox: sent at once when online (the promise then settles
 * with the server's answer, or rejects with OutboxRefusal whose `cause` holds the field errors),
 * kept and replayed later when offline. A GET write of the spec is sent to its POST twin.
 */
export function writeRecord(
  def: RecordDef,
  call: string,
  body: Record<string, unknown>,
  meta: Omit<RecordOpMeta, 'record'> & { label: string },
) {
  const { path } = callPath(def, call);
  return submitWrite({
    client: 'museum',
    path,
    body,
    label: meta.label,
    kind: `records.${def.name}.${meta.action}`,
    scope: [[...recordKeys.all(def)]],
    meta: { ...meta, record: def.name } satisfies RecordOpMeta,
  });
}

/** The per-field words of a refused write (`result.fields`), if the server gave them. */
export function fieldErrorsOf(err: unknown): Record<string, string> | null {
  const cause = err instanceof ApiError ? err : (err as { cause?: unknown } | null)?.cause;
  const extra =
    cause instanceof ApiError ? (cause.extra as { fields?: Record<string, string> } | null) : null;
  return extra?.fields ?? null;
}

/** The options of several dictionaries, kept on the device (forms and filters work offline). */
export function useDictionaries(keys: readonly string[]) {
  const sorted = useMemo(() => [...new Set(keys)].sort(), [keys]);
  const view = useCachedQuery<Record<string, DictOption[]>>({
    queryKey: ['dict', ...sorted],
    fetch: ({ signal }) =>
      museum.post<Record<string, DictOption[]>>(
        '/collectDict/getSelectDataByArr',
        { keys: sorted },
        { signal, silent: true },
      ),
    enabled: sorted.length > 0,
  });
  const data = view.data;
  const labelOf = useCallback(
    (key: string, value: unknown) =>
      data?.[key]?.find((o) => o.value === value)?.label ?? String(value ?? ''),
    [data],
  );
  return { view, options: data ?? {}, labelOf };
}

/**
 * The choices of a record's text filters that its hand-written calls offer (a log's modules and
 * actions: `adapter.choices`), by field; kept on the device like the dictionaries.
 */
export function useFilterChoices(def: RecordDef) {
  const choices = def.adapter?.choices;
  const view = useCachedQuery<Record<string, readonly { value: string; label: string }[]>>({
    queryKey: ['records', def.name, 'choices'],
    fetch: async ({ signal }) => {
      const { method, path } = callPath(def, choices!.call);
      const answer =
        method === 'POST'
          ? await museum.post<unknown>(path, {}, { signal, silent: true })
          : await museum.get<unknown>(path, { signal, silent: true });
      return choices!.pick(answer);
    },
    enabled: Boolean(choices),
    toastErrors: false,
  });
  return view.data ?? {};
}

/** Saves a blob the server built (an export, a template) under its name. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads a record's export of the rows the filters select. */
export async function exportRecord(def: RecordDef, query: Record<string, unknown>) {
  const { method, path } = callPath(def, def.calls.export!);
  const q = { ...query };
  delete q.currentPage;
  delete q.pageCount;
  try {
    const blob =
      method === 'POST'
        ? await museum.post<Blob>(path, callQuery(def, q))
        : await museum.get<Blob>(path, { query: callQuery(def, q) });
    saveBlob(blob, `${def.title}.xlsx`);
  } catch (err) {
    if (err instanceof OfflineError) errorToast(err.message);
  }
}

/** Downloads the import template of a scheme (a record's name, or addressBook, sysUser). */
export async function downloadTemplate(schemeId: string, title: string) {
  try {
    const blob = await museum.get<Blob>('/scheme/downloadTemplate', { query: { schemeId } });
    saveBlob(blob, `${title}导入模板.xlsx`);
  } catch (err) {
    if (err instanceof OfflineError) errorToast(err.message);
  }
}

/**
 * Sends a filled template (scheme/batchImport). Resolves with the counts; rejects with an
 * ApiError whose code 1004 carries `extra.lines`, one per bad row and field (the caller shows
 * them in the batch-import error dialog, spec §8). Nothing is toasted here.
 */
export function importRecords(schemeId: string, file: File, type: 1 | 2, idempotencyKey: string) {
  const form = new FormData();
  form.append('schemeId', schemeId);
  form.append('type', String(type));
  form.append('file', file, file.name);
  return museum.post<ImportDone>('/scheme/batchImport', form, { silent: true, idempotencyKey });
}

export type { RecordRow };
