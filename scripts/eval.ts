/**
 * `npm run eval`: accuracy of the analysis engine on the generated fixture set (made at run
 * time from synthetic identities, bwip-js barcodes, the OCR-B font and the face-api demo
 * photos; cached under test/.fixtures-cache/). Prints Markdown tables for README.
 *
 * Usage: npm run eval [-- --people N]   (default 8 synthetic people)
 */
import sharp from 'sharp';
import { closeEngines } from '../server/analysis/engines.js';
import { prepareInput } from '../server/analysis/input.js';
import { fitRaster, rasterFrom, toGrey } from '../server/analysis/raster.js';
import type { ProcessorField } from '../server/analysis/stages/aamva.js';
import { runBarcode } from '../server/analysis/stages/barcode.js';
import { detectFaces, faceSimilarity, type DetectedFace } from '../server/analysis/stages/face.js';
import { runMrz } from '../server/analysis/stages/mrz.js';
import { runOcr } from '../server/analysis/stages/ocr.js';
import { printedFields } from '../server/analysis/stages/printed-fields.js';
import { assessQuality, QualityIssue } from '../server/analysis/stages/quality.js';
import { detectRecapture } from '../server/analysis/stages/recapture.js';
import { SELFIE_MATCH_THRESHOLD, SELFIE_REVIEW_THRESHOLD } from '../server/analysis/stages/selfie.js';
import { detectPastedRegions } from '../server/analysis/stages/tamper.js';
import { FACE_BOXES } from '../test/fixtures/faces.js';
import type { Identity } from '../test/fixtures/identities.js';
import { passportMrz } from '../test/fixtures/mrz.js';
import { documentPhoto, IDENTITIES, recapturedLicence, selfie, tamperedLicence, VARIANTS, type DocumentKind, type VariantName } from '../test/fixtures/set.js';

const today = new Date('2026-06-01T00:00:00Z');
const peopleArg = process.argv.indexOf('--people');
const PEOPLE = Math.min(IDENTITIES.length, peopleArg > 0 ? Number(process.argv[peopleArg + 1]) : IDENTITIES.length);
const people = IDENTITIES.slice(0, PEOPLE);
const out: string[] = [];
const print = (s = ''): void => {
  out.push(s);
  process.stdout.write(`${s}\n`);
};
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} % (${a}/${b})`);

/** Expected `document_processor` values for a person. */
function expected(id: Identity, kind: 'barcode' | 'mrz' | 'printed'): Record<string, string> {
  const h = `${Math.floor(id.heightIn / 12)}'-${String(id.heightIn % 12).padStart(2, '0')}"`;
  const common = { 'Date of Birth': id.dob, Sex: id.sex };
  if (kind === 'mrz')
    return {
      ...common,
      'Full Name': `${id.first} ${id.middle} ${id.last.replace(/'/g, '')}`,
      'Document Number': id.passportNumber,
      'Date of Expiry': id.expires,
    };
  const lic = {
    ...common,
    'Full Name': `${id.first} ${id.middle} ${id.last}`,
    'Document Number': id.dlNumber,
    'Date of Expiry': id.expires,
    'Date of Issue': id.issued,
    'Address Street': id.street,
    'Address City': id.city,
    'Address State': id.state,
    'Address Postal Code': id.zip,
    'Eyes Color': id.eyes,
    Height: h,
  };
  return kind === 'barcode' ? { ...lic, 'DL Class': id.dlClass, 'Document Discriminator': id.discriminator } : lic;
}

class FieldTally {
  readonly hits = new Map<string, number>();
  readonly total = new Map<string, number>();
  readonly present = new Map<string, number>();
  add(exp: Record<string, string>, got: Record<string, ProcessorField>): void {
    for (const [k, v] of Object.entries(exp)) {
      this.total.set(k, (this.total.get(k) ?? 0) + 1);
      const g = got[k]?.value;
      if (g !== undefined) this.present.set(k, (this.present.get(k) ?? 0) + 1);
      if (typeof g === 'string' && g.toUpperCase() === v.toUpperCase()) this.hits.set(k, (this.hits.get(k) ?? 0) + 1);
    }
  }
  table(title: string): void {
    print(`\n#### ${title}\n`);
    print('| field | exact | read (any value) |');
    print('|---|---|---|');
    for (const [k, n] of this.total) print(`| ${k} | ${pct(this.hits.get(k) ?? 0, n)} | ${pct(this.present.get(k) ?? 0, n)} |`);
  }
}

