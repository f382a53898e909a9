/**
 * `npm run eval`: accuracy of the analysis engine on the hard generated set (test/fixtures/hard):
 * a development half to tune on and a held-out half, made with other seeds, fonts, layouts,
 * faces and distortions, to report. Every rate carries its Wilson 95 % interval; both kinds of
 * error are shown (genuine captures refused or flagged, and fraud accepted). Images are made on
 * first use and cached under test/.fixtures-cache/. Method and results: docs/analysis.md.
 *
 * Usage: npm run eval -- [--people N] [--half dev|heldout|both|dev-variant] [--part all|documents|backs|backs-stress|passports|passports-stress|fronts|attacks|faces|liveness] [--rows standard|thin] [--stresses S1,S2] [--kinds K1,K2] [--faces F1,F2] [--sessions N] [--skip-takes N] [--out FILE]
 *   --half    `dev-variant`: the development identities in other fonts, with the `stacked`
 *             layout and harsher uploads (test/fixtures/hard/config.ts), to check that a change
 *             tuned on `dev` is no fit to its fonts before the held-out half is spent.
 *   --people  identities per half (default 52, so 104 in all); each brings a licence front,
 *             a licence back, a passport and two forgeries (a pasted date of birth or a
 *             screen replay, alternating, and a re-typed date of birth).
 *   --part    `documents` runs the documents and the face match (which uses their portraits),
 *             `faces` only the face match, its portraits found by the pipeline's face stage
 *             without the rest of the pipeline (fast: the way to reach 5,000+ impostor pairs),
 *             `liveness` only the presentation-attack sessions, `attacks` only the document
 *             forgeries (no genuine captures: pair it with a `documents` run for false rejects);
 *             `backs` only the licence backs (their refusals and decode rate), `backs-stress`
 *             the development backs under a harder capture sweep (development half only);
 *             `passports` only the genuine passports: their refusals and flags, MRZ exact and
 *             accepted wrong, and each passport's outcome (person: what was raised, MRZ exact);
 *             `passports-stress` the development passports under theirs (dim, blur, small,
 *             all at once, the MRZ set smaller or larger; development half only): MRZ exact, accepted with a wrong MRZ,
 *             sent to review, refused;
 *             `fronts` only the genuine licence fronts: their refusals, each printed field's
 *             exact rate and every misread (expected → read), to tune the front reader on;
 *             default documents and liveness.
 *   --rows    `thin`: licence backs (in `documents`, `backs` and `backs-stress`) drawn with the
 *             PDF417 rows 1.5 modules tall that the set drew until 2026-11-27, a stress
 *             variant reported on its own; default `standard`, rows 3-4 modules tall as encoders
 *             draw them (test/fixtures/hard/documents.ts: `BackRows`).
 *   --stresses backs-stress: only these conditions, comma-separated (default all: small, blur,
 *             jpeg, tilt, bright-finger, all, columns, columns-small, columns-wide, wide, harsh).
 *   --scores  also write the face match's raw pair scores to FILE.<half>.json.
 *   --kinds   liveness presentations to run, comma-separated (default all: bona-fide,print,
 *             print-closer,screen,replay-injected,photo-sequence), one kind after another.
 *   --faces   liveness: only these demo faces of the half, comma-separated (default all).
 *   --sessions liveness: sessions per face and presentation (default 1); each more is another
 *             take of the same person (its own camera noise, flash colours and blink moment).
 *   --skip-takes liveness: leave out the first N takes of `--sessions` (default 0), e.g.
 *             `--sessions 2 --skip-takes 1` runs the second takes alone.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { closeEngines, missingAnalysisAssets } from '../server/analysis/engines.js';
import { HALVES, type HalfConfig, type HalfName } from '../test/fixtures/hard/config.js';
import type { BackRows } from '../test/fixtures/hard/documents.js';
import { evalBackStress } from './eval/back-stress.js';
import { BACK_STRESSES, type BackStress } from '../test/fixtures/hard/back-stress.js';
import { evalDocuments, type FraudResult, type GenuineResult } from './eval/documents.js';
import { evalPassportStress } from './eval/passport-stress.js';
import { faceMatchTables } from './eval/face-report.js';
import { documentPortraits, evalLiveness, PAD_KINDS, portraitOf, type Portrait } from './eval/faces.js';
import type { LiveKind } from '../test/fixtures/hard/liveness-sessions.js';
import { hardPhoto } from '../test/fixtures/hard/set.js';
import { formatRate, padRates, rateOf, viaCounts, type Rate } from './eval/metrics.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const PEOPLE = Number(arg('--people') ?? 52);
const HALF = (arg('--half') ?? 'both') as HalfName | 'both';
const OUT = arg('--out');
const PART = arg('--part') ?? 'all';
/** `--scores FILE`: the face match's raw pair scores as JSON (FILE.dev.json, FILE.heldout.json). */
const SCORES = arg('--scores');
const KINDS_RUN = (arg('--kinds')?.split(',') ?? PAD_KINDS) as LiveKind[];
const FACES_RUN = arg('--faces')?.split(',').map(Number);
const SESSIONS = Number(arg('--sessions') ?? 1);
const SKIP_TAKES = Number(arg('--skip-takes') ?? 0);
const ROWS = (arg('--rows') ?? 'standard') as BackRows;
const STRESSES_RUN = (arg('--stresses')?.split(',') ?? BACK_STRESSES) as BackStress[];
const USAGE =
  'usage: npm run eval -- [--people N] [--half dev|heldout|both|dev-variant] [--part all|documents|backs|backs-stress|passports|passports-stress|fronts|attacks|faces|liveness] [--rows standard|thin] [--stresses S1,S2] [--kinds K1,K2] [--faces F1,F2] [--sessions N] [--skip-takes N] [--out FILE]\n(backs-stress, passports-stress: --half dev only; the options are described at the top of scripts/eval.ts)\n';
