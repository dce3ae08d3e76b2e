import { describe, expect, it, vi } from 'vitest';

vi.mock('@mantine/notifications', () => ({ notifications: { show: () => undefined } }));
vi.mock('@mantine/modals', () => ({ modals: { openConfirmModal: () => undefined } }));
vi.mock('../../src/app/lib/session', () => ({
  readToken: () => undefined,
  session: {
    clear: () => undefined,
    get: () => undefined,
    isSignedIn: () => false,
    subscribe: () => () => undefined,
  },
  useSession: () => undefined,
}));

const { ApiError } = await import('../../src/app/lib/api');
const { OutboxRefusal } = await import('../../src/app/lib/outbox');
const { callPath, fieldErrorsOf, pendingFor, recordKeys } = await import('../../src/app/lib/records');
const { dutyRoster, wkDynamic } = await import('../../src/shared/records/index');

/**
 * The app's side of the records engine (lib/records.ts): where a call goes (a spec GET write is
 * sent to its POST twin by the outbox), which queued writes a list draws over its rows, and the
 * per-field words of a refusal.
 */

const op = (meta: unknown, status = 'pending') => ({ meta, status }) as never;

describe('records in the app', () => {
  it('sends each call to its spec path; views of a record share its prefix', () => {
    expect(callPath(dutyRoster, dutyRoster.calls.remove!)).toEqual({
      method: 'GET',
      path: '/bs/bsDutyRoster/delete',
    });
    expect(callPath(wkDynamic, 'POST publish')).toEqual({ method: 'POST', path: '/wkDynamic/publish' });
    expect(recordKeys.list(dutyRoster, { a: 1 }).slice(0, 2)).toEqual(recordKeys.all(dutyRoster));
  });

  it('marks the rows a queued write waits for, and lists queued new rows', () => {
    const ops = [
      op({ record: 'dutyRoster', action: 'remove', id: 7 }),
      op({ record: 'dutyRoster', action: 'create', label: '新增值班表：2027-01-01 值班' }),
      op({ record: 'wkDynamic', action: 'update', id: 7 }),
      op({ record: 'dutyRoster', action: 'update', id: 8 }, 'done'),
    ];
    const p = pendingFor(dutyRoster, ops);
    expect([...p.byId.keys()]).toEqual([7]);
    expect(p.created).toHaveLength(1);
  });

  it('reads the per-field words of a refused write, directly or through the outbox', () => {
    const err = new ApiError('值班电话须为…', 1010, 200, { fields: { dutyPhone: '值班电话须为…' } });
    expect(fieldErrorsOf(err)).toEqual({ dutyPhone: '值班电话须为…' });
    expect(fieldErrorsOf(new OutboxRefusal('x', err))).toEqual({ dutyPhone: '值班电话须为…' });
    expect(fieldErrorsOf(new ApiError('网络', -1, 0))).toBeNull();
  });
});
