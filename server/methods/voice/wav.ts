import { VOICE_SAMPLE_RATE } from '../../../src/api/contract.js';

/** A decoded recording: 16-bit mono samples at {@link VOICE_SAMPLE_RATE}. */
export interface PcmAudio {
  sampleRate: number;
  samples: Int16Array;
}

/** Why a file is not a recording the server takes (the upload's 422 message). */
export class WavError extends Error {
  override name = 'WavError';
}

/**
 * Reads a RIFF/WAVE file by its content: the magic bytes, a `fmt ` chunk of 16-bit PCM, one
 * channel, {@link VOICE_SAMPLE_RATE}, and a `data` chunk within the file. Anything else (another
 * container, a float or compressed format, a header lying about its length) is refused.
 */
export function parseWav(bytes: Buffer): PcmAudio {
  if (bytes.length < 44 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') {
    throw new WavError('The recording is not a WAV file.');
  }
  let format: { audioFormat: number; channels: number; sampleRate: number; bits: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (body + size > bytes.length) {
      // A recorder that never went back to write the data length leaves it at its maximum: not taken.
      throw new WavError('The recording is truncated or its header is wrong.');
    }
    if (id === 'fmt ') {
      if (size < 16) throw new WavError('The recording has no readable format.');
      format = {
        audioFormat: bytes.readUInt16LE(body),
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bits: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new WavError('The recording has no format before its samples.');
      if (format.audioFormat !== 1 || format.bits !== 16) throw new WavError('The recording must be 16-bit PCM.');
      if (format.channels !== 1) throw new WavError('The recording must be mono.');
      if (format.sampleRate !== VOICE_SAMPLE_RATE) throw new WavError(`The recording must be sampled at ${VOICE_SAMPLE_RATE} Hz.`);
      const count = Math.floor(size / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(body + i * 2);
      return { sampleRate: format.sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new WavError('The recording has no samples.');
}

/** A 16-bit PCM mono WAV of `samples` (what the recogniser reads). */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + samples.length * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, 44 + i * 2);
  return out;
}
