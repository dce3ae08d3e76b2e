/**
 * Pure order rules of the board's drag and drop (unit-tested in board-order.test.ts). The
 * server's moveProjectTask takes the target board and the card's index in that board's final
 * list (the card itself not counted twice); it clamps and renumbers densely, so the client only
 * has to name the index it shows.
 */

interface Card {
  taskId: number;
  blockId: number;
}
interface Column<C extends Card> {
  blockId: number;
  tasks: C[];
}

/** Ids of draggables and droppables: a card `t:<taskId>`, a column `b:<blockId>`. */
export const cardKey = (taskId: number) => `t:${taskId}`;
export const columnKey = (blockId: number) => `b:${blockId}`;
export function parseKey(key: string | number): { kind: 'task' | 'block'; id: number } | null {
  const m = /^([tb]):(\d+)$/.exec(String(key));
  return m ? { kind: m[1] === 't' ? 'task' : 'block', id: Number(m[2]) } : null;
}

/** Where a card sits: its column's index and its own index there. */
function locate<C extends Card>(blocks: Column<C>[], taskId: number) {
  for (const [col, b] of blocks.entries()) {
    const index = b.tasks.findIndex((t) => t.taskId === taskId);
    if (index >= 0) return { col, index };
  }
  return null;
}

/**
 * Where a dropped card lands. Over a card of its own column it takes that card's place (the
 * sortable list already shows the others shifted that way); over a card of another column it
 * goes before it, or after it when dropped on its lower half; over a column's empty space it
 * goes to the end. Null: nothing changes (dropped on itself or where it was).
 */
export function dropTarget<C extends Card>(
  blocks: Column<C>[],
  taskId: number,
  over: { kind: 'task'; taskId: number; below: boolean } | { kind: 'block'; blockId: number },
): { blockId: number; index: number } | null {
  const from = locate(blocks, taskId);
  if (!from) return null;
  const fromBlock = blocks[from.col]!.blockId;
  if (over.kind === 'block') {
    const col = blocks.find((b) => b.blockId === over.blockId);
    if (!col) return null;
    if (col.blockId === fromBlock)
      return from.index === col.tasks.length - 1
        ? null
        : { blockId: col.blockId, index: col.tasks.length - 1 };
    return { blockId: col.blockId, index: col.tasks.length };
  }
  if (over.taskId === taskId) return null;
  const to = locate(blocks, over.taskId);
  if (!to) return null;
  const toBlock = blocks[to.col]!.blockId;
  if (toBlock === fromBlock) return to.index === from.index ? null : { blockId: toBlock, index: to.index };
  return { blockId: toBlock, index: to.index + (over.below ? 1 : 0) };
}

/** The boards with the card moved to `index` (clamped) of board `blockId`: the optimistic view. */
export function moveCard<C extends Card, B extends Column<C>>(
  blocks: B[],
  taskId: number,
  blockId: number,
  index: number,
): B[] {
  const from = locate(blocks, taskId);
  if (!from || !blocks.some((b) => b.blockId === blockId)) return blocks;
  const card = { ...blocks[from.col]!.tasks[from.index]!, blockId };
  const lifted = blocks.map((b, i) =>
    i === from.col ? { ...b, tasks: b.tasks.filter((t) => t.taskId !== taskId) } : b,
  );
  return lifted.map((b) => {
    if (b.blockId !== blockId) return b;
    const tasks = [...b.tasks];
    tasks.splice(Math.max(0, Math.min(index, tasks.length)), 0, card);
    return { ...b, tasks };
  });
}

/** The board order after moving one board a step left (-1) or right (1); null at an edge. */
export function shiftBoard<B extends { blockId: number }>(
  blocks: B[],
  blockId: number,
  step: -1 | 1,
): B[] | null {
  const i = blocks.findIndex((b) => b.blockId === blockId);
  const j = i + step;
  if (i < 0 || j < 0 || j >= blocks.length) return null;
  const next = [...blocks];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}
