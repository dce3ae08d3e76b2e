import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LiveTopic } from '../../shared/api/notice';
import { createLocalBus, type LiveBus } from '../modules/notice/live';

/**
 * The live bus over Redis pub/sub (README "The notice centre": Live). A publish is delivered to
 * this instance's own streams at once and sent on one channel; every other instance delivers
 * what it hears to the streams it holds. Messages name people and lists, never content, like
 * the stream itself. `sub` is a connection in subscriber mode (it can do nothing else).
 */
export async function createRedisBus(pub: Redis, sub: Redis, prefix: string): Promise<LiveBus> {
  const local = createLocalBus();
  const me = randomUUID();
  const channel = `${prefix}live`;
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    let m: { from?: string; userIds?: number[]; topics?: LiveTopic[] };
    try {
      m = JSON.parse(raw) as typeof m;
    } catch {
      return;
    }
    if (m.from === me || !Array.isArray(m.userIds) || !Array.isArray(m.topics)) return;
    local.publish(m.userIds, m.topics);
  });
  await sub.subscribe(channel);
  return {
    publish(userIds, topics) {
      local.publish(userIds, topics);
      // Best effort, like the stream: a lost message costs one refresh, which the page's 3 s
      // count refresh (while the stream is down) and the next change both make up for.
      pub.publish(channel, JSON.stringify({ from: me, userIds, topics })).catch(() => undefined);
    },
    subscribe: (userId, listener) => local.subscribe(userId, listener),
    size: () => local.size(),
  };
}
