import { museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import * as repo from './project.repo';
import { DEFAULT_BLOCKS } from './project.service';

const DAY = 86_400_000;

/**
 * The demo museum's exhibition project: 「青铜时代」特展筹备, owned by 刘洋 (陈列部) with 张国华
 * and 孙悦, its three boards and a few tasks (one overdue, one done, a checklist). Seeded
 * without collaboration items, like the rest of the demo. Runs inside seedDemo's transaction.
 */
export async function seedDemoProject(trx: Db, idOf: (account: string) => number, now: number) {
  const owner = idOf('staff05');
  const curator = idOf('staff06');
  const director = idOf('director');
  const day = (n: number) => museumDate(now + n * DAY);
  const projectId = await repo.insertProject(
    trx,
    {
      name: '「青铜时代」特展筹备',
      type: 'exhibition',
      start_date: day(-30),
      end_date: day(60),
      description: '商周青铜器专题展，展期三个月，含馆藏与借展文物。',
      owner_id: owner,
      created_by: owner,
    },
    now,
  );
  await repo.addMembers(trx, projectId, [owner, director, curator], owner, now);
  const blocks: number[] = [];
  for (const [i, name] of DEFAULT_BLOCKS.entries())
    blocks.push(await repo.insertBlock(trx, projectId, name, i, now));
  const tasks: {
    block: number;
    name: string;
    assigner: number;
    deadline: string;
    priority?: number;
    done?: boolean;
    kids?: [string, number | null, boolean][];
  }[] = [
    {
      block: 0,
      name: '确认借展文物清单',
      assigner: curator,
      deadline: day(7),
      priority: 2,
      kids: [
        ['核对馆藏文物编号', curator, true],
        ['联系借展单位', curator, false],
        ['拍照存档', null, false],
      ],
    },
    { block: 0, name: '撰写展陈大纲', assigner: owner, deadline: day(14) },
    { block: 1, name: '展厅灯光设计', assigner: curator, deadline: day(-2), priority: 3 },
    { block: 2, name: '立项报告审批', assigner: director, deadline: day(-20), done: true },
  ];
  const sorts = [0, 0, 0];
  for (const t of tasks) {
    const id = await repo.insertTask(
      trx,
      {
        project_id: projectId,
        block_id: blocks[t.block]!,
        parent_task_id: null,
        name: t.name,
        deadline: t.deadline,
        priority: t.priority ?? 1,
        assigner: t.assigner,
        sort: sorts[t.block]!++,
        created_by: owner,
      },
      now,
    );
    if (t.done) await repo.updateTask(trx, id, { collect_status: 2 }, t.assigner, now);
    await repo.insertHistory(
      trx,
      [
        {
          project_id: projectId,
          task_id: id,
          user_id: owner,
          action: `在看板「${DEFAULT_BLOCKS[t.block]}」创建了任务「${t.name}」`,
        },
      ],
      now,
    );
    for (const [i, [name, assigner, done]] of (t.kids ?? []).entries()) {
      const kid = await repo.insertTask(
        trx,
        {
          project_id: projectId,
          block_id: null,
          parent_task_id: id,
          name,
          deadline: null,
          priority: 1,
          assigner,
          sort: i,
          created_by: owner,
        },
        now,
      );
      if (done) await repo.updateTask(trx, kid, { collect_status: 2 }, curator, now);
    }
  }
}
