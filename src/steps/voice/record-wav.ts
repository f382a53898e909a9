/**
 * The microphone recording, made into what the server takes: MediaRecorder records (webm/opus in
 * Chromium, mp4/aac in Safari), then the browser's own decoder resamples it to 16 kHz mono in an
 * OfflineAudioContext and it is written as 16-bit PCM WAV. No audio codec ships in the widget.
 */

/** The server's sample rate (contract `VOICE_SAMPLE_RATE`; imported as a value it would pull the schemas into the bundle). */
const SAMPLE_RATE = 16_000;

/** Why the microphone could not be used, for the step's message. */
export type MicrophoneError = 'denied' | 'not-found' | 'in-use' | 'insecure' | 'unsupported';

export function microphoneError(error: unknown): MicrophoneError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return window.isSecureContext ? 'denied' : 'insecure';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'not-found';
  if (name === 'NotReadableError' || name === 'AbortError') return 'in-use';
  return 'unsupported';
}

/** A running recording: `stop()` ends it and resolves with the WAV. */
export interface Recording {
  stop(): Promise<Blob>;
  /** Ends it without a result (the step left the page). */
  cancel(): void;
}

/** Starts recording the microphone (asks permission the first time). */
export async function startRecording(): Promise<Recording> {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
    throw Object.assign(new Error('No microphone recording here.'), { name: window.isSecureContext ? 'NotSupportedError' : 'SecurityError' });
  }
  // No automatic gain: the server judges the speech's level (too quiet is refused), and the gain's
  // ramp at the first word distorted the first digits the recogniser heard.
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: false },
  });
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.addEventListener('dataavailable', (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  });
  const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  recorder.start();
  return {
    async stop() {
      if (recorder.state !== 'inactive') recorder.stop();
      await stopped;
      release();
      return toWav(new Blob(chunks, { type: recorder.mimeType }));
    },
    cancel() {
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
  };
}

/** Any audio the browser can decode, as a 16 kHz mono 16-bit PCM WAV. */
export async function toWav(audio: Blob): Promise<Blob> {
  const decoded = await new OfflineAudioContext(1, 1, SAMPLE_RATE).decodeAudioData(await audio.arrayBuffer());
  const frames = Math.max(1, Math.ceil(decoded.duration * SAMPLE_RATE));
  const context = new OfflineAudioContext(1, frames, SAMPLE_RATE);
  const source = context.createBufferSource();
  source.buffer = decoded;
  source.connect(context.destination);
  source.start();
  const samples = (await context.startRendering()).getChannelData(0);
  return new Blob([encodeWav(samples)], { type: 'audio/wav' });
}

/** Float samples (-1..1) at {@link SAMPLE_RATE} as a RIFF/WAVE file of 16-bit PCM. */
export function encodeWav(samples: Float32Array): ArrayBuffer {
  const buffer = new ArrayBuffer(44 + samples.length * 2);
  const view = new DataView(buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, s)) * 32767), true));
  return buffer;
}