async function grey(b: Buffer) {
  return toGrey(await fitRaster((await prepareInput(b)).raster, 2000));
}

async function evalBarcode(): Promise<void> {
  const tally = new FieldTally();
  let decoded = 0;
  let n = 0;
  for (const [p, id] of people.entries()) {
    for (const v of ['clean', 'rotated', 'noisy'] as VariantName[]) {
      const r = await runBarcode(await grey(await documentPhoto(p, 'licence-back', v)), today);
      n++;
      if (r.found) decoded++;
      tally.add(expected(id, 'barcode'), r.fields);
    }
  }
  print(`\n### Barcode (PDF417 → AAMVA), licence backs: clean, rotated 9°, noisy\n\nDecoded: ${pct(decoded, n)}`);
  tally.table('Barcode fields');
}

async function evalMrz(): Promise<void> {
  const tally = new FieldTally();
  let exact = 0;
  let valid = 0;
  let found = 0;
  let n = 0;
  for (const [p, id] of people.entries()) {
    for (const v of ['clean', 'rotated', 'noisy'] as VariantName[]) {
      const r = await runMrz(await grey(await documentPhoto(p, 'passport', v)), today);
      n++;
      if (r.found) found++;
      if (r.data?.valid) valid++;
      if (JSON.stringify(r.data?.lines) === JSON.stringify(passportMrz(id))) exact++;
      tally.add(expected(id, 'mrz'), r.fields);
    }
  }
  print(`\n### MRZ (TD3 passports): clean, rotated 9°, noisy\n`);
  print(`Found: ${pct(found, n)} · all check digits valid: ${pct(valid, n)} · both lines exactly right: ${pct(exact, n)}`);
  tally.table('MRZ fields');
}

async function evalOcr(): Promise<void> {
  const tally = new FieldTally();
  for (const [p, id] of people.entries()) {
    for (const v of ['clean', 'noisy'] as VariantName[]) {
      const ocr = await runOcr(await grey(await documentPhoto(p, 'licence-front', v)));
      tally.add(expected(id, 'printed'), printedFields(ocr, today));
    }
  }
  print(`\n### Printed fields by OCR (licence fronts, no barcode): clean, noisy`);
  tally.table('OCR fields');
}

async function evalQuality(): Promise<void> {
  const want: Record<VariantName, string | null> = {
    clean: null,
    rotated: null,
    noisy: null,
    blurred: QualityIssue.Blur,
    dark: QualityIssue.UnderExposed,
    glare: QualityIssue.Glare,
    cutoff: QualityIssue.Cutoff,
  };
  print('\n### Capture quality (licence front, licence back, passport per person)\n');
  print('| variant | expected | flagged as expected | any issue raised |');
  print('|---|---|---|---|');
  for (const v of Object.keys(VARIANTS) as VariantName[]) {
    let right = 0;
    let any = 0;
    let n = 0;
    for (let p = 0; p < PEOPLE; p++) {
      for (const k of ['licence-front', 'licence-back', 'passport'] as DocumentKind[]) {
        const q = await assessQuality((await prepareInput(await documentPhoto(p, k, v))).raster);
        n++;
        if (q.issues.length > 0) any++;
        if (want[v] === null ? q.issues.length === 0 : q.issues[0] === want[v]) right++;
      }
    }
    print(`| ${v} | ${want[v] ?? 'no issue'} | ${pct(right, n)} | ${pct(any, n)} |`);
  }
}

