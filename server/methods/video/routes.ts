import { MethodResult, VideoChallenge, VideoFrameFields, VideoRecordingFields, VideoSubmitRequest, VideoUploadResponse } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { parseFields, readMultipart } from '../uploads.js';
import { newVideoChallenge, submitVideo, uploadVideoFrame, uploadVideoRecording } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/video/challenge`, `…/frames` (multipart), `…/recording` (multipart) and `…/submit`. */
export const videoRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/video/challenge', { schema: { ...hide, response: { 201: VideoChallenge } } }, async (req, reply) => {
    return reply.code(201).send(await newVideoChallenge(kit, who(req).user));
  });
  app.post('/session/methods/video/frames', { schema: { ...hide, response: { 201: VideoUploadResponse } } }, async (req, reply) => {
    await kit.limits.upload(who(req).user.id);
    const { fields, file } = await readMultipart(req, 'frame');
    return reply.code(201).send(await uploadVideoFrame(kit, who(req).user, parseFields(VideoFrameFields, fields), file));
  });
  app.post('/session/methods/video/recording', { schema: { ...hide, response: { 201: VideoUploadResponse } } }, async (req, reply) => {
    await kit.limits.upload(who(req).user.id);
    const { fields, file } = await readMultipart(req, 'video');
    return reply.code(201).send(await uploadVideoRecording(kit, who(req).user, parseFields(VideoRecordingFields, fields), file));
  });
  app.post('/session/methods/video/submit', { schema: { ...hide, body: VideoSubmitRequest, response: { 200: MethodResult } } }, async (req) =>
    submitVideo(kit, who(req).user, req.body.challenge_id),
  );
};
