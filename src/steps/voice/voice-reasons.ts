/** The Voice step's refusal reasons in the user's words (the flow shows them on a refusal, so apart from the step's code). */
import { messageTable } from '../../internal/message-table.js';

export const VOICE_REASONS = messageTable('voice.reason', {
  VOICE_NO_SPEECH: 'No speech was heard in the recording. Read the digits aloud, close to the microphone.',
  VOICE_TOO_SHORT: 'The recording was too short. Read all the digits before you stop.',
  VOICE_TOO_QUIET: 'The recording was too quiet. Speak louder or closer to the microphone.',
  VOICE_DIGITS_MISMATCH: 'The digits heard were not the ones shown. Read each digit clearly, one by one.',
});
