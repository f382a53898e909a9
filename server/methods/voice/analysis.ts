import { digitsOf, signalRejection, type VoiceMeasures } from './rules.js';
import { recogniseDigits } from './recogniser.js';
import { clippedRatio, normalised, rmsDbfs } from './signal.js';
import { speechFrames } from './vad.js';
import { encodeWav, parseWav } from './wav.js';

/**
 * Measures one recording: its length, the speech in it (WebRTC VAD on a level-normalised copy,
 * so quiet speech still counts as speech and is judged by its level), the level of that speech,
 * clipping, and, when there is speech, the digits the offline recogniser hears.
 */
export async function measureVoice(wav: Buffer, phrase: string): Promise<VoiceMeasures> {
  const { samples, sampleRate } = parseWav(wav);
  const { frameSeconds, speech } = await speechFrames(normalised(samples), sampleRate);
  const frameLength = Math.round(frameSeconds * sampleRate);
  const speechSamples: Int16Array[] = [];
  speech.forEach((isSpeech, i) => {
    if (isSpeech) speechSamples.push(samples.subarray(i * frameLength, (i + 1) * frameLength));
  });
  const joined = new Int16Array(speechSamples.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of speechSamples) {
    joined.set(s, at);
    at += s.length;
  }
  const speechSeconds = speechSamples.length * frameSeconds;
  const signal = {
    durationSeconds: samples.length / sampleRate,
    speechSeconds,
    speechLevelDbfs: rmsDbfs(speechSeconds > 0 ? joined : samples),
    clippedRatio: clippedRatio(samples),
  };
  // Decoded only when the signal checks pass: nothing else would change the decision.
  const recognised = signalRejection(signal) === null ? await heardDigits(speechSpan(samples, sampleRate, speech, frameLength), phrase) : null;
  return { ...signal, recognised };
}

/**
 * The digits the decoder hears in `span`. When they are not the phrase, a second listen without
 * the decoder's noise subtraction may hear it: on clean speech the subtraction itself garbles a
 * word now and then (a six heard eight, a two heard oh: 6 of 600 phrases of the tests' voice
 * missed with it, 1 of 600 with the second listen; espeak varies its voice from run to run, so
 * these are rates, not the same recordings). Either hearing counts: it is the same recording, and
 * a reading with one digit wrong was heard as the phrase by neither (0 of 300). `listen` is the
 * decoder (replaceable to check the rule alone).
 */
export async function heardDigits(span: Buffer, phrase: string, listen: typeof recogniseDigits = recogniseDigits): Promise<string> {
  const first = digitsOf(await listen(span, phrase.length));
  if (first === phrase) return first;
  const again = digitsOf(await listen(span, phrase.length, { removeNoise: false }));
  return again === phrase ? again : first;
}

/** Silence kept around the speech span, so the VAD's cut never clips a word's edges. */
const MARGIN_SECONDS = 0.3;

/**
 * The recording from its first to its last speech frame, with a margin of silence on each side,
 * as a WAV. PocketSphinx's noise removal learns its noise floor from the recording's start: after
 * a second or more of silence (a user who waits before reading, or a browser's noise suppression
 * on a quiet room) it took the speech that followed for noise and heard nothing.
 */
function speechSpan(samples: Int16Array, sampleRate: number, speech: readonly boolean[], frameLength: number): Buffer {
  const first = speech.indexOf(true);
  const last = speech.lastIndexOf(true);
  if (first < 0) return encodeWav(samples, sampleRate);
  const margin = Math.round(MARGIN_SECONDS * sampleRate);
  const start = Math.max(0, first * frameLength - margin);
  const end = Math.min(samples.length, (last + 1) * frameLength + margin);
  return encodeWav(samples.subarray(start, end), sampleRate);
}