async function evalTamperAndScreen(): Promise<void> {
  let tamperHit = 0;
  let screenHit = 0;
  let tamperFp = 0;
  let screenFp = 0;
  let clean = 0;
  for (let p = 0; p < PEOPLE; p++) {
    const t = await prepareInput(await tamperedLicence(p));
    if (detectPastedRegions(toGrey(await fitRaster(t.raster, 2000))).suspicious) tamperHit++;
    const s = await prepareInput(await recapturedLicence(p));
    if ((await detectRecapture(s.raster)).screen) screenHit++;
    for (const k of ['licence-front', 'licence-back', 'passport'] as DocumentKind[]) {
      for (const v of ['clean', 'rotated', 'noisy', 'glare'] as VariantName[]) {
        const c = await prepareInput(await documentPhoto(p, k, v));
        clean++;
        if (detectPastedRegions(toGrey(await fitRaster(c.raster, 2000))).suspicious) tamperFp++;
        if ((await detectRecapture(c.raster)).screen) screenFp++;
      }
    }
  }
  print('\n### Tamper (pasted field) and screen recapture\n');
  print('| check | detected on altered copies | false positives on untouched photos |');
  print('|---|---|---|');
  print(`| photoshopped: block-noise paste check | ${pct(tamperHit, PEOPLE)} | ${pct(tamperFp, clean)} |`);
  print(`| internet_detection: screen moiré | ${pct(screenHit, PEOPLE)} | ${pct(screenFp, clean)} |`);
}

async function centralFace(b: Buffer): Promise<DetectedFace | undefined> {
  const r = await rasterFrom(sharp(b));
  const d = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - r.width / 2, f.box[1] + f.box[3] / 2 - r.height / 2);
  return (await detectFaces(r)).sort((a, b2) => d(a) - d(b2))[0];
}

async function evalFaces(): Promise<void> {
  // Selfies: every demo face with crop/light variations. Portraits: faces on the photographed documents.
  const selfies: { face: number; e: readonly number[] }[] = [];
  for (let f = 0; f < FACE_BOXES.length; f++) {
    for (const img of [
      await selfie(f),
      await sharp(await selfie(f, { margin: 0.7, shift: 0.1 }))
        .modulate({ brightness: 0.75 })
        .jpeg({ quality: 70 })
        .toBuffer(),
    ]) {
      const c = await centralFace(img);
      if (c?.embedding) selfies.push({ face: f, e: c.embedding });
    }
  }
  const portraits: { face: number; e: readonly number[] }[] = [];
  for (const [p, id] of people.entries()) {
    for (const k of ['licence-front', 'passport'] as DocumentKind[]) {
      const doc = await prepareInput(await documentPhoto(p, k, 'clean'));
      const face = (await detectFaces(doc.raster))[0];
      if (face?.embedding) portraits.push({ face: id.face, e: face.embedding });
    }
  }
  const gen: number[] = [];
  const imp: number[] = [];
  for (const d of portraits) {
    for (const s of selfies) (s.face === d.face ? gen : imp).push(await faceSimilarity(d.e, s.e));
  }
  const rate = (xs: number[], t: number): number => xs.filter((x) => x >= t).length;
  print(`\n### Face match (document portrait vs selfie)\n`);
  print(
    `${portraits.length} portraits found on ${people.length * 2} document photos; ${selfies.length} selfies of ${FACE_BOXES.length} people; ${gen.length} genuine and ${imp.length} impostor pairs.\n`,
  );
  print('| threshold | TAR (genuine accepted) | FAR (impostor accepted) |');
  print('|---|---|---|');
  for (const t of [...new Set([0.45, SELFIE_REVIEW_THRESHOLD, 0.55, 0.6, SELFIE_MATCH_THRESHOLD, 0.7])].sort((a, b) => a - b)) {
    const mark = t === SELFIE_MATCH_THRESHOLD ? ' (match)' : t === SELFIE_REVIEW_THRESHOLD ? ' (review)' : '';
    print(`| ${t.toFixed(2)}${mark} | ${pct(rate(gen, t), gen.length)} | ${pct(rate(imp, t), imp.length)} |`);
  }
}

const started = Date.now();
print(`## Analysis evaluation (generated set, ${PEOPLE} synthetic people, ${new Date().toISOString().slice(0, 10)})`);
await evalBarcode();
await evalMrz();
await evalOcr();
await evalQuality();
await evalTamperAndScreen();
await evalFaces();
print(`\n_Run time ${Math.round((Date.now() - started) / 1000)} s._`);
await closeEngines();
