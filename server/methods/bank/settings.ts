import { z } from 'zod';
import type { MethodSettings } from '../method.js';

/** Days the micro-deposits stay enterable (7 unless set), edited with the general settings. */
export const bankSettings: MethodSettings = {
  bank_deposit_ttl_days: z.number().int().min(1).max(60).optional(),
};
