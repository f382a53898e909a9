/**
 * The Live Video method's contract (`live_video`, spec method 12): a WebRTC call between the user
 * and an agent in the dashboard. Signalling runs over one WebSocket per side through our server
 * (`GET /session/methods/live_video/socket` for the user, `GET /admin/api/live-video/socket` for
 * the agent); media goes peer to peer. Every message is JSON, checked against these schemas.
 */
import * as z from 'zod/mini';
import { methodBase } from './base.js';

/** The user's signalling socket, relative to the service's `{base_url}` (`SESSION_ROUTES.liveVideoSocket`). */
export const LIVE_VIDEO_USER_SOCKET = '/session/methods/live_video/socket';
/** The agent's signalling socket (dashboard, same origin). */
export const LIVE_VIDEO_AGENT_SOCKET = '/admin/api/live-video/socket';
/** Largest signalling message accepted, in bytes (an SDP offer with many candidates fits well). */
export const LIVE_VIDEO_MAX_MESSAGE_BYTES = 64 * 1024;

/** One STUN or TURN server (RTCIceServer), as configured by the operator (`VERITY_ICE_SERVERS`). */
export const IceServer = z.object({
  urls: z.union([z.string().check(z.maxLength(512)), z.array(z.string().check(z.maxLength(512))).check(z.maxLength(8))]),
  username: z.optional(z.string().check(z.maxLength(256))),
  credential: z.optional(z.string().check(z.maxLength(256))),
});
export type IceServer = z.infer<typeof IceServer>;

/** Needs of the live video step. */
export const LiveVideoNeeds = z.object({
  /** STUN/TURN servers for the peer connection; empty when none are configured (loopback, a LAN). */
  ice_servers: z.array(IceServer),
});
export type LiveVideoNeeds = z.infer<typeof LiveVideoNeeds>;

export const LiveVideoMethodView = z.object({ ...methodBase, key: z.literal('live_video'), needs: LiveVideoNeeds });

/** An SDP offer or answer, as RTCSessionDescriptionInit. */
const Description = z.object({ type: z.enum(['offer', 'answer']), sdp: z.string().check(z.maxLength(60_000)) });
/** An ICE candidate, as RTCIceCandidateInit (`candidate` empty: the end of candidates). */
const Candidate = z.object({
  candidate: z.string().check(z.maxLength(1024)),
  sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  sdpMLineIndex: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(64)))),
  usernameFragment: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
});

/** What one peer hands the other through the server: a description or a candidate, nothing else. */
export const LiveVideoSignal = z.union([z.object({ description: Description }), z.object({ candidate: Candidate })]);
export type LiveVideoSignal = z.infer<typeof LiveVideoSignal>;

/**
 * The user's messages. `hello` first (the session token and CSRF token: a socket carries no
 * headers and, embedded on another site, no cookie), which enters the queue; `signal` during the
 * call; `leave` to leave the queue or hang up (the step stays open, to be tried again).
 */
export const LiveVideoUserMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), session_token: z.string().check(z.maxLength(200)), csrf_token: z.string().check(z.maxLength(200)) }),
  z.object({ type: z.literal('signal'), signal: LiveVideoSignal }),
  z.object({ type: z.literal('leave') }),
]);
export type LiveVideoUserMessage = z.infer<typeof LiveVideoUserMessage>;

/**
 * Why a call ended without a decision: `time_limit` (the call reached the configured length, the
 * step is open to join again), `method_changed` (an operator reset, approved or rejected the method
 * meanwhile: the step's new status stands).
 */
export const LiveVideoEndReason = z.enum(['user_left', 'agent_left', 'replaced', 'closed', 'time_limit', 'method_changed']);
export type LiveVideoEndReason = z.infer<typeof LiveVideoEndReason>;

/**
 * What the server sends the user: `waiting` (their place in the queue, 1 = next), `connected`
 * (an agent took the call: the user makes the offer; `ends_at`, ISO 8601, is when the call's
 * length limit ends it, `seconds_left` the same as a duration, for a device whose clock is off), `signal`, `ended` (back to the step's start),
 * `decided` (the agent's decision; the method's status follows), `error` (then the socket closes).
 */
export const LiveVideoToUser = z.discriminatedUnion('type', [
  z.object({ type: z.literal('waiting'), position: z.int() }),
  z.object({ type: z.literal('connected'), ends_at: z.string(), seconds_left: z.int() }),
  z.object({ type: z.literal('signal'), signal: LiveVideoSignal }),
  z.object({ type: z.literal('ended'), reason: LiveVideoEndReason }),
  z.object({ type: z.literal('decided'), status: z.enum(['complete', 'rejected', 'complete_in_review']) }),
  z.object({ type: z.literal('error'), error_type: z.string(), error_message: z.string() }),
]);
export type LiveVideoToUser = z.infer<typeof LiveVideoToUser>;

/** The agent's messages: `pick` a waiting user, `signal` during the call, `hangup` (the user waits again). */
export const LiveVideoAgentMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pick'), user_id: z.int().check(z.positive()) }),
  z.object({ type: z.literal('signal'), signal: LiveVideoSignal }),
  z.object({ type: z.literal('hangup') }),
]);
export type LiveVideoAgentMessage = z.infer<typeof LiveVideoAgentMessage>;

/** A user waiting for an agent, as the queue lists them (oldest first). */
export const LiveVideoWaiting = z.object({ user_id: z.int(), name: z.string(), waiting_since: z.string() });
export type LiveVideoWaiting = z.infer<typeof LiveVideoWaiting>;

/**
 * What the server sends the agent: `queue` (everyone waiting, oldest first, on every change),
 * `picked` (the call is the agent's: wait for the user's offer; `ends_at`, `seconds_left` as the
 * user's `connected`),
 * `signal`, `ended` (the user left, the time limit, an operator changed the method),
 * `error`.
 */
export const LiveVideoToAgent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('queue'), waiting: z.array(LiveVideoWaiting), ice_servers: z.array(IceServer) }),
  z.object({ type: z.literal('picked'), user_id: z.int(), ends_at: z.string(), seconds_left: z.int() }),
  z.object({ type: z.literal('signal'), signal: LiveVideoSignal }),
  z.object({ type: z.literal('ended'), reason: LiveVideoEndReason }),
  z.object({ type: z.literal('error'), error_type: z.string(), error_message: z.string() }),
]);
export type LiveVideoToAgent = z.infer<typeof LiveVideoToAgent>;

/** The agent's decision (`POST /admin/api/live-video/{user_id}/decision`). A reason is required to reject or send to review. */
export const LiveVideoDecision = z.object({
  decision: z.enum(['approve', 'reject', 'review']),
  reason: z.optional(z.string().check(z.maxLength(1000))),
});
export type LiveVideoDecision = z.infer<typeof LiveVideoDecision>;
