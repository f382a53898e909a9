import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceReference, parsePortraitQuality } from '../../../server/services/face-reference.js';
import { insertPortraitJob } from '../../helpers/document-jobs.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

/**
 * The portrait a later face capture is matched against comes back from the store with the
 * quality it was stored with (its match band depends on it), on SQLite and on PostgreSQL.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const QUALITY = { detector: 0.61, crop: 0, side: 134, brightness: 26.5, contrast: 13.25 };

async function userWithPortraits(rows: { embedding: number[]; quality: string | null; at: string }[]): Promise<number> {
  const created = await server.api('/api/users', { body: { email: `fr${Math.random().toString(36).slice(2, 8)}@example.com` } });
  const userId = Number(created.body.id);
  for (const [i, r] of rows.entries()) {
    await insertPortraitJob(server.verity.ctx.db, { userId, docId: `doc_fr_${userId}_${i}`, embedding: r.embedding, quality: r.quality, at: r.at });
  }
  return userId;
}

describe('face reference', () => {
  it("returns the latest portrait's descriptor with the quality stored beside it", async () => {
    const userId = await userWithPortraits([
      { embedding: [1, 0], quality: JSON.stringify({ ...QUALITY, detector: 0.99, crop: 1 }), at: '2026-11-27T10:00:00.000Z' },
      { embedding: [0, 1], quality: JSON.stringify(QUALITY), at: '2026-11-27T11:00:00.000Z' },
    ]);
    const reference = await faceReference(server.verity.ctx.db, userId);
    expect(reference.embedding).toEqual([0, 1]);
    expect(reference.quality).toEqual(QUALITY);
    expect(reference.required).toBe(true);
  });

  it('gives a portrait stored before its quality was kept no quality (matched as of unknown quality)', async () => {
    const userId = await userWithPortraits([{ embedding: [0.6, 0.8], quality: null, at: '2026-11-27T10:00:00.000Z' }]);
    const reference = await faceReference(server.verity.ctx.db, userId);
    expect(reference.embedding).toEqual([0.6, 0.8]);
    expect(reference.quality).toBeUndefined();
  });

  it('reads only a quality of the stored shape', () => {
    expect(parsePortraitQuality(JSON.stringify(QUALITY))).toEqual(QUALITY);
    expect(parsePortraitQuality(JSON.stringify({ ...QUALITY, crop: 'high' }))).toBeUndefined();
    expect(parsePortraitQuality(JSON.stringify({ detector: 0.5 }))).toBeUndefined();
    expect(parsePortraitQuality('not json')).toBeUndefined();
    expect(parsePortraitQuality(null)).toBeUndefined();
  });
});
