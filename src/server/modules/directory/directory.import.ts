import { issueText } from '../../../shared/api/messages';
import { AddressBookSave } from '../../../shared/api/directory';
import type { ImportError } from '../../../shared/records/api';
import type { Db } from '../../db/index';
import type { ImportScheme } from '../../records/records.import';
import { cellText } from '../../records/cells';
import { allDepts } from '../org/org.repo';
import type { DirectoryService } from './directory.service';
import * as repo from './directory.repo';

/**
 * The staff directory's batch import (schemeId `addressBook`, 通讯录管理's grant), on the same
 * mechanism as the records' (records.import.ts): an xlsx template, every row checked with the
 * directory's own rules and words (AddressBookSave), all or nothing with 1004.
 *
 * A row whose 手机号 is a member of staff's extends that person's entry (职务, 办公电话, 邮箱, 排序,
 * 备注; their name must match, their department stays 人员管理's). Any other row is an external
 * entry (值班室, a partner's desk); an external entry with the same name and phone as a stored one
 * is updated rather than added twice, so a corrected file can be imported again.
 */

const COLUMNS = [
  {
    key: 'name',
    header: '姓名',
    required: true,
    note: '员工请与人员管理中的姓名一致；外部条目填写名称（如 安保值班室）',
  },
  { key: 'dept', header: '部门', note: '外部条目所属部门的名称；员工的部门取自人员管理，此列不填' },
  { key: 'position', header: '职务', text: true },
  { key: 'mobile', header: '手机号', text: true, note: '员工填写其登录手机号，即可补充该员工的信息' },
  { key: 'officePhone', header: '办公电话', text: true, note: '如 010-12345678' },
  { key: 'email', header: '邮箱', text: true },
  { key: 'sort', header: '排序', note: '0–9999 的整数，数字小的排在前面' },
  { key: 'remark', header: '备注', text: true },
];

const LABELS: Record<string, string> = Object.fromEntries(COLUMNS.map((c) => [c.key, c.header]));
LABELS.deptId = '部门';

export function addressBookScheme(deps: { db: Db; directory: DirectoryService }): ImportScheme {
  return {
    id: 'addressBook',
    title: '通讯录',
    perm: 'oa.addressBook',
    replaceable: false,
    hint: '通讯录导入模板：从第 2 行起每行一个人或一个外部联系方式；标 * 的列必填；员工按手机号对应。',
    columns: async () => COLUMNS,
    async run(rows, ctx) {
      const errors: ImportError[] = [];
      const [staff, depts] = await Promise.all([repo.listedStaff(deps.db), allDepts(deps.db)]);
      const staffByPhone = new Map(staff.filter((u) => u.phone).map((u) => [u.phone!, u]));
      const seen = new Map<string, number>();
      const entries: Parameters<DirectoryService['importEntries']>[1] = [];
      for (const r of rows) {
        const text = (k: string) => cellText(r.cells[k]);
        const mobile = text('mobile');
        const person = staffByPhone.get(mobile);
        const deptName = text('dept');
        const dept = deptName ? depts.filter((d) => d.name === deptName) : [];
        if (!person && deptName && dept.length !== 1) {
          errors.push({
            row: r.row,
            column: '部门',
            message: `部门“${deptName}”${dept.length ? '有重名，请联系管理员' : '不是现有部门'}`,
          });
          continue;
        }
        if (person && text('name') !== person.user_name) {
          errors.push({
            row: r.row,
            column: '姓名',
            message: `手机号 ${mobile} 是员工“${person.user_name}”的，姓名应为“${person.user_name}”`,
          });
          continue;
        }
        const parsed = AddressBookSave.safeParse({
          userId: person ? person.id : null,
          name: person ? '' : text('name'),
          mobile: person ? '' : mobile,
          deptId: person || !dept[0] ? null : dept[0].id,
          position: text('position'),
          officePhone: text('officePhone'),
          email: text('email'),
          sort: text('sort') || 0,
          remark: text('remark'),
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          errors.push({ row: r.row, column: LABELS[String(issue.path[0])] ?? '', message: issueText(issue) });
          continue;
        }
        const key = person
          ? `u${person.id}`
          : `x${parsed.data.name}\u0000${mobile}\u0000${parsed.data.officePhone}`;
        const twin = seen.get(key);
        if (twin) {
          errors.push({ row: r.row, column: '姓名', message: `与第 ${twin} 行是同一条目，请合并为一行` });
          continue;
        }
        seen.set(key, r.row);
        entries.push({ row: r.row, entry: parsed.data });
      }
      if (errors.length) return { errors };
      return deps.directory.importEntries(ctx.user.id, entries);
    },
  };
}
