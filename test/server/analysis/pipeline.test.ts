import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngines } from '../../../server/analysis/engines.js';
import { analyseDocument } from '../../../server/analysis/pipeline.js';
import { analyseSelfie } from '../../../server/analysis/selfie-pipeline.js';
import { passportMrz } from '../../fixtures/mrz.js';
import { documentPhoto, flatDocument, IDENTITIES, selfie } from '../../fixtures/set.js';
import { photograph, screenRecapture } from '../../fixtures/documents.js';
import { pdfWithJpeg } from '../../fixtures/pdf.js';
import { CAPTURES, PEOPLE } from './captures.js';

const today = new Date('2026-06-01T00:00:00Z');
afterAll(closeEngines);

describe('analyseDocument', { timeout: 240_000 }, () => {
  it('reads a licence back end to end: barcode fields, doc type, address and name checks', async () => {
    const id = IDENTITIES[1]!;
    const out = await analyseDocument(
      { bytes: await documentPhoto(1, 'licence-back', 'rotated'), originalName: 'back.jpg' },
      { today, receivedAt: new Date('2026-06-01T12:00:00Z'), user: { firstName: 'José', lastName: 'García', address: '88 Elm St Apt 4, Austin, TX 78701' } },
    );
    expect(out.status).toBe('Success');
    expect(out.doc_type).toBe('driving_licence');
    const c = out.content!;
    expect(c.doc_type_id).toBe(3);
    expect(c.document_processor['Document Number']).toEqual({ value: id.dlNumber, confidence: 99 });
    expect(c.document_processor['Date of Birth']?.value).toBe('1990-01-25');
    expect(c.ai_analysis.name_match).toEqual({ full_name: true, last_name: true });
    expect(c.valid_address[0]?.valid).toBe(true);
    expect(c.valid_user_address[0]?.match).toBe(true);
    expect(c).toMatchObject({ original_name: 'back.jpg', extension: 'jpg', type: 'image/jpeg', time: 1780315200, photoshopped: false });
    expect(c.ai_analysis.internet_detection).toBe(false);
    expect(out.evidence).toEqual({ barcode: true, barcode_via: 'page', mrz: null, face: false });
    // No selfie given: no selfie verdict is made up.
    expect(c.ai_analysis.selfie_check).toBeUndefined();
    expect((await sharp(out.derivative!).metadata()).format).toBe('jpeg');
  });

  it('reads a passport PDF (page 1) with its MRZ and portrait, and checks a selfie against it', async () => {
    const jpeg = await sharp(await flatDocument(0, 'passport'))
      .jpeg({ quality: 90 })
      .toBuffer();
    const meta = await sharp(jpeg).metadata();
    const out = await analyseDocument(
      { bytes: pdfWithJpeg(jpeg, meta.width!, meta.height!), originalName: 'passport.pdf' },
      { today, selfie: await selfie(0), user: { firstName: 'Anna', lastName: 'Eriksson' } },
    );
    expect(out.status).toBe('Success');
    const c = out.content!;
    expect(c.type).toBe('application/pdf');
    expect(c.doc_type).toBe('passport');
    expect(c.mrz_data[0]?.lines).toEqual(passportMrz(IDENTITIES[0]!));
    expect(c.document_processor['Portrait Position']?.value).toMatchObject({ x1: expect.any(Number), y2: expect.any(Number) });
    expect(c.face_annotation?.joyLikelihood).toBeDefined();
    expect(c.ai_analysis.selfie_check).toBe(true);
    expect(out.portrait_embedding?.length).toBe(1024);
    expect(out.evidence).toEqual({ barcode: false, mrz: 'valid', face: true });
    expect(c.dlp_analysis.info_types.some((t) => t.name === 'DATE_OF_BIRTH')).toBe(true);
  });

  it('fails a blurred photo with the blur reason', async () => {
    const out = await analyseDocument({ bytes: await documentPhoto(0, 'licence-front', 'blurred') });
    expect(out.status).toBe('Failed');
    expect(out.failure_code).toBe('BLUR_DETECTED');
    expect(out.reason).toMatch(/blurry/);
  });

  it('fails a passport whose MRZ check digit is wrong, naming the check', async () => {
    // A passport printed with a wrong birth-date check digit. 3 and 9 are digits OCR does not
    // confuse with anything, so no correction can explain the error away (1 → 7 could).
    const id = IDENTITIES[3]!;
    const [l1, l2] = passportMrz(id);
    const broken = l2.slice(0, 19) + (l2[19] === '3' ? '9' : '3') + l2.slice(20);
    const flat = await flatDocument(3, 'passport');
    const patch = `<svg xmlns="http://www.w3.org/2000/svg" width="1476" height="239"><rect width="1476" height="239" fill="#f2f1ea"/><text x="60" y="90" font-family="OCR B" font-size="41">${l1.replace(/</g, '&lt;')}</text><text x="60" y="175" font-family="OCR B" font-size="41">${broken.replace(/</g, '&lt;')}</text></svg>`;
    const card = await sharp(flat)
      .composite([{ input: Buffer.from(patch), left: 0, top: 800 }])
      .png()
      .toBuffer();
    const out = await analyseDocument({ bytes: await photograph(card, { angle: 1 }) }, { today });
    expect(out.status).toBe('Failed');
    expect(out.failure_code).toBe('MRZ_CHECK_FAILED');
    expect(out.reason).toMatch(/birth/i);
    expect(out.content?.mrz_data[0]?.valid).toBe(false);
  });

  it('refuses a non-image by content', async () => {
    const out = await analyseDocument({ bytes: Buffer.from('GIF89a not really'), originalName: 'x.jpg' });
    expect(out).toMatchObject({ status: 'Failed', failure_code: 'unsupported_file_type', content: null, derivative: null });
  });
});

