import { z } from 'zod';
import type { MethodSettings } from '../method.js';

/**
 * The account's allowed countries (ISO alpha-2 codes, regions such as `EU` or UN M49 codes, see
 * `rules.ts`), edited with the general settings; null or empty: any place.
 */
export const geolocationSettings: MethodSettings = {
  allowed_countries: z
    .array(z.string().regex(/^[A-Z0-9]{2,3}$|^[0-9]{3}$/))
    .max(300)
    .nullable()
    .optional(),
};
