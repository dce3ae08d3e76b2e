import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/shared/workflow/definition';
import { definitionErrors } from '../../src/shared/workflow/validate';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * Approval templates (issue 8 groundwork): administrators of 审批设置 save drafts and publish
 * numbered versions; a draft without an approver is refused with its reasons; 发起审批 offers a
 * person only enabled, published templates whose starter scope includes them.
 */

let s: TestServer;
let admin: string;
let staff02: string; // 办公室
let staff04: string; // 典藏部

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
  staff02 = await s.login('staff02');
  staff04 = await s.login('staff04');
});
afterAll(() => s.close());

const call = (token: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  s
    .call(method, `${M}/workflowTemplate/${path}`, method === 'POST' ? { token, body } : { token })
    .then((r) => ({ status: r.status, ...r.body }));

function flow(extra: Partial<WorkflowDefinition> = {}, withApprover = true): WorkflowDefinition {
  return {
    fields: [{ id: 'days', type: 'number', label: '天数', required: true }],
    directorMaxLevel: 3,
    flowPermission: [],
    nodeConfig: {
      type: 0,
      nodeName: '发起人',
      childNode: withApprover
        ? {
            type: 1,
            nodeName: '直接主管',
            settype: 2,
            examineMode: 1,
            directorLevel: 1,
            nodeUserList: [],
            deptRoleList: [],
            childNode: null,
          }
        : null,
    },
    ...extra,
  };
}

const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe('approval templates', () => {
  it('need the 审批设置 grant to manage; anyone reads what they may start', async () => {
    for (const [m, p, b] of [
      ['GET', 'list'],
      ['GET', 'detail?id=1'],
      ['POST', 'save', { name: 'x', category: 'normal', definition: flow() }],
      ['POST', 'publish', { id: 1 }],
      ['POST', 'enable', { id: 1, enabled: 0 }],
    ] as const) {
      const res = await call(staff02, m, p, b);
      expect(res.code, p).toBe(1005);
    }
    expect((await call(staff02, 'GET', 'startable')).success).toBe(true);
  });

  it('save a draft, publish version 1, and start it', async () => {
    const saved = await call(admin, 'POST', 'save', {
      name: '加班',
      icon: 'calendar',
      groupName: '人事',
      category: 'normal',
      definition: flow(),
    });
    expect(saved.success).toBe(true);
    const id = saved.result.id;
    const rowOf = async () =>
      (await call(admin, 'GET', 'list')).result.find((r: { name: string }) => r.name === '加班');
    let row = await rowOf();
    expect(row).toMatchObject({ id, name: '加班', version: null, draftChanged: true, enabled: 1 });
    expect(names((await call(staff02, 'GET', 'startable')).result)).not.toContain('加班');

    expect((await call(admin, 'POST', 'publish', { id })).result).toEqual({ version: 1 });
    row = await rowOf();
    expect(row).toMatchObject({ version: 1, draftChanged: false });
    const startable = (await call(staff02, 'GET', 'startable')).result;
    expect(startable.filter((t: { id: number }) => t.id === id)).toEqual([
      {
        id,
        name: '加班',
        icon: 'calendar',
        groupName: '人事',
        category: 'normal',
        version: 1,
        fields: flow().fields,
      },
    ]);

    // A new draft leaves version 1 in force until it is published as version 2.
    const v2 = flow({ fields: [{ id: 'reason', type: 'textarea', label: '事由', required: false }] });
    await call(admin, 'POST', 'save', { id, name: '加班', category: 'normal', definition: v2 });
    const mine = async () =>
      (await call(staff02, 'GET', 'startable')).result.find((t: { id: number }) => t.id === id);
    expect(await mine()).toMatchObject({ version: 1 });
    expect((await call(admin, 'GET', `detail?id=${id}`)).result).toMatchObject({
      version: 1,
      draftChanged: true,
      definition: v2,
    });
    expect((await call(admin, 'POST', 'publish', { id })).result).toEqual({ version: 2 });
    const v1 = await s.db
      .selectFrom('workflow_version')
      .select('definition')
      .where('template_id', '=', id)
      .where('version', '=', 1)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(v1.definition)).toEqual(flow());
  });

  it('offers a template only inside its starter scope, and only while enabled', async () => {
    const dept = await s.db
      .selectFrom('department')
      .select('id')
      .where('name', '=', '典藏部')
      .executeTakeFirstOrThrow();
    const { result } = await call(admin, 'POST', 'save', {
      name: '藏品借展',
      category: 'normal',
      definition: flow({ flowPermission: [{ targetId: dept.id, type: 3, name: '典藏部' }] }),
    });
    await call(admin, 'POST', 'publish', { id: result.id });
    expect(names((await call(staff04, 'GET', 'startable')).result)).toContain('藏品借展');
    expect(names((await call(staff02, 'GET', 'startable')).result)).not.toContain('藏品借展');

    await call(admin, 'POST', 'enable', { id: result.id, enabled: 0 });
    expect(names((await call(staff04, 'GET', 'startable')).result)).not.toContain('藏品借展');
    await call(admin, 'POST', 'enable', { id: result.id, enabled: 1 });
    expect(names((await call(staff04, 'GET', 'startable')).result)).toContain('藏品借展');
  });

  it('seeds the museum’s six templates, published, valid and open to everyone', async () => {
    const seeded = ['请假', '出差', '报销', '用印', '采购', '文物出入库'];
    const rows = (await call(admin, 'GET', 'list')).result.filter((r: { name: string }) =>
      seeded.includes(r.name),
    );
    expect(names(rows)).toEqual(seeded);
    for (const r of rows) expect(r, r.name).toMatchObject({ version: 1, draftChanged: false, enabled: 1 });
    for (const r of rows) {
      const { definition } = (await call(admin, 'GET', `detail?id=${r.id}`)).result;
      expect(definitionErrors(definition), r.name).toEqual([]);
    }
    expect(names((await call(staff04, 'GET', 'startable')).result)).toEqual(expect.arrayContaining(seeded));
  });

  it('refuses to publish a flow without an approver, and says why', async () => {
    const { result } = await call(admin, 'POST', 'save', {
      name: '空流程',
      category: 'gongwen',
      definition: flow({}, false),
    });
    const res = await call(admin, 'POST', 'publish', { id: result.id });
    expect(res).toMatchObject({ success: false, message: '流程设置不完整，无法发布' });
    expect(res.result.problems).toEqual([{ nodeName: '发起人', message: '流程中至少需要 1 个审批人' }]);
    const [row] = (await call(admin, 'GET', 'list')).result.filter(
      (r: { name: string }) => r.name === '空流程',
    );
    expect(row).toMatchObject({ version: null, category: 'gongwen' });
  });

  it('refuses bad input with Chinese messages', async () => {
    const bad = async (body: unknown, message: string | RegExp) => {
      const res = await call(admin, 'POST', 'save', body);
      expect(res.success, JSON.stringify(body).slice(0, 80)).toBe(false);
      expect(res.message).toMatch(message);
    };
    await bad({ name: '  ', category: 'normal', definition: flow() }, '请输入模板名称');
    await bad({ name: 'x'.repeat(31), category: 'normal', definition: flow() }, '模板名称最多 30 个字');
    await bad({ name: '外出', category: 'other', definition: flow() }, '请选择模板类别');
    await bad({ name: '加班', category: 'normal', definition: flow() }, '已存在同名的审批模板，请换一个名称');
    await bad(
      { name: '外出', category: 'normal', definition: { ...flow(), nodeConfig: { type: 1 } } },
      /[\u4e00-\u9fa5]/,
    );
    await bad({ id: 99999, name: '外出', category: 'normal', definition: flow() }, '审批模板不存在');
    for (const q of ['detail?id=0', 'detail?id=abc', 'detail?id=99999']) {
      const res = await call(admin, 'GET', q);
      expect(res.success, q).toBe(false);
      expect(res.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await call(admin, 'POST', 'publish', { id: 99999 })).message).toBe('审批模板不存在');
  });
});
