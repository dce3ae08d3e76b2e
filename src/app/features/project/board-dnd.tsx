import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  closestCorners,
  pointerWithin,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { ActionIcon } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { useRef, useState, type KeyboardEventHandler, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { ProjectBoard, TaskCard } from '../../../shared/api/project';
import { tProject } from '../../lib/i18n/project';
import { cardKey, columnKey, dropTarget, parseKey } from './board-order';

/**
 * Drag and drop of the board's cards (@dnd-kit): within and between columns, by mouse (after
 * 5 px, so a click still opens the card), by touch (a long press, so a swipe still scrolls the
 * columns on a tablet) and by keyboard from the card's grip (space, arrows, space). The 移动
 * menu stays as the plain alternative. The page owns the order: a drop only reports
 * (taskId, board, index) through `onDrop`.
 */

type Block = ProjectBoard['blocks'][number];
const D = tProject.dnd;

/** Name of whatever a draggable or droppable carries in `data` (for the announcements). */
const nameOf = (x: { data: { current?: Record<string, unknown> } } | null) =>
  typeof x?.data.current?.name === 'string' ? x.data.current.name : '';

const announcements: Announcements = {
  onDragStart: ({ active }) => D.picked(nameOf(active)),
  // Over itself (where it starts) says nothing, so the pick-up is what is heard.
  onDragOver: ({ active, over }) =>
    over && over.id !== active.id ? D.over(nameOf(active), nameOf(over)) : undefined,
  onDragEnd: ({ active }) => D.dropped(nameOf(active)),
  onDragCancel: ({ active }) => D.cancelled(nameOf(active)),
};

/**
 * The card under the pointer wins over its column (both contain the pointer); the column's
 * empty space takes a drop to its end. The keyboard has no pointer: the nearest corners decide.
 */
const collide: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  const cards = within.filter((c) => parseKey(c.id)?.kind === 'task');
  if (cards.length) return cards;
  return within.length ? within : closestCorners(args);
};

export function BoardDnd(props: {
  blocks: Block[];
  onDrop: (taskId: number, blockId: number, index: number) => void;
  renderOverlay: (task: TaskCard) => ReactNode;
  children: ReactNode;
}) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const [active, setActive] = useState<TaskCard | null>(null);
  const end = (e: DragEndEvent) => {
    setActive(null);
    const a = parseKey(e.active.id);
    const o = e.over ? parseKey(e.over.id) : null;
    if (!a || !o || !e.over) return;
    // Dropped on the lower half of a card of another column: after it.
    const r = e.active.rect.current.translated;
    const below = !!r && r.top + r.height / 2 > e.over.rect.top + e.over.rect.height / 2;
    const target = dropTarget(
      props.blocks,
      a.id,
      o.kind === 'task' ? { kind: 'task', taskId: o.id, below } : { kind: 'block', blockId: o.id },
    );
    if (target) props.onDrop(a.id, target.blockId, target.index);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collide}
      accessibility={{ announcements, screenReaderInstructions: { draggable: D.instructions } }}
      onDragStart={(e) => {
        const id = parseKey(e.active.id)?.id;
        setActive(props.blocks.flatMap((b) => b.tasks).find((x) => x.taskId === id) ?? null);
      }}
      onDragCancel={() => setActive(null)}
      onDragEnd={end}
    >
      {props.children}
      {/* Above the columns' scroller, so a card carried to another column is never clipped. */}
      {createPortal(<DragOverlay>{active ? props.renderOverlay(active) : null}</DragOverlay>, document.body)}
    </DndContext>
  );
}

/** A column's cards as one sortable list; the column itself takes drops on its empty space. */
export function ColumnDrop(props: {
  block: Block;
  disabled: boolean;
  children: (drop: { ref: (el: HTMLElement | null) => void; isOver: boolean }) => ReactNode;
}) {
  const { setNodeRef, isOver } = useDroppable({
    id: columnKey(props.block.blockId),
    data: { name: props.block.name },
    disabled: props.disabled,
  });
  return (
    <SortableContext
      items={props.block.tasks.map((x) => cardKey(x.taskId))}
      strategy={verticalListSortingStrategy}
      disabled={props.disabled}
    >
      {props.children({ ref: setNodeRef, isOver })}
    </SortableContext>
  );
}

/**
 * One draggable card. Mouse and touch start anywhere on it; the keyboard starts from the grip
 * (`handle`), so Enter on the card's own buttons keeps opening them.
 */
export function DraggableCard(props: {
  task: TaskCard;
  disabled: boolean;
  children: (handle: ReactNode) => ReactNode;
}) {
  const { task, disabled } = props;
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, transform, transition, isDragging } =
    useSortable({
      id: cardKey(task.taskId),
      data: { name: task.taskName },
      disabled,
      attributes: { roleDescription: D.roleDescription },
    });
  const { onKeyDown, ...pointer } = listeners ?? {};
  const handle = disabled ? null : (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      size="sm"
      aria-label={D.handle(task.taskName)}
      {...attributes}
      onKeyDown={onKeyDown as KeyboardEventHandler<HTMLButtonElement> | undefined}
      style={{ cursor: 'grab' }}
    >
      <IconGripVertical size={14} />
    </ActionIcon>
  );
  return (
    <div
      ref={setNodeRef}
      {...pointer}
      data-testid="task-drag"
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        // The card stays in place, faint, while its copy travels in the overlay.
        opacity: isDragging ? 0.4 : undefined,
      }}
    >
      {props.children(handle)}
    </div>
  );
}

/**
 * The shown order: the given one (the server's board with the queued offline writes drawn over
 * it), or an optimistic one while writes are under way. `apply` shows `next` at once and runs
 * `write`; when the last running write settles the page re-reads the server, so a refused write
 * (toasted with the server's words) rolls back there and a queued one stays drawn as 待同步.
 */
export function useOptimisticBlocks<B extends Block>(
  blocks: B[] | undefined,
  refresh: () => Promise<unknown>,
) {
  const [shown, setShown] = useState<B[] | null>(null);
  const running = useRef(0);
  const apply = async (next: B[], write: () => Promise<unknown>) => {
    setShown(next);
    running.current++;
    try {
      await write();
    } catch {
      // Toasted by the client; the re-read below puts the server's order back.
    } finally {
      if (--running.current === 0) {
        await refresh();
        if (running.current === 0) setShown(null);
      }
    }
  };
  return { blocks: shown ?? blocks, apply };
}
