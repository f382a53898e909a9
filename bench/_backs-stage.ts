/**
 * The barcode stage alone on development stress backs (test/fixtures/hard/back-stress.ts), or on
 * the `dev` and `dev-variant` backs themselves, as the pipeline runs it:
 * `node --import tsx bench/_backs-stage.ts STRESS[,STRESS] FROM TO [thin]` (`thin`: the 1.5-module
 * rows of `--rows thin`). One line a back: decoded or
 * not, by which attempt, wrong or not (against the card's own payload), CPU. Development
 * half only: the held-out half is refused.
 */
import { prepareInput } from '../server/analysis/input.js';
import { fitRaster, toGrey } from '../server/analysis/raster.js';
import { decodePdf417 } from '../server/analysis/stages/barcode.js';
import { aamvaPayload } from '../test/fixtures/aamva.js';
import { backStressPhoto, type BackStress } from '../test/fixtures/hard/back-stress.js';
import { DEV, DEV_VARIANT } from '../test/fixtures/hard/config.js';
import type { BackRows } from '../test/fixtures/hard/documents.js';
import { hardPeople, hardPhoto } from '../test/fixtures/hard/set.js';

const stresses = (process.argv[2] ?? 'tilt').split(',') as (BackStress | 'dev' | 'dev-variant')[];
const from = Number(process.argv[3] ?? 0);
const to = Number(process.argv[4] ?? 8);
const rows: BackRows = process.argv[5] === 'thin' ? 'thin' : 'standard';
const people = hardPeople(DEV, to);
const total = { n: 0, decoded: 0, wrong: 0 };
for (const stress of stresses) {
  for (let i = from; i < to; i++) {
    const bytes =
      stress === 'dev' || stress === 'dev-variant'
        ? await hardPhoto(stress === 'dev' ? DEV : DEV_VARIANT, i, 'licence-back', rows)
        : await backStressPhoto(i, stress, rows);
    const c = process.cpuUsage();
    const grey = toGrey(await fitRaster((await prepareInput(bytes)).raster, 2000));
    const hit = await decodePdf417(grey);
    const u = process.cpuUsage(c);
    const wrong = hit.text !== null && hit.text !== aamvaPayload(people[i]!);
    total.n++;
    if (hit.text !== null) total.decoded++;
    if (wrong) total.wrong++;
    const how = hit.text !== null ? `decoded ${hit.via}${wrong ? ' WRONG' : ''}` : `undecoded${hit.symbol ? '' : ' (no symbol)'}`;
    process.stdout.write(`${stress} ${i}: ${how}, cpu ${Math.round((u.user + u.system) / 1000)} ms\n`);
  }
}
process.stdout.write(`decoded ${total.decoded}/${total.n}, wrong ${total.wrong}\n`);
