import { describe, expect, it } from 'vitest';
import { classify, type RequestFacts } from './classify';

const facts = (method: string, route: string, more: Partial<RequestFacts> = {}): RequestFacts => ({
  method,
  route,
  query: {},
  body: {},
  mutation: false,
  audit: undefined,
  ...more,
});
const what = (f: RequestFacts) => {
  const k = classify(f);
  return k ? `${k.action} ${k.module} ${k.table ?? '-'}${k.onlyWhenDone ? ' (完成时)' : ''}` : null;
};

describe('which calls the system log records, and as what', () => {
  it.each([
    ['POST', '/singleMuseum/login/webLogin', '登录 登录 user'],
    ['POST', '/singleMuseum/login/logout', '登出 登录 user'],
    ['POST', '/singleMuseum/login/getRoleFunction', null],
    ['GET', '/singleMuseum/login/userInfo', null],
    ['POST', '/singleMuseum/personal/password', '修改 个人中心 user'],
    ['POST', '/singleMuseum/sysUser/save', '新增 人员管理 user'],
    ['POST', '/singleMuseum/sysUser/resetPassword', '修改 人员管理 user'],
    ['POST', '/singleMuseum/sysRole/setMenus', '修改 角色设置 role'],
    ['POST', '/singleMuseum/sysDept/delete', '删除 组织架构 department'],
    ['POST', '/singleMuseum/workflowInst/approval', '审批 审批 approval_request'],
    ['POST', '/singleMuseum/workflowInst/cancel', '审批 审批 approval_request'],
    ['POST', '/singleMuseum/workflowInst/deliver', '审批 审批 approval_request'],
    ['POST', '/singleMuseum/workflowInst/start', '新增 审批 approval_request'],
    ['POST', '/singleMuseum/workflowInst/commentDel', '删除 审批 approval_request'],
    ['POST', '/singleMuseum/workflowInst/data', null],
    ['POST', '/singleMuseum/notice/list', null],
    ['POST', '/singleMuseum/notice/read', '修改 通知 notice'],
    ['POST', '/singleMuseum/projectTask/addProjectConmentsList', '新增 项目 project_task'],
    ['POST', '/singleMuseum/projectTask/getProjectConmentsList', null],
    ['POST', '/singleMuseum/projectTask/taskGetFileList', null],
    ['POST', '/singleMuseum/projectFile/checkFileInProject', null],
    ['POST', '/singleMuseum/projectBlock/rename', '修改 项目 project_block'],
    ['GET', '/singleMuseum/bs/bsAddressBook/delete', '删除 通讯录 address_book'],
    ['GET', '/singleMuseum/bs/bsAddressBook/list', null],
    ['GET', '/singleMuseum/attendance/month/export', '导出 考勤 -'],
    ['GET', '/singleMuseum/sysLog/export', '导出 系统日志 system_log'],
    ['GET', '/singleMuseum/sysLog/pageList', null],
    ['POST', '/singleMuseum/attach/chunk', '新增 附件 attachment (完成时)'],
    ['GET', '/singleMuseum/attach/chunk', null],
    ['DELETE', '/singleMuseum/attach/chunk', '删除 附件 attachment'],
    ['POST', '/wangpan/filetransfer/uploadfile', '新增 网盘 user_file (完成时)'],
    ['GET', '/wangpan/filetransfer/uploadfile', '新增 网盘 user_file (完成时)'],
    ['POST', '/wangpan/file/createfile', '新增 网盘 user_file'],
    ['POST', '/wangpan/file/renamefile', '修改 网盘 user_file'],
    ['POST', '/wangpan/file/batchdeletefile', '删除 网盘 user_file'],
    ['POST', '/wangpan/recoveryfile/list', null],
    ['POST', '/wangpan/recoveryfile/restorefile', '修改 回收站 recovery'],
    ['POST', '/wangpan/share/sharefile', '新增 分享 share'],
    ['POST', '/wangpan/share/savesharefile', '新增 分享 share'],
    ['POST', '/wangpan/share/cancelshare', '删除 分享 share'],
    ['GET', '/wangpan/share/checkextractioncode', null],
    ['POST', '/wangpan/admin/setstorage', '修改 存储管理 storage_quota'],
    ['POST', '/wangpan/office/previewofficefile', null],
    ['GET', '/wangpan/filetransfer/downloadfile', null],
    ['GET', '/wangpan/filetransfer/preview', null],
  ] as const)('%s %s → %s', (method, route, expected) => {
    expect(what(facts(method, route))).toBe(expected);
  });

  it('logs a download only through a share', () => {
    const route = '/wangpan/filetransfer/downloadfile';
    expect(what(facts('GET', route, { query: { shareBatchNum: 'abc', userFileId: '5' } }))).toBe(
      '下载 分享 user_file',
    );
    expect(what(facts('GET', route, { query: { shareBatchNum: '' } }))).toBeNull();
  });

  it('logs a GET that says it changes something', () => {
    expect(what(facts('GET', '/singleMuseum/attach/deleteAttachment', { mutation: true }))).toBe(
      '删除 附件 attachment',
    );
    expect(what(facts('GET', '/singleMuseum/v2/recruit/pass', { mutation: true }))).toBe('修改 志愿者 -');
    expect(what(facts('GET', '/singleMuseum/v2/recruit/pass'))).toBeNull();
  });

  it("takes a route's own word first", () => {
    expect(what(facts('POST', '/singleMuseum/sysUser/save', { audit: false }))).toBeNull();
    expect(
      what(
        facts('GET', '/singleMuseum/v2/recruit/pass', { audit: { action: '审批', table: 'recruit_user' } }),
      ),
    ).toBe('审批 志愿者 recruit_user');
  });

  it('logs the Document Server only when it saves', () => {
    const route = '/wangpan/office/callback';
    expect(what(facts('POST', route, { body: { status: 1 } }))).toBeNull();
    expect(what(facts('POST', route, { body: { status: 2 } }))).toBe('修改 在线文档 user_file');
    expect(what(facts('POST', route, { body: { status: 6 } }))).toBe('修改 在线文档 user_file');
  });

  it('names modules of calls not built yet by their prefix, and unknown ones by their first segment', () => {
    expect(what(facts('POST', '/singleMuseum/book/bsBookInfo/add'))).toBe('新增 图书 -');
    expect(what(facts('POST', '/singleMuseum/AppointSetting/save'))).toBe('新增 预约 -');
    expect(what(facts('POST', '/singleMuseum/appointTeamOrder/approve'))).toBe('修改 预约 -');
    expect(what(facts('POST', '/singleMuseum/bs/bsCarousel/update'))).toBe('修改 内容管理 -');
    expect(what(facts('POST', '/singleMuseum/somethingNew/save'))).toBe('新增 somethingNew -');
    expect(what(facts('DELETE', '/singleMuseum/AppointSettingTimes/delete'))).toBe('删除 预约 -');
  });

  it('reads a name by its words, not its letters', () => {
    expect(what(facts('POST', '/singleMuseum/v2/recruit/updateModel'))).toBe('修改 志愿者 -');
    expect(what(facts('POST', '/singleMuseum/v2/recruit/delay'))).toBe('修改 志愿者 -');
    expect(what(facts('POST', '/singleMuseum/book/bsBookApproval/applyDeferredDays'))).toBe('新增 图书 -');
    expect(what(facts('POST', '/singleMuseum/bs/bsAddressBook/addressUpdate'))).toBe(
      '修改 通讯录 address_book',
    );
    expect(what(facts('POST', '/singleMuseum/wkDynamic/newsEdit'))).toBe('修改 工作动态 -');
    expect(what(facts('POST', '/singleMuseum/v2/exhibitionDetailUser/check'))).toBe('修改 志愿者 -');
    expect(what(facts('POST', '/wangpan/recoveryfile/deleterecoveryfile'))).toBe('删除 回收站 recovery');
  });
});
