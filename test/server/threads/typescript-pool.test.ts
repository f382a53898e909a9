import { spawnSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { typescriptPool } from '../../../server/threads/typescript-pool.js';

/** Pools of worker threads that run TypeScript task handlers (the analysis pool, the search threads). */
describe('typescriptPool', () => {
  it('runs the named handler of a TypeScript module in another thread', async () => {
    const pool = typescriptPool<{ n: number; ms: number }, { n: number; thread: number }>(new URL('../../fixtures/threads/tasks.ts', import.meta.url), 'busy', {
      maxThreads: 1,
    });
    try {
      const answer = await pool.run({ n: 7, ms: 1 });
      expect(answer.n).toBe(7);
      expect(answer.thread).not.toBe(threadId);
    } finally {
      await pool.destroy();
    }
  });

  it('runs queued tasks in the order they came, however long the queue', async () => {
    const pool = typescriptPool<{ n: number; ms: number }, { n: number; thread: number }>(new URL('../../fixtures/threads/tasks.ts', import.meta.url), 'busy', {
      minThreads: 1,
      maxThreads: 1,
    });
    try {
      await pool.run({ n: -1, ms: 0 });
      const finished: number[] = [];
      await Promise.all(Array.from({ length: 8 }, (_, n) => pool.run({ n, ms: 5 }).then((r) => finished.push(r.n))));
      expect(finished).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await pool.destroy();
    }
  });

  it('gives piscina a CommonJS entry, so its require() never loads an ES module', async () => {
    // On Node 20.19+ a require() of an ES module that meets an import() of the same graph can
    // abort the process (a V8 fatal error; it took down a CI test fork). piscina require()s its
    // entry first: that entry must load as CommonJS, with require(esm) switched off too.
    const pool = typescriptPool<{ n: number; ms: number }, { n: number; thread: number }>(new URL('../../fixtures/threads/tasks.ts', import.meta.url), 'busy', {
      maxThreads: 1,
    });
    try {
      const entry = pool.options.filename ?? '';
      expect(entry.endsWith('.cjs')).toBe(true);
      const loaded = spawnSync(process.execPath, ['--no-experimental-require-module', '-e', `require(${JSON.stringify(entry)})`], { encoding: 'utf8' });
      expect(loaded.stderr).not.toContain('ERR_REQUIRE_ESM');
    } finally {
      await pool.destroy();
    }
  });

  it("lowers its threads' priority by niceIncrement, and that of the threads they start, leaving this thread as it was", async () => {
    const before = getPriority();
    const run = async (niceIncrement: number): Promise<{ own: number; started: number }> => {
      const pool = typescriptPool<undefined, { own: number; started: number }>(new URL('../../fixtures/threads/tasks.ts', import.meta.url), 'priority', {
        maxThreads: 1,
        niceIncrement,
      });
      try {
        return await pool.run(undefined);
      } finally {
        await pool.destroy();
      }
    };
    const expected = Math.min(19, before + 5);
    expect(await run(5)).toEqual({ own: expected, started: expected });
    expect(await run(0)).toEqual({ own: before, started: before });
    expect(getPriority()).toBe(before);
  });
});
