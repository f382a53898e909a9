import { GeolocationRequest, MethodResult } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { submitGeolocation } from './use-cases.js';

/** `POST /session/methods/geolocation`. */
export const geolocationRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/geolocation', { schema: { hide: true, body: GeolocationRequest, response: { 200: MethodResult } } }, async (req) =>
    submitGeolocation(kit, who(req).user, req.body, req.ip),
  );
};
