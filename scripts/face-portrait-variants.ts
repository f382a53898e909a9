/**
 * Study of the document portraits the detector is unsure of (issue 20, point 4; docs/analysis.md,
 * "Face match: crop and light variants of unsure portraits"). Two steps, on a development half only
 * (`dev` or `dev-variant`; tune on nothing else):
 *
 *   dump:  each portrait as `documentFaces` finds it (descriptor and quality), and for the unsure ones
 *          (`isSurePortrait` false; every one with ALL=1) the descriptor and detector score of crop
 *          variants: five crop sides × four treatments (smoothed as today, brought to mid-grey by a
 *          power curve, unsmoothed, grey), two other margins, contrast stretch and sharpening.
 *   score: those portraits against the selfies of `scripts/face-dump.ts` (SKIP_PORTRAITS=1 SCALES=96,
 *          the selfie descriptor the engine matches with), each rule for combining the variants
 *          of an unsure portrait (sure ones keep their descriptor): TAR at FAR ≤ 0.1 %, genuine
 *          pairs accepted / reviewed / rejected and impostor pairs accepted / reviewed at the
 *          engine's bands.
 *
 * Usage: npx tsx scripts/face-portrait-variants.ts dump OUTDIR [dev|dev-variant] [people]
 *        npx tsx scripts/face-portrait-variants.ts score OUTDIR SELFIES.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { prepareInput } from '../server/analysis/input.js';
import { fitRaster, rasterFrom, sharpFromRaster, type Raster } from '../server/analysis/raster.js';
import { cosineSimilarity, detectFaces, l2Normalise, type DetectedFace } from '../server/analysis/stages/face.js';
import { documentFaces, faceRegion, meanDescriptor, type PortraitQuality } from '../server/analysis/stages/portrait.js';
import { faceMatchBand, isSurePortrait } from '../server/analysis/stages/selfie.js';
import { DEV, DEV_VARIANT } from '../test/fixtures/hard/config.js';
import { hardPeople, hardPhoto } from '../test/fixtures/hard/set.js';
import { wilson } from './eval/metrics.js';

type Treatment = 'blur' | 'gamma' | 'noblur' | 'grey' | 'stretch' | 'sharpen';
interface Variant {
  readonly embedding: number[];
  readonly score: number;
}
interface DumpedPortrait {
  readonly doc: string;
  readonly face: number;
  readonly found: boolean;
  readonly sure?: boolean;
  readonly quality?: PortraitQuality;
  readonly embedding?: readonly number[];
  readonly variants?: Record<string, Variant | null>;
}
interface DumpedSelfie {
  readonly face: number;
  readonly kind: string;
  readonly found: boolean;
  readonly own?: number[];
  readonly scales?: Record<string, number[] | null>;
}

/** Only the descriptor and the detector's score are used. */
const CROP_MODELS = { description: true, emotion: false, antispoof: false, liveness: false };
const SIDES = [400, 320, 256, 200, 160] as const;
const VARIANTS: readonly (readonly [number, number, Treatment])[] = [
  ...SIDES.flatMap((side) => (['blur', 'gamma', 'noblur', 'grey'] as const).map((t) => [side, 0.6, t] as const)),
  ...[320, 256].flatMap((side) => [0.3, 1].map((m) => [side, m, 'blur'] as const)),
  ...[320, 256].flatMap((side) => [[side, 0.6, 'stretch'] as const, [side, 0.6, 'sharpen'] as const]),
];
const key = ([side, margin, t]: readonly [number, number, Treatment]): string => `${side}-${margin}-${t}`;

/** A power curve that brings a face of mean grey `brightness` to mid-grey. */
function midGrey(raster: Raster, brightness: number): Raster {
  const gamma = Math.log(0.5) / Math.log(Math.min(240, Math.max(8, brightness)) / 255);
  const curve = Uint8Array.from({ length: 256 }, (_, v) => Math.round(255 * (v / 255) ** gamma));
  return { ...raster, data: Buffer.from(raster.data.map((v) => curve[v]!)) };
}

