/**
 * The dashboard's Live Video agent contract (`/admin/api/live-video/{user id}/...`): what the agent
 * sees of the user during a call, the stills taken, and the decision.
 */
import * as z from 'zod/mini';
import { dataOf } from './common.js';

/** The user in the call: the name, the latest document images and faces, and the stills so far (signed paths). */
export const CallContext = z.object({
  user_id: z.int(),
  name: z.string(),
  documents: z.array(z.object({ url: z.string() })),
  faces: z.array(z.object({ url: z.string() })),
  stills: z.array(z.object({ id: z.string(), url: z.string() })),
});
export type CallContext = z.infer<typeof CallContext>;
export const CallContextAnswer = dataOf(CallContext);
export type CallContextAnswer = z.infer<typeof CallContextAnswer>;

/** `POST .../stills`: the still taken. */
export const StillAnswer = dataOf(z.object({ id: z.string(), url: z.string() }));
export type StillAnswer = z.infer<typeof StillAnswer>;

/** `POST .../decision`: the verification's status after the agent's decision. */
export const DecisionAnswer = dataOf(z.object({ user_id: z.int(), status: z.enum(['complete', 'rejected', 'complete_in_review']) }));