describe('analyseSelfie', { timeout: 240_000 }, () => {
  it('completes with the stored reference embedding of the same person and rejects another', async () => {
    const doc = await analyseDocument({ bytes: await documentPhoto(2, 'passport', 'clean') }, { today });
    const ref = doc.portrait_embedding!;
    expect(ref).not.toBeNull();
    const same = await analyseSelfie({ selfie: await selfie(2) }, { referenceEmbedding: ref });
    expect(same.selfie_check).toBe(true);
    expect(same.decision).not.toBe('rejected');
    const other = await analyseSelfie({ selfie: await selfie(18) }, { referenceEmbedding: ref });
    expect(other.decision).toBe('rejected');
    expect(other.reasons).toContain('FACE_MISMATCH');
  });

  it('rejects frames that show a different person than the selfie', async () => {
    const out = await analyseSelfie({
      selfie: await selfie(4),
      frames: [
        { bytes: await selfie(4), challenge: 'neutral' },
        { bytes: await selfie(20), challenge: 'turn_left' },
      ],
    });
    expect(out.decision).toBe('rejected');
    expect(out.reasons).toContain('DIFFERENT_PERSON_ACROSS_FRAMES');
  });

  it('rejects a selfie filmed off a screen (its moiré), and not the same selfie taken directly', async () => {
    const direct = await selfie(4, { width: 640 });
    const replayed = await analyseSelfie({ selfie: await screenRecapture(direct, 11) });
    expect(replayed.decision).toBe('rejected');
    expect(replayed.reasons).toContain('SCREEN_REPLAY');
    const taken = await analyseSelfie({ selfie: direct });
    expect(taken.reasons).not.toContain('SCREEN_REPLAY');
  });
});

describe('analyseDocument on captures made differently', { timeout: 300_000 }, () => {
  const analyse = async (bytes: Buffer) => analyseDocument({ bytes, originalName: 'capture.jpg' }, { today });

  it('accepts a white-stock licence back (paper and quiet zone saturated) and reads its barcode', async () => {
    const out = await analyse(await CAPTURES.backAuto(0));
    expect(out.status).toBe('Success');
    expect(out.content!.document_processor['Document Number']?.value).toBe(PEOPLE[0]!.dlNumber);
    expect(out.content!.photoshopped).toBe(false);
  });

  it('accepts a white-stock front in another font and reads its printed AAMVA fields', async () => {
    const id = PEOPLE[1]!;
    const out = await analyse(await CAPTURES.frontAuto(1));
    expect(out.status).toBe('Success');
    const dp = out.content!.document_processor;
    expect({
      number: dp['Document Number']?.value,
      last: dp['Last Name']?.value,
      dob: dp['Date of Birth']?.value,
      expiry: dp['Date of Expiry']?.value,
      cls: dp['DL Class']?.value,
      sex: dp['Sex']?.value,
      state: dp['Issuing State Code']?.value,
    }).toEqual({ number: id.dlNumber, last: id.last, dob: id.dob, expiry: id.expires, cls: id.dlClass, sex: id.sex, state: id.state });
    expect(out.content!.photoshopped).toBe(false);
  });

  it('accepts a dim but legible passport page: its MRZ reads once the page is stretched', async () => {
    const out = await analyse(await CAPTURES.passportDim(2));
    expect(out.status).toBe('Success');
    expect(out.content!.mrz_data[0]?.valid).toBe(true);
    expect(out.content!.document_processor['Document Number']?.value).toBe(PEOPLE[2]!.passportNumber);
    expect(out.content!.photoshopped).toBe(false);
  });

  it('refuses glare over the fields and a back out of focus, each with its reason', async () => {
    expect((await analyse(await CAPTURES.frontGlare(0))).failure_code).toBe('GLARE_DETECTED');
    expect((await analyse(await CAPTURES.backBlurred(0))).failure_code).toBe('BLUR_DETECTED');
  });
});
