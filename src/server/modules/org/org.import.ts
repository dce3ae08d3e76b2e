import { issueText } from '../../../shared/api/messages';
import { UserCreate } from '../../../shared/api/org';
import type { ImportError } from '../../../shared/records/api';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import { cellText, splitNames } from '../../records/cells';
import type { ImportScheme } from '../../records/records.import';
import type { OrgService } from './org.service';
import * as repo from './org.repo';

/**
 * People's batch import (schemeId `sysUser`, 人员管理's grant; 系统管理 › 人员), on the records'
 * import mechanism: each row is checked by the very schema of 新增人员 (UserCreate: account,
 * name, phone, password rules), departments and roles are named as the organisation names them,
 * the 直属上级 is an existing account or one of an earlier row. All or nothing with 1004; the
 * saving (unique accounts and phones, who may grant the super-administrator role) is the org
 * service's, in one transaction.
 */

/** Each password is hashed with scrypt; this keeps one import to seconds. */
export const PEOPLE_IMPORT_MAX = 500;

const COLUMNS = [
  {
    key: 'account',
    header: '账号',
    required: true,
    text: true,
    note: '2–30 位字母或数字，用于登录，不能与已有账号重复',
  },
  { key: 'userName', header: '姓名', required: true, text: true },
  { key: 'phone', header: '手机号', text: true, note: '11 位手机号，也可用于登录' },
  { key: 'depts', header: '部门', note: '部门名称，与组织架构一致；多个部门用顿号“、”分隔' },
  { key: 'roles', header: '角色', note: '角色名称，与角色设置一致；多个用顿号分隔；不填为普通员工' },
  { key: 'superior', header: '直属上级', text: true, note: '上级的账号（可以是本文件中前面行的账号）' },
  {
    key: 'password',
    header: '初始密码',
    required: true,
    text: true,
    note: '6–20 位，至少包含数字、字母、符号中的两种；请通知本人登录后修改',
  },
];
const LABELS: Record<string, string> = {
  ...Object.fromEntries(COLUMNS.map((c) => [c.key, c.header])),
  deptIds: '部门',
  roleIds: '角色',
  superiorId: '直属上级',
};

export function peopleScheme(deps: { db: Db; org: OrgService }): ImportScheme {
  return {
    id: 'sysUser',
    title: '人员',
    perm: 'system.person',
    replaceable: false,
    hint: `人员导入模板：从第 2 行起每行一位员工，一次最多 ${PEOPLE_IMPORT_MAX} 人；标 * 的列必填。`,
    columns: async () => COLUMNS,
    async run(rows, ctx) {
      if (rows.length > PEOPLE_IMPORT_MAX)
        throw invalid(`一次最多导入 ${PEOPLE_IMPORT_MAX} 位人员，请拆分文件后分别导入`);
      const errors: ImportError[] = [];
      const [depts, roles] = await Promise.all([repo.allDepts(deps.db), repo.listRoles(deps.db)]);
      const people: Parameters<OrgService['importUsers']>[1] = [];
      const accounts = new Map<string, number>();
      const phones = new Map<string, number>();
      for (const r of rows) {
        const text = (k: string) => cellText(r.cells[k]);
        const named = (key: 'depts' | 'roles', pool: { id: number; name: string }[], what: string) => {
          const ids: number[] = [];
          for (const name of splitNames(text(key))) {
            const hit = pool.filter((x) => x.name === name);
            if (hit.length !== 1) {
              errors.push({
                row: r.row,
                column: LABELS[key]!,
                message: `${what}“${name}”${hit.length ? '有重名，请联系管理员' : '不存在'}`,
              });
              return null;
            }
            ids.push(hit[0]!.id);
          }
          return ids;
        };
        const deptIds = named('depts', depts, '部门');
        const roleIds = named('roles', roles.roles, '角色');
        if (!deptIds || !roleIds) continue;
        const parsed = UserCreate.safeParse({
          account: text('account'),
          userName: text('userName'),
          phone: text('phone'),
          password: text('password'),
          deptIds,
          roleIds,
        });
        if (!parsed.success) {
          const seen = new Set<string>();
          for (const issue of parsed.error.issues) {
            const key = String(issue.path[0]);
            if (seen.has(key)) continue;
            seen.add(key);
            errors.push({ row: r.row, column: LABELS[key] ?? key, message: issueText(issue) });
          }
          continue;
        }
        const account = parsed.data.account.toLowerCase();
        const twin = accounts.get(account) ?? (parsed.data.phone ? phones.get(parsed.data.phone) : undefined);
        if (twin) {
          errors.push({
            row: r.row,
            column: accounts.has(account) ? '账号' : '手机号',
            message: `与第 ${twin} 行重复`,
          });
          continue;
        }
        accounts.set(account, r.row);
        if (parsed.data.phone) phones.set(parsed.data.phone, r.row);
        people.push({ row: r.row, user: parsed.data, superior: text('superior') });
      }
      if (errors.length) return { errors };
      return deps.org.importUsers(ctx.user, people);
    },
  };
}
