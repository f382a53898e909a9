import { randomInt } from 'node:crypto';
import type { ChallengeRule } from '../challenge-attempts.js';

/** Digits in a phrase: enough that guessing one is 1 in a million, short enough to read in ~4 s. */
export const PHRASE_LENGTH = 6;
/**
 * A phrase must be answered within 3 minutes: reading takes seconds; a short window leaves no time
 * to fetch a recording made for it. Three phrases per method: each is an attempt; a rejection may
 * be retried while some are left.
 */
export const PHRASES: ChallengeRule = { ttlMs: 3 * 60 * 1000, attempts: 3 };
/** Longest recording taken, in seconds. */
export const MAX_SECONDS = 20;
/** Shortest recording taken: six digits cannot be read in less. */
export const MIN_SECONDS = 1.5;
/** Least detected speech for six digits read one by one (about 0.3 s each, spoken). */
export const MIN_SPEECH_SECONDS = 1.2;
/** Least speech at all before the recording counts as speech (otherwise VOICE_NO_SPEECH). */
export const SPEECH_PRESENT_SECONDS = 0.3;
/** Quietest acceptable speech level (RMS over the speech frames, dB full scale). */
export const QUIET_DBFS = -45;
/** Samples at full scale above this share mean a clipped, distorted recording (recorded as an attribute). */
export const CLIPPED_LIMIT = 0.01;

/** Why a recording was rejected (the verification's `remarks`, shown to the user as the reason). */
export type VoiceRejection = 'VOICE_NO_SPEECH' | 'VOICE_TOO_SHORT' | 'VOICE_TOO_QUIET' | 'VOICE_DIGITS_MISMATCH';

/** A random phrase of {@link PHRASE_LENGTH} digits from the CSPRNG. */
export function drawPhrase(): string {
  let digits = '';
  for (let i = 0; i < PHRASE_LENGTH; i++) digits += String(randomInt(0, 10));
  return digits;
}

const WORD_DIGITS: Readonly<Record<string, string>> = {
  zero: '0',
  oh: '0',
  o: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};

/** The digits a transcript names ("four oh seven" → "407"); words that are no digit are dropped. */
export function digitsOf(transcript: string): string {
  return transcript
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .flatMap((w) => (/^\d+$/.test(w) ? [...w] : WORD_DIGITS[w] !== undefined ? [WORD_DIGITS[w]] : []))
    .join('');
}

/** What the analysis measured of one recording. */
export interface VoiceMeasures {
  durationSeconds: number;
  speechSeconds: number;
  /** RMS level of the speech frames (of the whole recording when there is none), dBFS. */
  speechLevelDbfs: number;
  clippedRatio: number;
  /** The digits recognised ('' when no digit word was heard); null when recognition did not run (an earlier check failed). */
  recognised: string | null;
}

/** The checks before recognition (no need to decode what is rejected anyway); null when all pass. */
export function signalRejection(m: Omit<VoiceMeasures, 'recognised'>): VoiceRejection | null {
  if (m.speechSeconds < SPEECH_PRESENT_SECONDS) return 'VOICE_NO_SPEECH';
  if (m.speechLevelDbfs < QUIET_DBFS) return 'VOICE_TOO_QUIET';
  if (m.durationSeconds < MIN_SECONDS || m.speechSeconds < MIN_SPEECH_SECONDS) return 'VOICE_TOO_SHORT';
  return null;
}

/**
 * The decision on a recording: the first failed check, in the order the user can fix them. The
 * VAD takes steady noise for speech at times; a recording in which the recogniser hears no digit
 * word at all has no speech either.
 */
export function voiceDecision(m: VoiceMeasures, phrase: string): { complete: true } | { complete: false; reason: VoiceRejection } {
  const early = signalRejection(m);
  if (early) return { complete: false, reason: early };
  if (m.recognised === null || m.recognised === '') return { complete: false, reason: 'VOICE_NO_SPEECH' };
  if (m.recognised !== phrase) return { complete: false, reason: 'VOICE_DIGITS_MISMATCH' };
  return { complete: true };
}
