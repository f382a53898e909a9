/**
 * The timed steps of a liveness challenge (issue 20): the screen flash, one frame per colour
 * taken once the colour has settled on the face, and the blink window, frames spread through it.
 * Pure timing: the component paints the colour and grabs the frames when this says.
 */
import type { FaceChallenge } from '../../api/contract.js';

/** Time the instruction is on screen before a timed step starts (a warning before the flash). */
export const TIMED_NOTICE_MS = { flash: 1500, blink: 800 } as const;
/** A colour's frame is taken this far into its time: after the paint and the camera have caught up. */
const SETTLED_SHARE = 0.7;

/** When a timed step's frames are due, and for the flash which colour shows when. */
export interface TimedPlan {
  readonly step: 'flash' | 'blink';
  /** Start of the step (after its notice), in `performance.now()` ms. */
  readonly start: number;
  /** When each frame is due. */
  readonly due: readonly number[];
  /** When the step is over. */
  readonly end: number;
  readonly colours: readonly string[];
  readonly colourMs: number;
}

/** The plan of the timed step `step` of `challenge` that begins its notice at `now`. */
export function timedPlan(step: 'flash' | 'blink', challenge: FaceChallenge, now: number): TimedPlan {
  const start = now + TIMED_NOTICE_MS[step];
  if (step === 'flash') {
    const colours = challenge.flash?.colours ?? [];
    const colourMs = challenge.flash?.colour_ms ?? 500;
    return { step, start, due: colours.map((_, i) => start + (i + SETTLED_SHARE) * colourMs), end: start + colours.length * colourMs, colours, colourMs };
  }
  const windowMs = challenge.blink?.window_ms ?? 2500;
  const frames = challenge.blink?.frames ?? 12;
  return {
    step,
    start,
    due: Array.from({ length: frames }, (_, i) => start + ((i + 0.5) * windowMs) / frames),
    end: start + windowMs,
    colours: [],
    colourMs: 0,
  };
}

/** The colour the screen shows at `now` (null before and after the flash). */
export function colourAt(plan: TimedPlan, now: number): string | null {
  if (plan.step !== 'flash' || now < plan.start || now >= plan.end) return null;
  return plan.colours[Math.floor((now - plan.start) / plan.colourMs)] ?? null;
}
