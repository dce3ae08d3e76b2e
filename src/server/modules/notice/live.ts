import type { LiveTopic } from '../../../shared/api/notice';

/**
 * Who must refresh what, right now. `publish` is the only way a change leaves a module: the
 * notice service calls it after its transaction commits. This in-process bus delivers to the
 * streams this server holds. With several server instances, an implementation of the same
 * interface would forward each publish to the others (PostgreSQL LISTEN/NOTIFY or Redis
 * pub/sub) and deliver what it receives to its local subscribers; nothing else changes.
 */
export interface LiveBus {
  publish(userIds: readonly number[], topics: readonly LiveTopic[]): void;
  /** Calls `listener` for every change of `userId`'s lists; returns the unsubscribe function. */
  subscribe(userId: number, listener: (topics: readonly LiveTopic[]) => void): () => void;
  /** Streams currently open (for the close hook and the tests). */
  size(): number;
}

export function createLocalBus(): LiveBus {
  const byUser = new Map<number, Set<(topics: readonly LiveTopic[]) => void>>();
  let count = 0;
  return {
    publish(userIds, topics) {
      for (const id of new Set(userIds)) {
        for (const listener of byUser.get(id) ?? []) {
          try {
            listener(topics);
          } catch {
            // One broken stream must not stop the others.
          }
        }
      }
    },
    subscribe(userId, listener) {
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(listener);
      count++;
      return () => {
        if (!set.delete(listener)) return;
        count--;
        if (set.size === 0) byUser.delete(userId);
      };
    },
    size: () => count,
  };
}