/** The face nearest the centre of one crop variant around `face`, with its descriptor. */
async function variant(
  raster: Raster,
  face: DetectedFace,
  [side, margin, t]: readonly [number, number, Treatment],
  brightness: number,
): Promise<Variant | null> {
  const region = faceRegion(raster, face, margin);
  if (!region) return null;
  const cut = await rasterFrom(sharpFromRaster(raster).extract(region));
  let s = sharpFromRaster(t === 'gamma' ? midGrey(cut, brightness) : cut);
  if (t === 'stretch') s = s.normalise();
  if (t === 'grey') s = sharpFromRaster(await rasterFrom(s.greyscale()));
  if (t !== 'noblur') s = s.blur(0.8);
  if (t === 'sharpen') s = s.sharpen();
  const crop = await rasterFrom(s.resize({ width: Math.round((side * region.width) / Math.max(region.width, region.height)), kernel: 'lanczos3' }));
  const off = (f: DetectedFace): number => Math.hypot(f.box[0] + f.box[2] / 2 - crop.width / 2, f.box[1] + f.box[3] / 2 - crop.height / 2);
  const found = (await detectFaces(crop, CROP_MODELS)).sort((a, b) => off(a) - off(b))[0];
  return found?.embedding ? { embedding: [...found.embedding], score: found.score } : null;
}

async function dump(out: string, halfName: string, people: number): Promise<void> {
  const half = halfName === 'dev-variant' ? DEV_VARIANT : halfName === 'dev' ? DEV : null;
  if (!half) throw new Error('development halves only: dev or dev-variant');
  mkdirSync(out, { recursive: true });
  const portraits: DumpedPortrait[] = [];
  const start = process.cpuUsage();
  for (const [i, id] of hardPeople(half, people).entries()) {
    for (const kind of ['licence-front', 'passport'] as const) {
      const raster = await fitRaster((await prepareInput(await hardPhoto(half, i, kind))).raster, 2000);
      const p = (await documentFaces(raster))[0];
      const doc = `${i}-${kind}`;
      if (!p?.embedding || !p.portrait) {
        portraits.push({ doc, face: id.face, found: false });
        continue;
      }
      const sure = isSurePortrait(p.portrait);
      const variants: Record<string, Variant | null> = {};
      if (!sure || process.env['ALL']) for (const v of VARIANTS) variants[key(v)] = await variant(raster, p, v, p.portrait.brightness);
      portraits.push({ doc, face: id.face, found: true, sure, quality: p.portrait, embedding: p.embedding, variants });
      console.error(`${doc}: ${sure ? 'sure' : 'unsure'} ${JSON.stringify(p.portrait)}`);
    }
    writeFileSync(`${out}/portraits.json`, JSON.stringify(portraits));
  }
  const cpu = process.cpuUsage(start);
  console.error(`CPU ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s`);
}

/** A rule: the descriptor of an unsure portrait from its variants (null: the portrait's own). */
type Rule = (p: DumpedPortrait) => readonly number[] | null;

