/**
 * Reed-Solomon error and erasure correction over GF(929), the field of PDF417's error
 * correction (ISO/IEC 15438 §5.7: generator roots 3^1 … 3^k, codewords highest degree first).
 * zxing corrects errors it finds itself but takes no word on which codewords are unsure; a
 * codeword known to be unsure (an erasure) costs half of an unknown error, so a soft reader
 * that marks its doubtful codewords corrects twice as many of them (issue 20). No npm package
 * does PDF417 error correction on its own (checked on the registry's list, 2026-11-27).
 */

const P = 929;
const EXP = new Uint16Array(2 * P);
const LOG = new Uint16Array(P);
{
  let x = 1;
  for (let i = 0; i < P - 1; i++) {
    EXP[i] = x;
    EXP[i + P - 1] = x;
    LOG[x] = i;
    x = (x * 3) % P;
  }
}

const add = (a: number, b: number): number => (a + b) % P;
const sub = (a: number, b: number): number => (a - b + P) % P;
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!);
const inv = (a: number): number => EXP[P - 1 - LOG[a]!]!;
/** 3 raised to `e` (any integer). */
const pow3 = (e: number): number => EXP[((e % (P - 1)) + (P - 1)) % (P - 1)]!;

/** A polynomial's value at x; coefficients lowest degree first. */
function evalLow(c: readonly number[], x: number): number {
  let s = 0;
  for (let i = c.length - 1; i >= 0; i--) s = add(mul(s, x), c[i]!);
  return s;
}

/** Syndromes S_1 … S_k of the received word (highest degree first): its values at 3^j. */
function syndromes(word: readonly number[], k: number): number[] {
  const s: number[] = [];
  for (let j = 1; j <= k; j++) {
    const x = pow3(j);
    let v = 0;
    for (const c of word) v = add(mul(v, x), c);
    s.push(v);
  }
  return s;
}

/** What a correction did: the corrected word and how many errors and erasures it used. */
export interface RsCorrection {
  readonly word: number[];
  readonly errors: number;
  readonly erasures: number;
}

/**
 * Corrects `word` (all codewords of a symbol, data then `k` error-correction codewords) given
 * the positions known to be unsure. Returns null when the word is beyond what `k` codewords can
 * correct (2 errors + erasures > k - `margin`), or when the locator's roots do not all fall
 * on the word: a decode that fails its check is never returned. `margin` keeps a few
 * error-correction codewords unspent, so that a word too damaged is refused rather than
 * corrected into another valid word.
 */
export function correctErasures(word: readonly number[], k: number, erasures: readonly number[], margin = 0): RsCorrection | null {
  const n = word.length;
  if (k < 2 || n <= k || n > P - 1 || erasures.length > k - margin) return null;
  const s = syndromes(word, k);
  if (s.every((v) => v === 0)) return { word: [...word], errors: 0, erasures: 0 };
  // Position p carries degree n-1-p: its locator is 3^(n-1-p).
  const locator = (p: number): number => pow3(n - 1 - p);
  // Erasure locator Γ(x) = Π (1 - X x); Berlekamp-Massey started from it (Blahut).
  let lambda = [1];
  for (const p of erasures) lambda = polyMul(lambda, [1, sub(0, locator(p))]);
  let b = [...lambda];
  const f = erasures.length;
  let l = f;
  for (let r = f + 1; r <= k; r++) {
    let delta = 0;
    for (let i = 0; i < lambda.length; i++) if (r - 1 - i >= 0) delta = add(delta, mul(lambda[i]!, s[r - 1 - i]!));
    const xb = [0, ...b];
    if (delta === 0) {
      b = xb;
      continue;
    }
    const t = polySub(
      lambda,
      xb.map((c) => mul(c, delta)),
    );
    if (2 * l <= r + f - 1) {
      l = r + f - l;
      const di = inv(delta);
      b = lambda.map((c) => mul(c, di));
    } else b = xb;
    lambda = t;
  }
  while (lambda.length > 1 && lambda[lambda.length - 1] === 0) lambda.pop();
  const degree = lambda.length - 1;
  const errors = degree - f;
  if (degree !== l || errors < 0 || 2 * errors + f > k - margin) return null;
  // Chien search over the word's positions: every root must be one of them.
  const positions: number[] = [];
  for (let p = 0; p < n; p++) if (evalLow(lambda, inv(locator(p))) === 0) positions.push(p);
  if (positions.length !== degree) return null;
  // Forney (first root 3^1): e = -Ω(X⁻¹) / Λ'(X⁻¹), Ω = S Λ mod x^k.
  const omega = polyMul(s, lambda).slice(0, k);
  const deriv = lambda.slice(1).map((c, i) => mul(c, (i + 1) % P));
  const out = [...word];
  for (const p of positions) {
    const xi = inv(locator(p));
    const den = evalLow(deriv, xi);
    if (den === 0) return null;
    out[p] = add(out[p]!, mul(evalLow(omega, xi), inv(den)));
  }
  if (!syndromes(out, k).every((v) => v === 0)) return null;
  return { word: out, errors: positions.filter((p) => !erasures.includes(p)).length, erasures: f };
}

function polyMul(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) out[i + j] = add(out[i + j]!, mul(a[i]!, b[j]!));
  return out;
}

function polySub(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(Math.max(a.length, b.length)).fill(0);
  for (let i = 0; i < out.length; i++) out[i] = sub(a[i] ?? 0, b[i] ?? 0);
  return out;
}

/** The `k` error-correction codewords of `data` (for tests and the clean re-drawing of a symbol). */
export function ecCodewords(data: readonly number[], k: number): number[] {
  // Generator Π (x - 3^j), j = 1..k, lowest degree first.
  let g = [1];
  for (let j = 1; j <= k; j++) g = polyMul(g, [sub(0, pow3(j)), 1]);
  // Remainder of data·x^k by g, by long division highest degree first.
  const rem = new Array<number>(k).fill(0);
  for (const d of data) {
    const factor = add(d, rem[0]!);
    for (let i = 0; i < k - 1; i++) rem[i] = sub(rem[i + 1]!, mul(factor, g[k - 1 - i]!));
    rem[k - 1] = sub(0, mul(factor, g[0]!));
  }
  return rem.map((c) => sub(0, c));
}
