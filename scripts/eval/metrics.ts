/**
 * The evaluation's arithmetic: rates with Wilson 95 % intervals, FAR and TAR at a threshold,
 * TAR at a target FAR (the threshold set from the impostor scores), and APCER / BPCER
 * (ISO/IEC 30107-3) for presentation-attack detection.
 */

/** A rate k/n with its Wilson score interval. */
export interface Rate {
  readonly k: number;
  readonly n: number;
  /** k/n, NaN when n = 0. */
  readonly p: number;
  readonly low: number;
  readonly high: number;
}

/** z for a two-sided 95 % interval. */
export const Z95 = 1.959964;

/** k successes of n, with the Wilson score interval (exact at 0 and n, unlike the normal one). */
export function wilson(k: number, n: number, z = Z95): Rate {
  if (n === 0) return { k, n, p: Number.NaN, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { k, n, p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** "12.5 % [8.1–18.7] (12/96)": the rate, its 95 % interval and the counts. */
export function formatRate(r: Rate, digits = 1): string {
  if (r.n === 0) return 'n/a (0 cases)';
  const f = (x: number): string => (100 * x).toFixed(digits);
  return `${f(r.p)} % [${f(r.low)}–${f(r.high)}] (${r.k}/${r.n})`;
}

/** "soft ×3, rectified ×2": how many times each non-null label occurs, most frequent first. */
export function viaCounts(labels: readonly (string | null)[]): string {
  const n = new Map<string, number>();
  for (const l of labels) if (l) n.set(l, (n.get(l) ?? 0) + 1);
  return (
    [...n]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ') || '—'
  );
}

/** Counts of values meeting a test, as a Wilson rate. */
export function rateOf<T>(xs: readonly T[], hit: (x: T) => boolean): Rate {
  return wilson(xs.filter(hit).length, xs.length);
}

/** Share of genuine pairs accepted (score ≥ threshold). */
export function tarAt(genuine: readonly number[], threshold: number): Rate {
  return rateOf(genuine, (s) => s >= threshold);
}

/** Share of impostor pairs accepted (score ≥ threshold). */
export function farAt(impostor: readonly number[], threshold: number): Rate {
  return rateOf(impostor, (s) => s >= threshold);
}

export interface OperatingPoint {
  /** The lowest threshold whose FAR is at most the target (scores ≥ it are accepted). */
  readonly threshold: number;
  readonly far: Rate;
  readonly tar: Rate;
  /** False when there are too few impostor pairs to measure the target at all (n < 1/target). */
  readonly measurable: boolean;
}

/**
 * The operating point for a target FAR: the lowest threshold at which at most
 * floor(target × impostors) impostor pairs are accepted, and the TAR there. Below 1/target
 * impostor pairs the target cannot be measured; the threshold is then above every impostor.
 */
export function tarAtFar(genuine: readonly number[], impostor: readonly number[], targetFar: number): OperatingPoint {
  const sorted = [...impostor].sort((a, b) => b - a);
  const allowed = Math.floor(targetFar * sorted.length + 1e-9);
  // Accepting `allowed` impostors: the threshold sits just above the next-highest impostor score.
  const next = sorted[allowed];
  const threshold = next === undefined ? Number.NEGATIVE_INFINITY : next + 1e-9;
  return { threshold, far: farAt(impostor, threshold), tar: tarAt(genuine, threshold), measurable: sorted.length * targetFar >= 1 };
}

/** One presentation: was it an attack, and did the system accept it as bona fide? */
export interface Presentation {
  readonly attack: boolean;
  /** The attack instrument species (print, screen, ...) or 'bona-fide'. */
  readonly species: string;
  readonly accepted: boolean;
}

export interface PadRates {
  /** Per species: attacks accepted as bona fide. ISO reports the worst species' APCER. */
  readonly apcer: Readonly<Record<string, Rate>>;
  readonly apcerWorst: Rate;
  /** Bona fide presentations refused (classified as attacks). */
  readonly bpcer: Rate;
}

/** APCER per attack species (and the worst one) and BPCER. */
export function padRates(ps: readonly Presentation[]): PadRates {
  const species = [...new Set(ps.filter((p) => p.attack).map((p) => p.species))];
  const apcer: Record<string, Rate> = {};
  for (const s of species)
    apcer[s] = rateOf(
      ps.filter((p) => p.attack && p.species === s),
      (p) => p.accepted,
    );
  const worst = Object.values(apcer).reduce<Rate>((w, r) => (r.p > w.p || Number.isNaN(w.p) ? r : w), wilson(0, 0));
  return {
    apcer,
    apcerWorst: worst,
    bpcer: rateOf(
      ps.filter((p) => !p.attack),
      (p) => !p.accepted,
    ),
  };
}
