import { MethodResult, VoicePhrase, VoiceRecordingFields } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { parseFields, readMultipart } from '../uploads.js';
import { newPhrase, uploadRecording } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/voice/phrase` and `…/recording`. */
export const voiceRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/voice/phrase', { schema: { ...hide, response: { 201: VoicePhrase } } }, async (req, reply) => {
    const phrase = await newPhrase(kit, who(req).user);
    return reply.code(201).send(phrase);
  });
  app.post('/session/methods/voice/recording', { schema: { ...hide, response: { 200: MethodResult } } }, async (req) => {
    await kit.limits.upload(who(req).user.id);
    const { fields, file } = await readMultipart(req, 'audio');
    return uploadRecording(kit, who(req).user, parseFields(VoiceRecordingFields, fields).phrase_id, file);
  });
};
