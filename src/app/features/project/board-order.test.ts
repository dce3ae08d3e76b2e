import { describe, expect, it } from 'vitest';
import { cardKey, columnKey, dropTarget, moveCard, parseKey, shiftBoard } from './board-order';

const card = (taskId: number, blockId: number) => ({ taskId, blockId, name: `任务${taskId}` });
const blocks = () => [
  { blockId: 1, name: '待办', tasks: [card(11, 1), card(12, 1), card(13, 1)] },
  { blockId: 2, name: '进行中', tasks: [card(21, 2)] },
  { blockId: 3, name: '完成', tasks: [] as ReturnType<typeof card>[] },
];
const ids = (bs: ReturnType<typeof blocks>) => bs.map((b) => b.tasks.map((t) => t.taskId));

describe('keys', () => {
  it('round-trip and refuse anything else', () => {
    expect(parseKey(cardKey(5))).toEqual({ kind: 'task', id: 5 });
    expect(parseKey(columnKey(7))).toEqual({ kind: 'block', id: 7 });
    for (const bad of ['x:1', 't:', 't:1a', 7, 'b:-1']) expect(parseKey(bad)).toBeNull();
  });
});

describe('dropTarget', () => {
  it('within a column takes the place of the card dropped on', () => {
    expect(dropTarget(blocks(), 11, { kind: 'task', taskId: 13, below: false })).toEqual({
      blockId: 1,
      index: 2,
    });
    expect(dropTarget(blocks(), 13, { kind: 'task', taskId: 11, below: true })).toEqual({
      blockId: 1,
      index: 0,
    });
  });
  it('in another column goes before the card, or after it on its lower half', () => {
    expect(dropTarget(blocks(), 12, { kind: 'task', taskId: 21, below: false })).toEqual({
      blockId: 2,
      index: 0,
    });
    expect(dropTarget(blocks(), 12, { kind: 'task', taskId: 21, below: true })).toEqual({
      blockId: 2,
      index: 1,
    });
  });
  it('on a column goes to its end (an empty column included)', () => {
    expect(dropTarget(blocks(), 21, { kind: 'block', blockId: 3 })).toEqual({ blockId: 3, index: 0 });
    expect(dropTarget(blocks(), 21, { kind: 'block', blockId: 1 })).toEqual({ blockId: 1, index: 3 });
    expect(dropTarget(blocks(), 11, { kind: 'block', blockId: 1 })).toEqual({ blockId: 1, index: 2 });
  });
  it('is null when nothing would change or an id is unknown', () => {
    expect(dropTarget(blocks(), 12, { kind: 'task', taskId: 12, below: true })).toBeNull();
    expect(dropTarget(blocks(), 13, { kind: 'block', blockId: 1 })).toBeNull();
    expect(dropTarget(blocks(), 99, { kind: 'block', blockId: 1 })).toBeNull();
    expect(dropTarget(blocks(), 11, { kind: 'block', blockId: 99 })).toBeNull();
    expect(dropTarget(blocks(), 11, { kind: 'task', taskId: 99, below: false })).toBeNull();
  });
});

describe('moveCard', () => {
  it('moves across columns and sets the card board', () => {
    const next = moveCard(blocks(), 12, 3, 0);
    expect(ids(next)).toEqual([[11, 13], [21], [12]]);
    expect(next[2]!.tasks[0]!.blockId).toBe(3);
  });
  it('reorders within a column as the server does (index in the final list)', () => {
    expect(ids(moveCard(blocks(), 11, 1, 2))).toEqual([[12, 13, 11], [21], []]);
    expect(ids(moveCard(blocks(), 13, 1, 0))).toEqual([[13, 11, 12], [21], []]);
  });
  it('clamps the index and leaves the input untouched', () => {
    const before = blocks();
    expect(ids(moveCard(before, 11, 2, 50))).toEqual([[12, 13], [21, 11], []]);
    expect(ids(before)).toEqual([[11, 12, 13], [21], []]);
  });
  it('ignores an unknown card or board', () => {
    const bs = blocks();
    expect(moveCard(bs, 99, 1, 0)).toBe(bs);
    expect(moveCard(bs, 11, 99, 0)).toBe(bs);
  });
});

describe('shiftBoard', () => {
  it('swaps with the neighbour and stops at the edges', () => {
    expect(shiftBoard(blocks(), 2, -1)!.map((b) => b.blockId)).toEqual([2, 1, 3]);
    expect(shiftBoard(blocks(), 2, 1)!.map((b) => b.blockId)).toEqual([1, 3, 2]);
    expect(shiftBoard(blocks(), 1, -1)).toBeNull();
    expect(shiftBoard(blocks(), 3, 1)).toBeNull();
    expect(shiftBoard(blocks(), 9, 1)).toBeNull();
  });
});
