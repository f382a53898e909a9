/**
 * Test audio made at test time: espeak-ng speaks, sox converts to what the voice method takes
 * (16 kHz, 16-bit, mono WAV). Digits are spoken as words, one by one, with the Klatt voice the
 * recogniser was measured on (docs/analysis.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The digits as the words a person reads ("407" → "four zero seven"). */
export function digitWords(digits: string): string {
  return [...digits].map((d) => WORDS[Number(d)]).join(' ');
}

function inTemp<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'verity-speech-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `text` spoken, as a 16 kHz mono 16-bit WAV; `volume` scales it (1 = espeak's level), `pad` adds
 * silence before and after (s), `tail` more silence after.
 */
export function speak(text: string, options: { volume?: number; pad?: number; tail?: number } = {}): Buffer {
  return inTemp((dir) => {
    const raw = join(dir, 'raw.wav');
    const out = join(dir, 'out.wav');
    execFileSync('espeak-ng', ['-v', 'en-us+klatt3', '-s', '150', '-w', raw, text]);
    const pad = options.pad ?? 0.3;
    execFileSync('sox', [
      '-V1',
      raw,
      '-r',
      '16000',
      '-c',
      '1',
      '-b',
      '16',
      out,
      'vol',
      String(0.8 * (options.volume ?? 1)),
      'pad',
      String(pad),
      String(pad + (options.tail ?? 0)),
    ]);
    return readFileSync(out);
  });
}

/** `seconds` of near-silence (sox's dither) or of white noise at `level` (0..1), as the method takes it. */
export function synthetic(kind: 'silence' | 'noise', seconds: number, level = 0.3): Buffer {
  return inTemp((dir) => {
    const out = join(dir, 'out.wav');
    const effect = kind === 'silence' ? ['trim', '0', String(seconds)] : ['synth', String(seconds), 'whitenoise', 'vol', String(level)];
    execFileSync('sox', ['-V1', '-n', '-r', '16000', '-c', '1', '-b', '16', out, ...effect]);
    return readFileSync(out);
  });
}
