/** Drives the Video method's session routes as the widget does: a challenge, frames, the recording, submit. */
import type { VideoChallenge } from '../../../../src/api/contract.js';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { asCaptured, minimalWebm } from '../../../fixtures/video.js';
import type { TestServer } from '../../../helpers/server.js';
import { client, createTemplate, createUser, giveConsent, local } from '../../session/fixtures.js';

/** ms between sampled frames (the widget samples about this often over its 5 s recording). */
export const FRAME_INTERVAL_MS = 450;

export const advance = (server: TestServer, ms: number): void => (server.clock as unknown as { advance(ms: number): void }).advance(ms);

/** A user with the Video method (and `extra` methods), signed in and consenting. */
export async function videoUser(server: TestServer, extra: number[] = []): Promise<{ session: SessionClient; id: number }> {
  const name = `tmpl_video_${Math.random().toString(36).slice(2, 8)}`;
  const template = await createTemplate(server, name, [5, ...extra]);
  const { id, link } = await createUser(server, { email: `v${Math.random().toString(36).slice(2, 8)}@example.com`, template_id: template });
  const session = client(server);
  await session.start(local(server, link));
  await giveConsent(session);
  return { session, id };
}

let captures = 0;

/**
 * Sends `frames` (timed as sampled from a recording begun 300 ms after the challenge) and the
 * recording; `exact` sends the bytes as given, else each capture gets its own camera noise.
 */
export async function sendCapture(
  server: TestServer,
  session: SessionClient,
  challenge: VideoChallenge,
  given: readonly Buffer[],
  exact = false,
): Promise<void> {
  const seed = ++captures * 7919;
  const frames = exact ? given : await Promise.all(given.map((f, i) => asCaptured(f, seed + i)));
  const times = frames.map((_, i) => 300 + i * FRAME_INTERVAL_MS);
  // The server refuses a frame claiming more time than has passed since the challenge: let it pass.
  advance(server, times.at(-1)! + 500);
  for (const [i, bytes] of frames.entries()) {
    await session.uploadVideoFrame({ challenge_id: challenge.challenge_id, index: String(i), t: String(times[i]) }, new Blob([new Uint8Array(bytes)]));
  }
  await session.uploadVideoRecording(
    { challenge_id: challenge.challenge_id, duration_ms: String(times.at(-1)! + 300) },
    new Blob([new Uint8Array(minimalWebm())]),
  );
}

/** The Video verification's status and attributes. */
export async function videoRow(server: TestServer, userId: number): Promise<{ status: number; attributes: Record<string, unknown> }> {
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .select(['status', 'attributes'])
    .where('user_id', '=', userId)
    .where('method_id', '=', 5)
    .executeTakeFirstOrThrow();
  return { status: row.status, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
}
