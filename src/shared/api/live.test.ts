import { describe, expect, it } from 'vitest';
import { readLiveChange } from './live';

/** The live stream's change event as the client reads it (app/lib/live.ts): anything odd is null, and null rereads everything. */
const counts = {
  todoCount: 1,
  copytoCount: 2,
  total: 6,
  noticeCount: 3,
  cooperationCount: 0,
  approvalCount: 3,
};

describe('readLiveChange', () => {
  it('reads topics, with the side menu counts when they came', () => {
    expect(readLiveChange('{"topics":["notice","books"]}')).toEqual({ topics: ['notice', 'books'] });
    expect(readLiveChange(JSON.stringify({ topics: ['approval'], counts: { ...counts, extra: 9 } }))).toEqual(
      {
        topics: ['approval'],
        counts,
      },
    );
  });

  it('answers null for what the client cannot trust', () => {
    for (const data of [
      'not json',
      'null',
      '[]',
      '{}',
      '{"topics":"notice"}',
      '{"topics":["notice","weather"]}',
      JSON.stringify({ topics: ['notice'], counts: { ...counts, total: '6' } }),
      JSON.stringify({ topics: ['notice'], counts: { todoCount: 1 } }),
      JSON.stringify({ topics: ['notice'], counts: null }),
    ])
      expect(readLiveChange(data), data).toBeNull();
  });
});
