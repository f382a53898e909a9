import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { assessQuality, QualityIssue, qualityReason } from '../../../../server/analysis/stages/quality.js';
import { documentPhoto, recapturedLicence, type VariantName } from '../../../fixtures/set.js';

async function issuesOf(variant: VariantName, kind: 'licence-front' | 'passport' = 'licence-front'): Promise<readonly string[]> {
  const input = await prepareInput(await documentPhoto(0, kind, variant));
  return (await assessQuality(input.raster)).issues;
}

describe('assessQuality', () => {
  it('passes clean, rotated and noisy photos', async () => {
    expect(await issuesOf('clean')).toEqual([]);
    expect(await issuesOf('rotated')).toEqual([]);
    expect(await issuesOf('noisy', 'passport')).toEqual([]);
  });

  it('names each defect', async () => {
    expect(await issuesOf('blurred')).toEqual([QualityIssue.Blur]);
    expect(await issuesOf('dark')).toEqual([QualityIssue.UnderExposed]);
    expect(await issuesOf('glare')).toEqual([QualityIssue.Glare]);
    expect(await issuesOf('cutoff', 'passport')).toEqual([QualityIssue.Cutoff]);
  });

  it('does not call a screen recapture cut off (moiré is averaged out)', async () => {
    const input = await prepareInput(await recapturedLicence(0));
    expect((await assessQuality(input.raster)).issues).not.toContain(QualityIssue.Cutoff);
  });

  it('ranks cut-off above glare above blur in the reason', () => {
    expect(qualityReason([QualityIssue.Cutoff, QualityIssue.Glare])).toMatch(/CUTOFF_DETECTED/);
    expect(qualityReason([])).toBeNull();
  });
});
