import { digitsOf, signalRejection, type VoiceMeasures } from './rules.js';
import { recogniseDigits } from './recogniser.js';
import { clippedRatio, normalised, rmsDbfs } from './signal.js';
import { speechFrames } from './vad.js';
import { parseWav } from './wav.js';

/**
 * Measures one recording: its length, the speech in it (WebRTC VAD on a level-normalised copy,
 * so quiet speech still counts as speech and is judged by its level), the level of that speech,
 * clipping, and, when there is speech, the digits the offline recogniser hears.
 */
export async function measureVoice(wav: Buffer, phraseLength: number): Promise<VoiceMeasures> {
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
  // The whole recording is decoded (the VAD's cut could clip a word's edges), and only when the
  // signal checks pass: nothing else would change the decision.
  const recognised = signalRejection(signal) === null ? digitsOf(await recogniseDigits(wav, phraseLength)) : null;
  return { ...signal, recognised };
}