function score(out: string, selfiesFile: string): void {
  const portraits = (JSON.parse(readFileSync(`${out}/portraits.json`, 'utf8')) as DumpedPortrait[]).filter((p) => p.found && p.embedding);
  const selfies = (JSON.parse(readFileSync(selfiesFile, 'utf8')) as DumpedSelfie[])
    .filter((s) => s.found && s.own)
    .map((s) => ({ face: s.face, descriptor: s.scales?.['96'] ?? s.own! }));
  const pct = (k: number, n: number): string => `${((100 * k) / n).toFixed(1)} %`;
  const unsure = portraits.filter((p) => !p.sure).length;
  console.log(`${portraits.length} portraits (${unsure} unsure), ${selfies.length} selfies`);
  const report = (name: string, rule: Rule): void => {
    const genuine: { s: number; p: DumpedPortrait }[] = [];
    const impostor: { s: number; p: DumpedPortrait }[] = [];
    for (const p of portraits) {
      const d = (p.sure ? null : rule(p)) ?? p.embedding!;
      for (const s of selfies) (s.face === p.face ? genuine : impostor).push({ s: cosineSimilarity(d, s.descriptor), p });
    }
    const imp = impostor.map((x) => x.s).sort((a, b) => b - a);
    const at = imp[Math.floor(imp.length * 0.001)]! + 1e-9;
    const tar = genuine.filter((g) => g.s >= at).length;
    const { low, high } = wilson(tar, genuine.length);
    const bands = (xs: typeof genuine) => xs.map((x) => faceMatchBand(x.s, x.p.quality));
    const g = bands(genuine);
    const i = bands(impostor);
    const n = (b: string[], v: string): number => b.filter((x) => x === v).length;
    const gu = bands(genuine.filter((x) => !x.p.sure));
    console.log(
      `${name.padEnd(28)} TAR@FAR≤0.1 % ${pct(tar, genuine.length)} [${(100 * low).toFixed(1)}-${(100 * high).toFixed(1)}] at ${at.toFixed(3)}` +
        ` | genuine accepted/review/rejected ${n(g, 'match')}/${n(g, 'uncertain')}/${n(g, 'different')} of ${genuine.length}` +
        ` (unsure ${n(gu, 'match')}/${n(gu, 'uncertain')}/${n(gu, 'different')})` +
        ` | impostors accepted ${n(i, 'match')}, in review ${n(i, 'uncertain')} of ${impostor.length}`,
    );
  };
  const found = (p: DumpedPortrait, keys: readonly string[]): Variant[] => keys.map((k) => p.variants?.[k]).filter((v): v is Variant => !!v);
  const mean = (vs: readonly Variant[]): number[] | null => (vs.length ? meanDescriptor(vs.map((v) => v.embedding)) : null);
  report('today', () => null);
  const sets: Record<string, readonly string[]> = {
    'mid-grey 320+256': ['320-0.6-gamma', '256-0.6-gamma'],
    'grey 320+256': ['320-0.6-grey', '256-0.6-grey'],
    'unsmoothed 320+256': ['320-0.6-noblur', '256-0.6-noblur'],
    'stretched 320+256': ['320-0.6-stretch', '256-0.6-stretch'],
    'sharpened 320+256': ['320-0.6-sharpen', '256-0.6-sharpen'],
    'smoothed, 5 sides': SIDES.map((s) => `${s}-0.6-blur`),
    'mid-grey, 5 sides': SIDES.map((s) => `${s}-0.6-gamma`),
    'grey, 5 sides': SIDES.map((s) => `${s}-0.6-grey`),
    'margins 0.3/0.6/1.0': ['320-0.3-blur', '256-0.3-blur', '320-0.6-blur', '256-0.6-blur', '320-1-blur', '256-1-blur'],
    'every variant': VARIANTS.map(key),
  };
  for (const [name, keys] of Object.entries(sets)) {
    report(`${name}: mean`, (p) => mean(found(p, keys)));
    report(`${name}: + today's`, (p) => meanDescriptor([p.embedding!, ...found(p, keys).map((v) => v.embedding)]));
    report(`${name}: weighted`, (p) => {
      const vs = found(p, keys);
      if (!vs.length) return null;
      const units = vs.map((v) => l2Normalise(v.embedding));
      return l2Normalise(units[0]!.map((_, k) => units.reduce((sum, u, j) => sum + vs[j]!.score * u[k]!, 0)));
    });
    report(`${name}: most confident`, (p) => found(p, keys).sort((a, b) => b.score - a.score)[0]?.embedding ?? null);
  }
}

const [mode, out, a, b] = process.argv.slice(2);
if (mode === 'dump' && out) await dump(out, a ?? 'dev', Number(b ?? 24));
else if (mode === 'score' && out && a) score(out, a);
else console.error('usage: face-portrait-variants.ts dump OUTDIR [dev|dev-variant] [people] | score OUTDIR SELFIES.json');
