/**
 * The frames for measuring how the widget's turn (BlazeFace keypoints, on the device) and the
 * server's (the face mesh's iris centres and nose tip, `turnFromMesh`) differ on the same frames:
 * for each cached bona fide liveness session of a half (`npm run eval -- --part liveness` makes
 * them), its straight look and its turn's frames, with the server's turn measured here. The
 * browser half (test/src/capture/turn-margin.measure.ts, run in Chromium) adds BlazeFace's.
 *
 * Usage: npx tsx scripts/eval/turn-margin.ts dev|heldout > .wtr-tmp/turn-margin.json
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CACHE_DIR } from '../../test/fixtures/cache.js';
import { prepareInput } from '../../server/analysis/input.js';
import { detectFaces } from '../../server/analysis/stages/face.js';
import { closeEngines } from '../../server/analysis/engines.js';

export interface MarginFrame {
  /** Session: face and take. */
  readonly session: string;
  /** `straight` (the look the turn is measured from) or `turn` (a turn frame, capture order). */
  readonly role: 'straight' | 'turn';
  /** Path from the repository root (served as is by the web test runner). */
  readonly path: string;
  /** The server's turn measure on the frame, null without a face. */
  readonly server: number | null;
}

const half = process.argv[2] ?? 'dev';
const dir = join(CACHE_DIR, 'live-v9', half);
const out: MarginFrame[] = [];
for (const name of existsSync(dir) ? readdirSync(dir).filter((n) => /-bona-fide(-t\d+)?-steps\.json$/.test(n)) : []) {
  const session = name.replace('-bona-fide', '').replace('-steps.json', '');
  const { counts, device } = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { counts: number[]; device: string | null };
  if (device !== null) continue;
  const base = name.replace('-steps.json', '');
  // Frames after the selfie: 3 straight, the flash, then the turn's (liveness-sessions.ts STEPS).
  const turnAt = counts[0]! + counts[1]!;
  const frames: [MarginFrame['role'], number][] = [
    ['straight', counts[0]! - 1],
    ...Array.from({ length: counts[2]! }, (_, i): [MarginFrame['role'], number] => ['turn', turnAt + i]),
  ];
  for (const [role, i] of frames) {
    const file = join(dir, `${base}-f${i}.jpg`);
    const faces = await detectFaces((await prepareInput(readFileSync(file))).raster);
    out.push({ session, role, path: `/${relative(process.cwd(), file)}`, server: faces[0]?.turn ?? null });
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
await closeEngines();
