import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Offline recognition of spoken digits by CMU PocketSphinx (Debian's `pocketsphinx` decoder and
 * its `pocketsphinx-en-us` acoustic model, BSD-2), restricted by a grammar to exactly `length`
 * digit words. The grammar asks "which digits were read?", never "were these digits read?":
 * the expected phrase is not given to the decoder, so a wrong phrase is heard as wrong digits.
 */
export const RECOGNISER = {
  decoder: process.env.VERITY_POCKETSPHINX ?? 'pocketsphinx_continuous',
  model: process.env.VERITY_POCKETSPHINX_MODEL ?? '/usr/share/pocketsphinx/model/en-us',
  name: 'pocketsphinx-en-us (digit grammar)',
} as const;

/** Longest a decode may take before it is stopped (a 20 s recording decodes in well under 2 s). */
const DECODE_TIMEOUT_MS = 30_000;

const grammars = new Map<number, Promise<string>>();

/** A JSGF grammar of exactly `length` digit words ("oh" for zero too), written once per process. */
function grammarFile(length: number): Promise<string> {
  let file = grammars.get(length);
  if (!file) {
    file = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'verity-voice-'));
      const path = join(dir, `digits-${length}.gram`);
      const words = 'zero | oh | one | two | three | four | five | six | seven | eight | nine';
      await writeFile(path, `#JSGF V1.0;\ngrammar digits;\n<d> = ${words} ;\npublic <digits> = ${Array(length).fill('<d>').join(' ')} ;\n`);
      return path;
    })();
    grammars.set(length, file);
  }
  return file;
}

/** Thrown when the decoder cannot run (not installed, killed): the job retries, then a reviewer decides. */
export class RecogniserUnavailable extends Error {
  override name = 'RecogniserUnavailable';
}

/**
 * The words heard in a 16 kHz 16-bit mono WAV, as the decoder prints them ("four oh seven …"),
 * or '' when it heard nothing. The decoder reads a file (it cannot open Node's stdin socket): the
 * copy lives in a private temporary folder for the decode only.
 */
export async function recogniseDigits(wav: Buffer, length: number, options: DecodeOptions = {}): Promise<string> {
  const grammar = await grammarFile(length);
  const dir = await mkdtemp(join(tmpdir(), 'verity-voice-rec-'));
  try {
    const input = join(dir, 'recording.wav');
    await writeFile(input, wav, { mode: 0o600 });
    return await decode(input, grammar, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How the decoder listens. */
export interface DecodeOptions {
  /** False: no spectral noise subtraction (the decoder's default is on). */
  readonly removeNoise?: boolean;
}

function decode(input: string, grammar: string, options: DecodeOptions): Promise<string> {
  const args = [
    '-infile',
    input,
    '-jsgf',
    grammar,
    '-hmm',
    join(RECOGNISER.model, 'en-us'),
    '-dict',
    join(RECOGNISER.model, 'cmudict-en-us.dict'),
    '-logfn',
    '/dev/null',
    ...(options.removeNoise === false ? ['-remove_noise', 'no'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(RECOGNISER.decoder, args, { stdio: ['ignore', 'pipe', 'ignore'], timeout: DECODE_TIMEOUT_MS });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', (error) => reject(new RecogniserUnavailable(`The speech recogniser could not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code !== 0) reject(new RecogniserUnavailable(`The speech recogniser stopped (${signal ?? `exit ${String(code)}`}).`));
      // One line per stretch of speech the decoder found; together they are what was read.
      else resolve(Buffer.concat(out).toString('utf8').split('\n').join(' ').replace(/\s+/g, ' ').trim());
    });
  });
}
