import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { assessQuality, fieldsReadable, QUALITY_THRESHOLDS, QualityIssue, qualityReason } from '../../../../server/analysis/stages/quality.js';
import { documentPhoto, recapturedLicence, type VariantName } from '../../../fixtures/set.js';
import { CAPTURES } from '../captures.js';

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

describe('assessQuality on captures made differently', { timeout: 240_000 }, () => {
  const quality = async (bytes: Buffer) => assessQuality((await prepareInput(bytes)).raster);

  it('does not call white card stock or the quiet zone round a PDF417 glare', async () => {
    for (const p of [0, 1, 2, 3]) {
      const q = await quality(await CAPTURES.backAuto(p));
      // The paper really is saturated: a third or more of the frame.
      expect(q.metrics.blownFraction).toBeGreaterThan(0.3);
      expect(q.issues).toEqual([]);
    }
  });

  it('calls a specular highlight over the fields glare', async () => {
    for (const p of [0, 1, 2, 3]) expect((await quality(await CAPTURES.frontGlare(p))).issues).toContain(QualityIssue.Glare);
  });

  it('judges exposure after normalising: a dim page with range to stretch is not underexposed', async () => {
    // 22 % of the light, and a passport in a dim room: dark by their mean or highlights, yet
    // 45-70 grey levels between ink and paper, which a stretch gives back.
    for (const bytes of [await documentPhoto(0, 'licence-front', 'dark'), await CAPTURES.passportDim(0)]) {
      const q = await quality(bytes);
      expect(q.metrics.meanLuma < QUALITY_THRESHOLDS.minMeanLuma || q.metrics.p99Luma < QUALITY_THRESHOLDS.minHighlight).toBe(true);
      expect(q.metrics.lumaRange).toBeGreaterThanOrEqual(QUALITY_THRESHOLDS.minLegibleRange);
      expect(q.issues).toEqual([]);
    }
  });

  it('names a dim page with little range left for the reading to decide, and refuses one with none at once', async () => {
    const flat = await quality(
      await sharp(await CAPTURES.passportDim(0))
        .linear(0.45, 0)
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
    expect(flat.metrics.lumaRange).toBeLessThan(QUALITY_THRESHOLDS.minLegibleRange);
    expect(flat.issues).toContain(QualityIssue.UnderExposed);
    expect(flat.blocking).toEqual([]);
    const black = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0b0b0b' } })
      .jpeg()
      .toBuffer();
    expect((await quality(black)).blocking).toEqual([QualityIssue.UnderExposed]);
  });

  it('names a cut-off document without refusing it before reading (the reading decides)', async () => {
    const input = await prepareInput(await documentPhoto(0, 'passport', 'cutoff'));
    const q = await assessQuality(input.raster);
    expect(q.issues).toEqual([QualityIssue.Cutoff]);
    expect(q.blocking).toEqual([]);
  });
});

describe('fieldsReadable', () => {
  it('accepts a checksummed source or every required printed field, nothing less', () => {
    const printed = { 'Document Number': 1, 'Last Name': 1, 'First Name': 1, 'Date of Birth': 1, 'Date of Expiry': 1 };
    expect(fieldsReadable({ barcode: true, mrzValid: false, printed: {} })).toBe(true);
    expect(fieldsReadable({ barcode: false, mrzValid: true, printed: {} })).toBe(true);
    expect(fieldsReadable({ barcode: false, mrzValid: false, printed })).toBe(true);
    const { 'Date of Birth': _dob, ...withoutDob } = printed;
    expect(fieldsReadable({ barcode: false, mrzValid: false, printed: withoutDob })).toBe(false);
  });
});
