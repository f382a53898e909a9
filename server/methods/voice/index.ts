import { VerificationStatus } from '../../domain/catalogue.js';
import type { ServerMethod } from '../method.js';
import { RECOGNISER } from './recogniser.js';
import { MAX_SECONDS, PHRASE_LENGTH, PHRASES } from './rules.js';
import { voiceRoutes } from './routes.js';
import { voiceAttempts } from './use-cases.js';
import { registerVoiceWorker } from './worker.js';

/**
 * Voice (spec method 6): the user reads a random phrase of digits aloud; the server checks that
 * speech is present, its length and level, and that the digits heard are the phrase's. It proves
 * a live reading of a fresh phrase, not who is speaking.
 */
export const voiceMethod: ServerMethod = {
  key: 'voice',
  methodIds: [6],
  permissions: ['microphone'],
  biometric: true,
  routes: voiceRoutes,
  async view({ ctx, user, verification }, base) {
    const used = verification.status === VerificationStatus.reset ? 0 : await voiceAttempts.used(ctx.db, user.id);
    return { ...base, key: 'voice', needs: { phrase_length: PHRASE_LENGTH, max_seconds: MAX_SECONDS, attempts_left: Math.max(0, PHRASES.attempts - used) } };
  },
  canRetryRejected: voiceAttempts.canRetryRejected,
  reopen: voiceAttempts.reopen,
  workers: registerVoiceWorker,
  docs: {
    proves: `A live reading of a fresh random phrase: the user read aloud ${PHRASE_LENGTH} digits drawn by the server for this attempt (single-use, valid 3 minutes) and the recording, analysed off the request, holds speech (WebRTC voice activity detection), is long and loud enough, and the digits recognised offline (${RECOGNISER.name}) are the phrase's ("oh" counts as zero). It does not identify the speaker. Rejections: \`VOICE_NO_SPEECH\`, \`VOICE_TOO_SHORT\`, \`VOICE_TOO_QUIET\`, \`VOICE_DIGITS_MISMATCH\` (in \`remarks\`); ${PHRASES.attempts} phrases per method. The recording is kept under the dashboard's retention period for captured images and deleted with the user.`,
    attributes: {
      speech_detected: 'True when speech was found in the recording.',
      digits_matched: 'True when the digits recognised are the phrase read (the method is then complete).',
      phrase_length: `Digits in the phrase (${PHRASE_LENGTH}).`,
      digits_heard: 'The digits the recogniser heard; null when an earlier check failed (no speech, too quiet, too short).',
      recording_seconds: 'Length of the recording, in seconds.',
      speech_seconds: 'Speech found in it, in seconds.',
      speech_level_dbfs: 'RMS level of the speech, in dB full scale (below -45 is too quiet).',
      clipped_ratio: 'Share of samples at full scale (distortion).',
      recogniser: 'The offline recogniser and model used.',
      speaker_identity_checked: 'Always false: who spoke is not verified.',
    },
  },
};
