/**
 * The screen check alone (recapture.ts, document rule) on many development captures, for issue 20's
 * "genuine refused or flagged": development backs, fronts and passports as the halves draw them and
 * under the held-out half's published capture ranges (back-stress.ts `wide`, `harsh`; `var…`: the
 * development-variant fonts under them; `wide2`: other draws), and the development and development-variant
 * screen replays (`replay`, `var-replay`). Development seeds only. One JSON line per
 * image on stdout. Usage: npx tsx scripts/screen-scan.ts --sets wide-back,replay --people 0-51
 */
import { prepareInput } from '../server/analysis/input.js';
import { detectRecapture } from '../server/analysis/stages/recapture.js';
import { cached } from '../test/fixtures/cache.js';
import { CARD_H, CARD_W, PASSPORT_H, PASSPORT_W } from '../test/fixtures/documents.js';
import { backStressPhoto, stressRanges } from '../test/fixtures/hard/back-stress.js';
import { capture, drawCapture } from '../test/fixtures/hard/capture.js';
import { DEV, DEV_VARIANT, type CaptureRanges, type HalfConfig } from '../test/fixtures/hard/config.js';
import { hardFlat, hardPhoto, hardScreen, type HardKind } from '../test/fixtures/hard/set.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const [from, to] = (arg('--people') ?? '0-51').split('-').map(Number) as [number, number];
const sets = (arg('--sets') ?? 'dev-back,wide-back,replay').split(',');

const WIDE = stressRanges('wide');
const HARSH = stressRanges('harsh');
const CODE: Record<HardKind, number> = { 'licence-front': 1, 'licence-back': 2, passport: 3 };

function stressed(half: HalfConfig, i: number, kind: HardKind, thin: boolean, name: string, ranges: CaptureRanges, salt: number): Promise<Buffer> {
  return cached(`screen-scan-v1/${half.name}/${name}/${i}-${kind}${thin ? '-thin' : ''}.jpg`, async () => {
    const flat = await hardFlat(half, i, kind, thin ? 'thin' : 'standard');
    const aspect = kind === 'passport' ? PASSPORT_H / PASSPORT_W : CARD_H / CARD_W;
    return (await capture(flat.png, drawCapture(half.seedBase * 7 + i * 13 + CODE[kind] + salt, ranges, aspect))).jpeg;
  });
}

function image(set: string, i: number): Promise<Buffer> {
  const thin = set.endsWith('-thin');
  const s = thin ? set.slice(0, -5) : set;
  const kindOf = (x: string): HardKind => (x.endsWith('front') ? 'licence-front' : x.endsWith('passport') ? 'passport' : 'licence-back');
  const [mode, what] = s.split('-') as [string, string];
  const kind = kindOf(what ?? '');
  if (s === 'replay') return hardScreen(DEV, i);
  if (s === 'var-replay') return hardScreen(DEV_VARIANT, i);
  if (mode === 'dev') return hardPhoto(DEV, i, kind, thin ? 'thin' : 'standard');
  if (mode === 'var') return hardPhoto(DEV_VARIANT, i, kind, thin ? 'thin' : 'standard');
  if ((mode === 'wide' || mode === 'harsh') && kind === 'licence-back') return backStressPhoto(i, mode, thin ? 'thin' : 'standard');
  if (mode === 'wide') return stressed(DEV, i, kind, thin, 'wide', WIDE, 0);
  if (mode === 'wide2') return stressed(DEV, i, kind, thin, 'wide2', WIDE, 500_000);
  if (mode === 'varwide') return stressed(DEV_VARIANT, i, kind, thin, 'varwide', WIDE, 700_000);
  if (mode === 'harsh') return stressed(DEV, i, kind, thin, 'harsh', HARSH, 300_000);
  if (mode === 'varharsh') return stressed(DEV_VARIANT, i, kind, thin, 'varharsh', HARSH, 800_000);
  throw new Error(`unknown set ${set}`);
}

for (const set of sets) {
  for (let i = from; i <= to; i++) {
    const bytes = await image(set, i);
    const prepared = await prepareInput(bytes);
    const t = Date.now();
    const out = await detectRecapture(prepared.raster, 'document');
    const { width, height } = prepared.raster;
    process.stdout.write(
      `${JSON.stringify({ set, i, screen: out.screen, labels: out.labels, size: [width, height], ms: Date.now() - t, ...out.documentScore })}\n`,
    );
  }
}