// `--help` used to fall through to the defaults and start the whole evaluation (an hour of CPU).
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (
  !Number.isInteger(SESSIONS) ||
  SESSIONS < 1 ||
  !Number.isInteger(SKIP_TAKES) ||
  SKIP_TAKES < 0 ||
  SKIP_TAKES >= SESSIONS ||
  !Number.isInteger(PEOPLE) ||
  PEOPLE < 1 ||
  !['dev', 'heldout', 'both', 'dev-variant'].includes(HALF) ||
  !['all', 'documents', 'backs', 'backs-stress', 'passports', 'passports-stress', 'fronts', 'attacks', 'faces', 'liveness'].includes(PART) ||
  ((PART === 'backs-stress' || PART === 'passports-stress') && HALF !== 'dev') ||
  !['standard', 'thin'].includes(ROWS) ||
  KINDS_RUN.some((k) => !PAD_KINDS.includes(k)) ||
  STRESSES_RUN.some((s) => !BACK_STRESSES.includes(s))
) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const today = new Date('2026-06-01T00:00:00Z');
const lines: string[] = [];
const print = (s = ''): void => {
  lines.push(s);
  process.stdout.write(`${s}\n`);
};
const progress = (s: string): void => void process.stderr.write(`  … ${s}\n`);
const R = (r: Rate): string => formatRate(r);
const KINDS = ['licence-front', 'licence-back', 'passport'] as const;

