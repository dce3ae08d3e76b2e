import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AddressBookList, AddressBookSave, AddressBookUpdate } from '../../../shared/api/directory';
import { museum } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';

/** Bodies as the shared schemas output them: trimmed and defaulted, what the server parses. */
type Body<T extends z.ZodType> = z.output<T>;

const LIST = '/bs/bsAddressBook/list';

/**
 * Every directory query lives under `['directory', …]`: an edit in 通讯录管理 refreshes the
 * admin table and the staff directory together.
 */
export const directoryKeys = {
  all: ['directory'] as const,
  book: ['directory', 'book'] as const,
  manage: ['directory', 'manage'] as const,
};

/**
 * The whole directory (a museum's staff are hundreds, not thousands), kept on the device:
 * search and department filtering run on this copy with the server's own rules, so they work
 * offline too.
 */
export function useDirectory() {
  return useCachedQuery<AddressBookList>({
    queryKey: directoryKeys.book,
    fetch: ({ signal }) => museum.get<AddressBookList>(LIST, { signal, silent: true }),
  });
}

/** 通讯录管理's table: hidden rows too. Editing needs the network, so this is not kept offline. */
export function useManagedDirectory() {
  return useQuery({
    queryKey: directoryKeys.manage,
    queryFn: ({ signal }) => museum.get<AddressBookList>(LIST, { query: { includeHidden: '1' }, signal }),
  });
}

export const directoryApi = {
  save: (body: Body<typeof AddressBookSave>, idempotencyKey: string) =>
    museum.post<{ id: number }>('/bs/bsAddressBook/save', body, { idempotencyKey }),
  update: (body: Body<typeof AddressBookUpdate>, idempotencyKey: string) =>
    museum.post<unknown>('/bs/bsAddressBook/update', body, { idempotencyKey }),
  remove: (body: { id: number }, idempotencyKey: string) =>
    museum.post<unknown>('/bs/bsAddressBook/delete', body, { idempotencyKey }),
};

/** A directory write that refreshes every directory view before it reports success. */
export function useDirectoryWrite<V, R>(write: (vars: V, idempotencyKey: string) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vars, key }: { vars: V; key: string }) => write(vars, key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: directoryKeys.all }),
  });
}
