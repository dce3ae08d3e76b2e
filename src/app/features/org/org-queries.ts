import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  DeptCreate,
  DeptNode,
  DeptUpdate,
  RoleCreate,
  RoleRow,
  RoleSetMenus,
  RoleUpdate,
  UserCreate,
  UserEnable,
  UserListQuery,
  UserResetPassword,
  UserRow,
  UserUpdate,
} from '../../../shared/api/org';
import { museum } from '../../lib/api';

/** Bodies as the shared schemas output them: trimmed and defaulted, exactly what the server parses. */
type Body<T extends z.ZodType> = z.output<T>;

export interface UserPage {
  list: UserRow[];
  total: number;
}

/** The person list's page size (spec-free; 20 fits a tablet screen without scrolling far). */
export const USER_PAGE_SIZE = 20;
/** The superior picker loads one large page: the server caps pageCount at 200. */
const USER_OPTIONS_SIZE = 200;

/**
 * Every org query lives under `['org', …]`, so one invalidation after a write refreshes the user
 * list, the department member counts and the role user counts together: a user save changes all
 * three.
 */
export const orgKeys = {
  all: ['org'] as const,
  users: ['org', 'users'] as const,
  userPage: (q: UserListQuery) => ['org', 'users', 'page', q] as const,
  userOptions: ['org', 'users', 'options'] as const,
  deptTree: ['org', 'deptTree'] as const,
  roles: ['org', 'roles'] as const,
};

export function userPageQuery(q: UserListQuery) {
  return queryOptions({
    queryKey: orgKeys.userPage(q),
    queryFn: ({ signal }) => museum.get<UserPage>('/sysUser/list', { query: q, signal }),
    // Keeps the current rows on screen while the next page or filter loads, instead of a blank table.
    placeholderData: keepPreviousData,
  });
}

export function userOptionsQuery() {
  return queryOptions({
    queryKey: orgKeys.userOptions,
    queryFn: ({ signal }) =>
      museum.get<UserPage>('/sysUser/list', {
        query: { currentPage: 1, pageCount: USER_OPTIONS_SIZE },
        signal,
      }),
  });
}

export function deptTreeQuery() {
  return queryOptions({
    queryKey: orgKeys.deptTree,
    queryFn: ({ signal }) => museum.get<DeptNode[]>('/sysDept/tree', { signal }),
  });
}

export function rolesQuery() {
  return queryOptions({
    queryKey: orgKeys.roles,
    queryFn: ({ signal }) => museum.get<RoleRow[]>('/sysRole/list', { signal }),
  });
}

/** The org writes. Each takes the idempotency key of one submission attempt. */
export const orgApi = {
  createUser: (body: Body<typeof UserCreate>, idempotencyKey: string) =>
    museum.post<{ userId: number }>('/sysUser/save', body, { idempotencyKey }),
  updateUser: (body: Body<typeof UserUpdate>, idempotencyKey: string) =>
    museum.post<unknown>('/sysUser/update', body, { idempotencyKey }),
  enableUser: (body: Body<typeof UserEnable>, idempotencyKey: string) =>
    museum.post<unknown>('/sysUser/enable', body, { idempotencyKey }),
  resetPassword: (body: Body<typeof UserResetPassword>, idempotencyKey: string) =>
    museum.post<unknown>('/sysUser/resetPassword', body, { idempotencyKey }),
  createDept: (body: Body<typeof DeptCreate>, idempotencyKey: string) =>
    museum.post<{ id: number }>('/sysDept/save', body, { idempotencyKey }),
  updateDept: (body: Body<typeof DeptUpdate>, idempotencyKey: string) =>
    museum.post<unknown>('/sysDept/update', body, { idempotencyKey }),
  deleteDept: (body: { id: number }, idempotencyKey: string) =>
    museum.post<unknown>('/sysDept/delete', body, { idempotencyKey }),
  createRole: (body: Body<typeof RoleCreate>, idempotencyKey: string) =>
    museum.post<{ roleId: number }>('/sysRole/save', body, { idempotencyKey }),
  updateRole: (body: Body<typeof RoleUpdate>, idempotencyKey: string) =>
    museum.post<unknown>('/sysRole/update', body, { idempotencyKey }),
  deleteRole: (body: { id: number }, idempotencyKey: string) =>
    museum.post<unknown>('/sysRole/delete', body, { idempotencyKey }),
  setRoleMenus: (body: Body<typeof RoleSetMenus>, idempotencyKey: string) =>
    museum.post<unknown>('/sysRole/setMenus', body, { idempotencyKey }),
};

export interface KeyedVars<V> {
  vars: V;
  /** One key per submission attempt: a retried request must not apply twice. */
  key: string;
}

/**
 * A mutation over one of `orgApi`'s writes that refreshes every org query before it reports
 * success, so the caller's success toast appears over data that already shows the change.
 * Failures are already toasted by the API client; callers only stop their spinners.
 */
export function useOrgMutation<V, R>(write: (vars: V, idempotencyKey: string) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vars, key }: KeyedVars<V>) => write(vars, key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgKeys.all }),
  });
}

/** A fresh idempotency key for one submission attempt. */
export function newKey(): string {
  return crypto.randomUUID();
}
