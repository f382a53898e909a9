/**
 * Given names a reader ran together ("ANNAOLIVIA" for "ANNA OLIVIA": PaddleOCR drops the spaces
 * of small print) parted where the page itself spells the parts apart. A front prints the
 * holder's names more than once (the name block, the signature, a ghost line), and the other
 * reader often reads the same line with its space; a run is parted only into two words that
 * each stand alone somewhere in either reading, so a single long name ("ANNABELLE") stays whole
 * unless both of its halves are printed as words of their own.
 */
import type { ProcessorField } from './aamva.js';

/**
 * Shortest part: two-letter words on a card are mostly codes and labels (MA, DL, NO), which
 * would part a name like MARIA wherever a code stands alone.
 */
const PART = 3;

/** Words of capitals (3+ letters) that stand alone in the readings' lines. */
function standaloneWords(lines: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const line of lines) for (const w of line.toUpperCase().split(/[^A-Z'-]+/)) if (w.length >= PART) out.add(w);
  return out;
}

/**
 * A run parted into two words the page prints alone, or `null`; only one parting may fit. The
 * run itself is on the page too (the reading that ran it together), so that says nothing.
 */
function part(run: string, words: ReadonlySet<string>): readonly [string, string] | null {
  if (run.length < 2 * PART) return null;
  const fits: (readonly [string, string])[] = [];
  for (let i = PART; i <= run.length - PART; i++) {
    const [a, b] = [run.slice(0, i), run.slice(i)];
    if (words.has(a) && words.has(b)) fits.push([a, b]);
  }
  return fits.length === 1 ? fits[0]! : null;
}

/**
 * The fields with their given names parted where a run of them is two words the readings print
 * apart (`lines`: every line of both readings). First, middle and full name follow.
 */
export function partRunNames(fields: Readonly<Record<string, ProcessorField>>, lines: readonly string[]): Record<string, ProcessorField> {
  const out = { ...fields };
  const [first, middle, last] = [fields['First Name'], fields['Middle Name'], fields['Last Name']];
  if (!first || !last) return out;
  const words = standaloneWords(lines);
  const given = [String(first.value), ...(middle ? [String(middle.value)] : [])].join(' ').split(' ');
  const parted = given.flatMap((w) => part(w, words) ?? [w]);
  if (parted.length === given.length) return out;
  const c = first.confidence;
  out['First Name'] = { value: parted[0]!, confidence: c };
  out['Middle Name'] = { value: parted.slice(1).join(' '), confidence: c };
  out['Full Name'] = { value: `${parted.join(' ')} ${String(last.value)}`, confidence: fields['Full Name']?.confidence ?? c };
  return out;
}