function genuineTables(g: GenuineResult[]): void {
  // What the service sends to review (documentDecision): photoshopped, a screen, an MRZ with
  // doubts, and, for passports and backs, no machine-readable data read (before 2026-11-29 06:50
  // UTC an unread MRZ or PDF417 was not counted here, only in the reading rates).
  const flagged = (x: GenuineResult): boolean => x.flags.length > 0;
  const bad = (x: GenuineResult): boolean => x.status === 'Failed' || flagged(x);
  print('\n#### Genuine captures refused or flagged (false rejects)\n');
  print('| document | refused (Failed) | flagged (to review: photoshopped, screen, MRZ uncertain, no MRZ or barcode read) | refused or flagged |');
  print('|---|---|---|---|');
  for (const k of [...KINDS, 'all'] as const) {
    const xs = k === 'all' ? g : g.filter((x) => x.kind === k);
    print(`| ${k} | ${R(rateOf(xs, (x) => x.status === 'Failed'))} | ${R(rateOf(xs, flagged))} | ${R(rateOf(xs, bad))} |`);
  }
  const reasons = new Map<string, number>();
  for (const x of g) {
    const why = [x.failure, ...x.flags].filter(Boolean).join(' + ');
    if (why) reasons.set(`${x.kind}: ${why}`, (reasons.get(`${x.kind}: ${why}`) ?? 0) + 1);
  }
  print(`\nWhy: ${[...reasons].map(([k, v]) => `${k} ×${v}`).join('; ') || 'nothing raised'}.`);
  print('\n| scene | refused or flagged |');
  print('|---|---|');
  for (const s of ['dim', 'normal', 'bright'])
    print(
      `| ${s} | ${R(
        rateOf(
          g.filter((x) => x.scene === s),
          bad,
        ),
      )} |`,
    );
  print(
    `| finger over an edge | ${R(
      rateOf(
        g.filter((x) => x.finger),
        bad,
      ),
    )} |`,
  );

  print('\n#### Reading\n');
  const backs = g.filter((x) => x.kind === 'licence-back');
  const passports = g.filter((x) => x.kind === 'passport');
  const fronts = g.filter((x) => x.kind === 'licence-front');
  // A licence typed `other` is routed wrongly by a customer that branches on doc_type.
  const typedRight = (x: GenuineResult): boolean => x.docType === (x.kind === 'passport' ? 'passport' : 'driving_licence');
  const mistyped = g.filter((x) => !typedRight(x));
  print(
    `- Typed as what they are (\`doc_type\`: a licence \`driving_licence\`, a passport \`passport\`): ${R(rateOf(g, typedRight))}${mistyped.length ? ` (${mistyped.map((x) => `${x.kind} ${x.person}: ${x.docType ?? 'not typed'}`).join('; ')})` : ''}`,
  );
  print(`- Licence backs decoded (PDF417 → AAMVA): ${R(rateOf(backs, (x) => x.barcode))}`);
  if (backs.some((x) => x.barcodeVia)) print(`- Decoded by: ${viaCounts(backs.map((x) => x.barcodeVia))}`);
  // A wrong decode is worse than none: every decoded back's fields against the card's.
  const wrong = backs.filter((x) => x.barcode && Object.values(x.fields).some((ok) => !ok));
  print(
    `- Licence backs decoded with a value unlike the card's: ${R(rateOf(backs, (x) => wrong.includes(x)))}${wrong.length ? ` (${wrong.map((x) => `${x.person}: ${Object.keys(x.misreads).join(', ')}`).join('; ')})` : ''}`,
  );
  if (backs.length) {
    const cpu = backs.map((x) => x.cpuMs).sort((a, b) => a - b);
    const med = (xs: readonly number[]): string => (xs.length ? `${xs[Math.floor(xs.length / 2)]}` : '—');
    print(
      `- CPU time per back (this process, user + system): median ${med(cpu)} ms, mean ${Math.round(cpu.reduce((a, b) => a + b, 0) / cpu.length)} ms, max ${cpu.at(-1)} ms; decoded ${med(
        backs
          .filter((x) => x.barcode)
          .map((x) => x.cpuMs)
          .sort((a, b) => a - b),
      )} ms, not decoded ${med(
        backs
          .filter((x) => !x.barcode)
          .map((x) => x.cpuMs)
          .sort((a, b) => a - b),
      )} ms (medians)`,
    );
  }
  print(`- Passports, MRZ both lines exact: ${R(rateOf(passports, (x) => x.mrzExact))}`);
  print(
    `- Passports accepted with a wrong MRZ (every check digit held, nothing raised): ${R(rateOf(passports, (x) => x.status === 'Success' && x.mrzValid && !x.mrzExact && !flagged(x)))}`,
  );
  const pooled = fronts.flatMap((x) => Object.values(x.fields));
  print(`- Licence fronts, printed fields exact (all fields pooled): ${R(rateOf(pooled, (x) => x))}`);
  print('\n| field | front (printed, OCR) | back (barcode) | passport (MRZ) |');
  print('|---|---|---|---|');
  const names = [...new Set(g.flatMap((x) => Object.keys(x.fields)))];
  for (const n of names) {
    const cell = (xs: GenuineResult[]): string => {
      const have = xs.filter((x) => n in x.fields);
      return have.length ? R(rateOf(have, (x) => x.fields[n] === true)) : '—';
    };
    print(`| ${n} | ${cell(fronts)} | ${cell(backs)} | ${cell(passports)} |`);
  }
  print('\n| layout (font) | documents | refused or flagged |');
  print('|---|---|---|');
  const groups = new Map<string, GenuineResult[]>();
  for (const x of g) groups.set(`${x.kind} ${x.layout}`, [...(groups.get(`${x.kind} ${x.layout}`) ?? []), x]);
  for (const [k, xs] of groups) print(`| ${k} (${[...new Set(xs.map((x) => x.font))].join(', ')}) | ${xs.length} | ${R(rateOf(xs, bad))} |`);
}

