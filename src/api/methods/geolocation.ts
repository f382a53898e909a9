/** The geolocation method's session contract. */
import * as z from 'zod/mini';
import { methodBase } from './base.js';

/** Needs of the geolocation step. */
export const GeolocationNeeds = z.object({
  /** Ask the browser for a high-accuracy fix. */
  high_accuracy: z.boolean(),
  /** `timeout` for `getCurrentPosition`, ms. */
  timeout_ms: z.int(),
  /** Allowed countries (ISO 3166-1 alpha-2) when the account restricts them, else null. Shown to
   * the user in the explanation; the server decides. */
  allowed_countries: z.nullable(z.array(z.string())),
});
export const GeolocationMethodView = z.object({
  ...methodBase,
  key: z.literal('geolocation'),
  needs: GeolocationNeeds,
});

/**
 * `POST /session/methods/geolocation` with the browser's position (GeolocationPosition's
 * coords and timestamp). The server also records the request IP and `ip_country`, compares with
 * the allowed countries and → 200 {@link MethodResult} (`complete`), or 422
 * `session_location_rejected` (the method becomes `rejected`, `reason` says why).
 */
export const GeolocationRequest = z.object({
  latitude: z.number().check(z.gte(-90), z.lte(90)),
  longitude: z.number().check(z.gte(-180), z.lte(180)),
  /** Metres (95% confidence radius as the browser reports it). */
  accuracy: z.number().check(z.gte(0)),
  /** `GeolocationPosition.timestamp`, ms since the epoch. */
  timestamp: z.number(),
});
export type GeolocationRequest = z.infer<typeof GeolocationRequest>;
