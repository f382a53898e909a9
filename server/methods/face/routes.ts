import * as z from 'zod/mini';
import { FACE_METHOD_KEYS, FaceChallenge, FaceFrameFields, FaceFrameResponse, FaceSubmitRequest, MethodResult } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { parseFields, readMultipart } from '../uploads.js';
import { newFaceChallenge, submitFace, uploadFaceFrame } from './use-cases.js';

const FACE_KEYS = z.enum(FACE_METHOD_KEYS);
const hide = { hide: true };

/** `POST /session/methods/{selfie|liveness}/challenge`, `…/frames` and `…/submit`: shared by the selfie and liveness methods. */
export const faceRoutes: MethodRoutes = (kit) => async (app) => {
  app.post(
    '/session/methods/:key/challenge',
    { schema: { ...hide, params: z.object({ key: FACE_KEYS }), response: { 201: FaceChallenge } } },
    async (req, reply) => {
      const challenge = await newFaceChallenge(kit, who(req).user, req.params.key);
      return reply.code(201).send(challenge);
    },
  );
  app.post(
    '/session/methods/:key/frames',
    { schema: { ...hide, params: z.object({ key: FACE_KEYS }), response: { 201: FaceFrameResponse } } },
    async (req, reply) => {
      await kit.limits.frame(who(req).user.id);
      const { fields, file } = await readMultipart(req, 'frame');
      const result = await uploadFaceFrame(kit, who(req).user, req.params.key, parseFields(FaceFrameFields, fields), file);
      return reply.code(201).send(result);
    },
  );
  app.post(
    '/session/methods/:key/submit',
    { schema: { ...hide, params: z.object({ key: FACE_KEYS }), body: FaceSubmitRequest, response: { 200: MethodResult } } },
    async (req) => submitFace(kit, who(req).user, req.params.key, req.body.challenge_id),
  );
};
