import { z } from 'zod';
import type { MethodSettings } from '../method.js';

/** The bounds of `liveness_move_seconds` (the evaluation plays each move for the shortest). */
export const LIVENESS_MOVE_SECONDS = { min: 10, max: 30 } as const;

/**
 * Liveness: the seconds the widget gives each move before the attempt ends (30 unless set),
 * edited with the general settings. Shorter ends a failed attempt, and brings the help and the
 * other ways forward, sooner; never longer than the challenge lives for.
 */
export const livenessSettings: MethodSettings = {
  liveness_move_seconds: z.number().int().min(LIVENESS_MOVE_SECONDS.min).max(LIVENESS_MOVE_SECONDS.max).optional(),
};
