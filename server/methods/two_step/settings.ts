import { z } from 'zod';
import type { MethodSettings } from '../method.js';

/** Whether the account lets users take their codes by SMS instead of an authenticator app, edited with the general settings. */
export const twoStepSettings: MethodSettings = {
  two_step_sms_allowed: z.boolean().optional(),
};