async function evalHalf(half: HalfConfig): Promise<void> {
  const started = Date.now();
  print(`\n### ${half.name === 'heldout' ? 'Held-out half' : half.name === 'dev' ? 'Development half' : 'Development variant'} (${half.name})\n`);
  print(
    `${PEOPLE} identities (seeds from ${half.seedBase}); licence backs' PDF417 rows ${ROWS === 'thin' ? '1.5 modules tall (the `thin` stress variant)' : '3-4 modules tall'}; fonts ${half.fonts.join(', ')}; licence layouts ${half.licenceLayouts.join(', ')}; passport layouts ${half.passportLayouts.join(', ')}; ${half.faces.length} faces (demo faces ${half.faces[0]}–${half.faces.at(-1)}).`,
  );
  if (PART === 'all' || PART === 'documents') await evalDocumentsAndFaces(half);
  if (PART === 'attacks') await attackTable(half);
  if (PART === 'backs') genuineTables((await evalDocuments(half, PEOPLE, today, progress, false, ['licence-back'], false, ROWS)).genuine);
  if (PART === 'fronts') {
    const fronts = (await evalDocuments(half, PEOPLE, today, progress, false, ['licence-front'], false)).genuine;
    genuineTables(fronts);
    misreadList(fronts);
  }
  if (PART === 'passports') {
    const passports = (await evalDocuments(half, PEOPLE, today, progress, false, ['passport'], false)).genuine;
    genuineTables(passports);
    passportList(passports);
  }
  if (PART === 'backs-stress') await evalBackStress(PEOPLE, today, print, progress, ROWS, STRESSES_RUN);
  if (PART === 'passports-stress') await evalPassportStress(PEOPLE, today, print, progress);
  if (PART === 'faces') {
    const found = await documentPortraits(half, PEOPLE, progress);
    await faceMatchTables(half, found.portraits, found.tried, print, SCORES && `${SCORES}.${half.name}.json`);
  }
  if (PART === 'all' || PART === 'liveness') await livenessTables(half);
  print(`\n_${half.name}: ${Math.round((Date.now() - started) / 1000)} s._`);
}

/** Every front field not read exactly, by field: which person, what was printed, what was read. */
function misreadList(fronts: readonly GenuineResult[]): void {
  print('\n#### Front fields misread (person: printed → read)\n');
  const byField = new Map<string, string[]>();
  for (const x of fronts)
    for (const [k, m] of Object.entries(x.misreads))
      byField.set(k, [...(byField.get(k) ?? []), `${x.person}: ${m.expected} → ${m.read === null ? '(nothing)' : JSON.stringify(m.read)}`]);
  for (const [k, xs] of byField) print(`- ${k} (${xs.length}): ${xs.join('; ')}`);
  if (byField.size === 0) print('None.');
}

/** Each passport's outcome: what was raised (nothing, a refusal's code, a flag) and whether the MRZ was read exactly. */
function passportList(passports: readonly GenuineResult[]): void {
  print('\n#### Each passport (person: outcome, MRZ)\n');
  const outcome = (x: GenuineResult): string => [x.failure, ...x.flags].filter(Boolean).join(' + ') || 'clean';
  print(passports.map((x) => `${x.person}: ${outcome(x)}, MRZ ${x.mrzExact ? 'exact' : x.mrzValid ? 'valid, wrong' : 'not read valid'}`).join('; '));
}

/** The document forgeries alone (`--part attacks`): quick to re-run while a check is tuned. */
async function attackTable(half: HalfConfig): Promise<void> {
  const docs = await evalDocuments(half, PEOPLE, today, progress, true);
  fraudTable(docs.fraud);
}

function fraudTable(fraud: readonly FraudResult[]): void {
  print('\n#### Fraud accepted (whole pipeline: status Success, not photoshopped, not a screen)\n');
  print('| forgery | accepted (false accept) | caught by its own check |');
  print('|---|---|---|');
  for (const a of ['pasted-dob', 'retyped-dob', 'screen-replay'] as const) {
    const xs = fraud.filter((x) => x.attack === a);
    print(`| ${a} | ${R(rateOf(xs, (x) => x.accepted))} | ${R(rateOf(xs, (x) => x.detected))} |`);
  }
}

