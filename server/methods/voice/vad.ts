import type { FvadModule } from '@echogarden/fvad-wasm';

/** 30 ms frames, one of the three lengths the WebRTC VAD takes. */
const FRAME_MS = 30;
/** The VAD's mode 3 ("very aggressive"): the fewest noise frames taken for speech. */
const MODE = 3;

let loaded: Promise<FvadModule> | undefined;

/** Which 30 ms frames of 16-bit mono `samples` hold speech, by the WebRTC voice activity detector. */
export async function speechFrames(samples: Int16Array, sampleRate: number): Promise<{ frameSeconds: number; speech: boolean[] }> {
  // Loaded on the first recording: a process that never analyses voice never loads the WASM.
  const vad = await (loaded ??= import('@echogarden/fvad-wasm').then((m) => m.default()));
  const frameLength = (sampleRate * FRAME_MS) / 1000;
  const handle = vad._fvad_new();
  if (handle === 0) throw new Error('The voice activity detector could not start.');
  const pointer = vad._malloc(frameLength * 2);
  try {
    if (vad._fvad_set_mode(handle, MODE) !== 0 || vad._fvad_set_sample_rate(handle, sampleRate) !== 0) {
      throw new Error(`The voice activity detector does not take ${sampleRate} Hz.`);
    }
    const speech: boolean[] = [];
    for (let start = 0; start + frameLength <= samples.length; start += frameLength) {
      // HEAP16 may be replaced when memory grows: read it each frame.
      vad.HEAP16.set(samples.subarray(start, start + frameLength), pointer / 2);
      const answer = vad._fvad_process(handle, pointer, frameLength);
      if (answer < 0) throw new Error('The voice activity detector refused a frame.');
      speech.push(answer === 1);
    }
    return { frameSeconds: FRAME_MS / 1000, speech };
  } finally {
    vad._free(pointer);
    vad._fvad_free(handle);
  }
}
