import { describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../../server/analysis/pool.js';
import { selfie } from '../../fixtures/set.js';

describe('AnalysisPool', { timeout: 240_000 }, () => {
  it('runs analysis in a worker thread while this thread stays free', async () => {
    const pool = new AnalysisPool({ maxThreads: 1 });
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 20);
      const result = await pool.analyseSelfie({ selfie: await selfie(6) });
      clearInterval(timer);
      expect(result.embedding?.length).toBe(1024);
      expect(Buffer.isBuffer(result.derivative)).toBe(true);
      // The event loop kept turning during model loading and inference.
      expect(ticks).toBeGreaterThan(10);
    } finally {
      await pool.close();
    }
  });
});