async function evalDocumentsAndFaces(half: HalfConfig): Promise<void> {
  const docs = await evalDocuments(half, PEOPLE, today, progress, false, undefined, undefined, ROWS);
  genuineTables(docs.genuine);
  fraudTable(docs.fraud);

  progress(`${half.name}: faces`);
  const withFace = docs.genuine.filter((x) => x.kind !== 'licence-back');
  const portraits: Portrait[] = [];
  for (const x of withFace) {
    const portrait = await portraitOf(await hardPhoto(half, x.person, x.kind), x.portrait);
    if (portrait) portraits.push({ face: x.face, ...portrait });
  }
  await faceMatchTables(half, portraits, withFace.length, print, SCORES && `${SCORES}.${half.name}.json`);

  const ms = docs.genuine.map((x) => x.ms);
  print(`\nMean pipeline time per document ${Math.round(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length))} ms (this includes waiting for a shared CPU).`);
}

async function livenessTables(half: HalfConfig): Promise<void> {
  progress(`${half.name}: liveness`);
  const pad = await evalLiveness(
    half,
    (p) =>
      progress(
        `${half.name} liveness: face ${p.face}${p.take ? ` take ${p.take}` : ''} ${p.kind}: ${p.decision}${p.reasons.length ? ` (${p.reasons.join(', ')})` : ''}${p.flash !== undefined ? `, flash ${p.flash.toFixed(2)}` : ''}${
          p.turn
            ? `, turn ${p.turn.measured.toFixed(3)} planarity ${p.turn.planarity?.toFixed(3) ?? '-'} noise ${p.turn.noise?.toFixed(3) ?? '-'} ${p.turn.continuous === false ? 'jump' : 'continuous'}`
            : ''
        }${p.antispoof !== undefined ? `, antispoof ${p.antispoof.toFixed(2)}` : ''}`,
      ),
    KINDS_RUN,
    FACES_RUN,
    SESSIONS,
    SKIP_TAKES,
  );
  const rates = padRates(pad.map((p) => ({ attack: p.kind !== 'bona-fide', species: p.kind, accepted: p.decision === 'complete' })));
  const notRejected = padRates(pad.map((p) => ({ attack: p.kind !== 'bona-fide', species: p.kind, accepted: p.decision !== 'rejected' })));
  print('\n#### Liveness on simulated presentation attacks (`analyseSelfie`)\n');
  print('| presentation | sessions | APCER: accepted as live (complete) | not rejected (complete or review) |');
  print('|---|---|---|---|');
  for (const k of KINDS_RUN.filter((x) => x !== 'bona-fide'))
    print(`| ${k} | ${pad.filter((p) => p.kind === k).length} | ${R(rates.apcer[k]!)} | ${R(notRejected.apcer[k]!)} |`);
  print(`| worst attack (ISO APCER) | | ${R(rates.apcerWorst)} | ${R(notRejected.apcerWorst)} |`);
  print(
    `| bona fide: BPCER (not complete) | ${pad.filter((p) => p.kind === 'bona-fide').length} | ${R(rates.bpcer)} | rejected: ${R(
      rateOf(
        pad.filter((p) => p.kind === 'bona-fide'),
        (p) => p.decision === 'rejected',
      ),
    )} |`,
  );
  const why = new Map<string, number>();
  for (const p of pad) for (const r of p.reasons) why.set(`${p.kind}: ${r}`, (why.get(`${p.kind}: ${r}`) ?? 0) + 1);
  print(`\nReasons given: ${[...why].map(([k, v]) => `${k} ×${v}`).join('; ') || 'none'}.`);
  const spread = KINDS_RUN.map((k) => {
    const xs = pad.flatMap((p) => (p.kind === k && p.flash !== undefined ? [p.flash] : [])).sort((a, b) => a - b);
    return xs.length
      ? `${k} ${xs[0]!.toFixed(2)} / ${xs[Math.floor(xs.length / 2)]!.toFixed(2)} / ${xs.at(-1)!.toFixed(2)} (${xs.length})`
      : `${k} not measured`;
  });
  print(`\nFlash correlation (min / median / max, sessions measured): ${spread.join('; ')}.`);
}

print(
  `## Analysis evaluation (hard generated set, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'})`,
);
print(
  `\nRates are shown as value [Wilson 95 % interval] (count). Tune on the development half; only the held-out half says how the engine does on captures it was not tuned on.`,
);
// Numbers measured without a model are not the engine's: said in the report itself.
for (const missing of missingAnalysisAssets()) print(`\n**Warning:** ${missing}`);
for (const h of HALF === 'both' ? (['dev', 'heldout'] as const) : [HALF]) await evalHalf(HALVES[h]);
if (OUT) writeFileSync(OUT, `${lines.join('\n')}\n`);
await closeEngines();
