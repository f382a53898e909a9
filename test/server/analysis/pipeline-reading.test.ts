/**
 * A development front of the hard set (issue 20) that read nothing: the skew estimate, pulled
 * by the halftone and guilloche, rotated the page the wrong amount. Read again as taken, its
 * name, number, dates and address come out exactly.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../server/analysis/engines.js';
import { analyseDocument } from '../../../server/analysis/pipeline.js';
import { HALVES } from '../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../fixtures/hard/set.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

describe('analyseDocument on a skewed licence front', { timeout: 240_000 }, () => {
  it('reads development front 13 as taken when the deskewed page lacks the required fields', async () => {
    const id = hardPeople(HALVES.dev, 14)[13]!;
    const out = await analyseDocument({ bytes: await hardPhoto(HALVES.dev, 13, 'licence-front') }, { today });
    expect(out.status).toBe('Success');
    const f = out.content!.document_processor;
    expect(f['Full Name']?.value).toBe(`${id.first} ${id.middle} ${id.last}`);
    expect(f['Document Number']?.value).toBe(id.dlNumber);
    expect(f['Date of Birth']?.value).toBe(id.dob);
    expect(f['Date of Expiry']?.value).toBe(id.expires);
    expect(f['Address Street']?.value).toBe(id.street);
    expect(out.timings).toHaveProperty('ocr_unrotated');
  });
});
