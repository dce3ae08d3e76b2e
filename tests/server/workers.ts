import os from 'node:os';

/**
 * Test files per vitest run: twice the cores, at most 8. A server test file spends about half
 * its time waiting (its server's answers, timers, the database, litmus), so two per core keep
 * the cores busy: on a two-core machine the SQLite server suite went from 237 s at 112% CPU
 * (vitest's default, one per core) to 183 s at 190%, and the PostgreSQL pass to 217 s. More
 * than that only queues behind the CPU. The scale-out pass keeps the default (see its config).
 */
export const TEST_WORKERS = Math.min(8, 2 * os.availableParallelism());
