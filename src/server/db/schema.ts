import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Times are integer milliseconds since the epoch on both SQLite and
 * PostgreSQL (bigint), so comparisons need no dialect-specific date functions.
 */
export interface UserTable {
  id: Generated<number>;
  account: string;
  user_name: string;
  phone: string | null;
  avatar: string | null;
  password_hash: string;
  enabled: number;
  superior_id: number | null;
  created_at: number;
  updated_at: number;
}
export interface DepartmentTable {
  id: Generated<number>;
  name: string;
  parent_id: number | null;
  sort: number;
}
export interface UserDepartmentTable {
  user_id: number;
  dept_id: number;
}
export interface RoleTable {
  id: Generated<number>;
  code: string;
  name: string;
  remark: string;
  builtin: number;
}
export interface UserRoleTable {
  user_id: number;
  role_id: number;
}
export interface RoleMenuTable {
  role_id: number;
  menu_key: string;
}
export interface SessionTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  ip: string;
}
export interface LoginAttemptTable {
  key: string;
  failures: number;
  locked_until: number;
  updated_at: number;
}
export interface IdempotencyTable {
  user_id: number;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: string | null;
  created_at: number;
}

export interface DB {
  user: UserTable;
  department: DepartmentTable;
  user_department: UserDepartmentTable;
  role: RoleTable;
  user_role: UserRoleTable;
  role_menu: RoleMenuTable;
  session: SessionTable;
  login_attempt: LoginAttemptTable;
  idempotency: IdempotencyTable;
}
