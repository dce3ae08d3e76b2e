import type { Redis } from 'ioredis';
import type { ScaleConfig } from '../scale-config';
import { createLocalBus, type LiveBus } from '../modules/notice/live';
import { type ClaimFn, createJobs, redisClaim, type Jobs } from './jobs';
import { createLocalLocks, createRedisLocks, type Locks } from './locks';
import { createRedisBus } from './redis-bus';

/**
 * What instances share (ARCHITECTURE.md §10): the live bus, locks, background jobs and the
 * rate-limit counters. Chosen once at start: with REDIS_URL, all through Redis; without it,
 * all in this process, as for one museum's server. Nothing else in the server knows which.
 */
export interface Cluster {
  locks: Locks;
  /** Claims a period of a background job for one instance (see jobs.ts). */
  claim: ClaimFn;
  bus: LiveBus;
  /** The connection and key prefix the rate limiter keeps its counters under; undefined: in the process. */
  rateLimitRedis: { client: Redis; nameSpace: string } | undefined;
  /** Whether state is shared with other instances (Redis). */
  shared: boolean;
  close(): Promise<void>;
}

export interface ClusterOptions {
  onError?: (what: string, err: unknown) => void;
  /** How long a lock outlives a holder that died (tests shorten it). */
  lockTtlMs?: number;
}

export function createLocalCluster(): Cluster {
  return {
    locks: createLocalLocks(),
    claim: async () => true,
    bus: createLocalBus(),
    rateLimitRedis: undefined,
    shared: false,
    close: async () => undefined,
  };
}

/** The background jobs of one app over a cluster (closed with the app; see jobs.ts). */
export function jobsOf(cluster: Cluster, onError?: (name: string, err: unknown) => void): Jobs {
  return createJobs({ locks: cluster.locks, claim: cluster.claim, onError });
}

/** Waits for a fresh connection to be ready, or fails with a message that names the address. */
async function connected(redis: Redis, url: string): Promise<void> {
  let last: Error | undefined;
  const remember = (err: Error) => (last = err);
  redis.on('error', remember);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    const where = new URL(url);
    const why = (last ?? (err as Error)).message;
    throw new Error(
      `无法连接 Redis（${where.protocol}//${where.host}）：${why}；请检查 REDIS_URL 与 Redis 服务`,
      {
        cause: err,
      },
    );
  } finally {
    redis.off('error', remember);
  }
}

export async function createCluster(scale: ScaleConfig, opts: ClusterOptions = {}): Promise<Cluster> {
  if (!scale.redis) return createLocalCluster();
  const { url, prefix } = scale.redis;
  // lazyConnect: the first connection is awaited here, so a wrong REDIS_URL stops the start
  // with its reason instead of retrying forever in the background. Later drops reconnect.
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true };
  // Loaded only with REDIS_URL: a single instance never holds the client (issue 25).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, options);
  const sub = new Redis(url, options);
  // Once connected, a dropped connection is logged and retried (ioredis reconnects).
  await connected(client, url);
  client.on('error', (err) => opts.onError?.('redis', err));
  try {
    await connected(sub, url);
  } catch (err) {
    client.disconnect();
    throw err;
  }
  sub.on('error', (err) => opts.onError?.('redis', err));
  const locks = createRedisLocks(client, prefix, {
    ttlMs: opts.lockTtlMs,
    onLost: (key) => opts.onError?.('redis lock lost', new Error(key)),
  });
  const bus = await createRedisBus(client, sub, prefix);
  return {
    locks,
    claim: redisClaim(client, prefix),
    bus,
    rateLimitRedis: { client, nameSpace: `${prefix}rate:` },
    shared: true,
    async close() {
      await Promise.allSettled([client.quit(), sub.quit()]);
    },
  };
}
