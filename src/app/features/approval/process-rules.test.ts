import { describe, expect, it } from 'vitest';
import {
  listQuery,
  modeOf,
  panelButtons,
  parseActvityId,
  PROCESS_ROUTES,
  reasonProblem,
} from './process-rules';

describe('panel buttons (spec §4)', () => {
  it.each([
    ['mystart', 1, 0, false, ['cancel', 'comment']],
    ['mystart', 1, 1, false, ['comment']],
    ['mystart', 6, 1, false, ['print', 'comment']],
    ['mystart', 3, 1, false, ['comment']],
    ['mystart', 4, 1, false, ['comment']],
    ['pending', 1, 1, false, ['comment', 'transfer', 'refuse', 'agree']],
    ['pending', 1, 1, true, ['comment']],
    ['pending', 6, 1, false, ['print', 'comment']],
    ['pending', 3, 1, false, ['comment']],
    ['pending', 4, 1, false, ['comment']],
    ['copy', 1, 1, false, ['comment']],
    ['copy', 6, 1, false, ['print', 'comment']],
    ['done', 1, 1, false, ['comment']],
    ['done', 6, 1, false, ['print', 'comment']],
    ['done', 3, 1, false, ['comment']],
  ] as const)('%s, status %i, isCancel %i, queued %s', (mode, status, isCancel, queued, want) => {
    expect(panelButtons(mode, status, isCancel, queued)).toEqual(want);
  });

  it('never offers agree, refuse or transfer outside pending, nor cancel outside mystart', () => {
    for (const mode of ['mystart', 'copy', 'done'] as const)
      for (const s of [1, 3, 4, 6]) {
        const b = panelButtons(mode, s, 0);
        expect(b).not.toContain('agree');
        expect(b).not.toContain('transfer');
        if (mode !== 'mystart') expect(b).not.toContain('cancel');
      }
  });

  it('公文列表 opens read-only', () => {
    expect(modeOf('list')).toBe('done');
    expect(modeOf('pending')).toBe('pending');
  });
});

describe('list query', () => {
  const pending = PROCESS_ROUTES['/approve/process-pending']!;
  const gongwen = PROCESS_ROUTES['/gongwen/process-list']!;
  it('asks for the route state and category, leaving empty filters out', () => {
    // /approve lists ask for every category (no category), /gongwen lists for 公文.
    expect(listQuery(pending, { keyword: '  报销 ', status: '', templateId: '', page: 2 })).toEqual({
      state: 'pending',
      keyword: '报销',
      currentPage: 2,
      pageCount: 15,
    });
    expect(listQuery(gongwen, { keyword: '', status: '6', templateId: '12', page: 1 })).toMatchObject({
      state: 'list',
      category: 'gongwen',
      status: 6,
      templateId: 12,
    });
  });
  it('drops filters that are not a status or an id, and bad pages', () => {
    const q = listQuery(pending, { keyword: '', status: '5', templateId: 'x', page: 0 });
    expect(q).not.toHaveProperty('status');
    expect(q).not.toHaveProperty('templateId');
    expect(q.currentPage).toBe(1);
    expect(listQuery(pending, { keyword: '', status: '2', templateId: '-3', page: NaN })).toEqual(
      listQuery(pending, { keyword: '', status: '', templateId: '', page: 1 }),
    );
  });
  it('every /gongwen route lists exactly 公文; every /approve route every category', () => {
    for (const [path, r] of Object.entries(PROCESS_ROUTES))
      expect(r.category).toBe(path.startsWith('/gongwen') ? 'gongwen' : undefined);
  });
});

describe('actvityId and reasons', () => {
  it('parses only positive ids', () => {
    expect(parseActvityId('42')).toBe(42);
    expect(parseActvityId(7)).toBe(7);
    for (const bad of ['', '0', '-1', '1.5', 'abc', '99999999999999999', undefined, null])
      expect(parseActvityId(bad)).toBeNull();
  });
  it('requires a reason but for agree, at most 200 characters', () => {
    expect(reasonProblem('agree', '', 200)).toBeNull();
    for (const a of ['refuse', 'cancel', 'comment'] as const) {
      expect(reasonProblem(a, '  ', 200)).toBe('必填');
      expect(reasonProblem(a, '好', 200)).toBeNull();
    }
    expect(reasonProblem('agree', 'x'.repeat(201), 200)).toBe('最多 200 个字');
    expect(reasonProblem('refuse', 'x'.repeat(200), 200)).toBeNull();
  });
});
