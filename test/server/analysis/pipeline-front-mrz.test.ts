/**
 * A licence front prints no MRZ (mrz-page.ts, `dropFalseMrz`). Dim development-variant front 16:
 * its header reads garbled in every reading, so the MRZ search's fallbacks ran and took the
 * front's row of dates for a passport's second line, every check failing; the genuine capture was
 * refused `MRZ_CHECK_FAILED` and typed a passport.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../server/analysis/engines.js';
import { analyseDocument } from '../../../server/analysis/pipeline.js';
import { DEV_VARIANT } from '../../fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../../fixtures/hard/set.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

describe('an MRZ read on a licence front', { timeout: 300_000 }, () => {
  it('is dropped when it fails its checks and the readings show a licence front', async () => {
    const id = hardPeople(DEV_VARIANT, 17)[16]!;
    const out = await analyseDocument({ bytes: await hardPhoto(DEV_VARIANT, 16, 'licence-front') }, { today });
    expect(out.status).toBe('Success');
    expect(out.failure_code).toBeNull();
    expect(out.content?.mrz_data).toEqual([]);
    expect(out.doc_type).not.toBe('passport');
    const fields = out.content?.document_processor ?? {};
    expect(fields['Document Number']?.value).toBe(id.dlNumber);
    // The MRZ's "document number" and "issuing state" are gone with it.
    expect(fields['Issuing State Code']?.value).toBe('MA');
  });
});
