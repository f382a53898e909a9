/**
 * The Video method's uploads sent twice at the same moment, as an attacker (or a flaky network)
 * would: one row per frame index and one recording are kept, the files on disk are exactly the
 * rows' files, nobody gets a 500. Both stores (the PostgreSQL pass reruns it).
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minimalWebm } from '../../../fixtures/video.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce, storedUploads } from '../../../helpers/stored-uploads.js';
import { advance, videoUser } from './helpers.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

const frame = (r: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 80, b: 90 } } })
    .jpeg()
    .toBuffer();
const blob = (b: Buffer): Blob => new Blob([new Uint8Array(b)]);

async function stored(id: number) {
  const { rows, files } = await storedUploads(server, id);
  return {
    slots: rows.map((r) => `${r.step}/${r.step_index}`).sort(),
    filesMatchRows: JSON.stringify(files) === JSON.stringify(rows.map((r) => r.blob_key).sort()),
  };
}

describe('video uploads sent twice at once', () => {
  it('the same frame, two frames with the same index and the same recording twice at once: one of each kept, with its file', async () => {
    const { session, id } = await videoUser(server);
    const c = await session.videoChallenge();
    advance(server, 2000);
    const send = (index: number, t: number, bytes: Buffer) => () =>
      session.uploadVideoFrame({ challenge_id: c.challenge_id, index: String(index), t: String(t) }, blob(bytes));
    const first = await frame(10);
    expect(await atOnce([send(0, 300, first), send(0, 300, first)])).toEqual(['200', '200']);
    const [a, b] = await Promise.all([frame(20), frame(30)]);
    expect(await atOnce([send(1, 750, a), send(1, 760, b)])).toEqual(['200', '200']);
    advance(server, 3000);
    const recording = () => session.uploadVideoRecording({ challenge_id: c.challenge_id, duration_ms: '3500' }, blob(minimalWebm()));
    expect(await atOnce([recording, recording])).toEqual(['200', '200']);
    expect(await stored(id)).toEqual({ slots: ['frame/0', 'frame/1', 'recording/0'], filesMatchRows: true });
  });

  it("the same frame sent at once for two users' challenges is taken for one: the other is a replay", async () => {
    const [one, two] = await Promise.all([videoUser(server), videoUser(server)]);
    const [c1, c2] = await Promise.all([one.session.videoChallenge(), two.session.videoChallenge()]);
    advance(server, 2000);
    // Large enough that both are checked before either is stored.
    const bytes = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#405060' } })
      .jpeg()
      .toBuffer();
    const send = (session: typeof one.session, challengeId: string) => () =>
      session.uploadVideoFrame({ challenge_id: challengeId, index: '0', t: '300' }, blob(bytes));
    expect((await atOnce([send(one.session, c1.challenge_id), send(two.session, c2.challenge_id)])).sort()).toEqual(['200', '422 session_upload_invalid']);
    const kept = [await stored(one.id), await stored(two.id)];
    expect(kept.map((k) => k.slots).sort()).toEqual([[], ['frame/0']]);
    expect(kept.every((k) => k.filesMatchRows)).toBe(true);
  });

  it('a frame sent while a new challenge is handed out: its row and file go with the old challenge, or it is refused', async () => {
    const { session, id } = await videoUser(server);
    const c = await session.videoChallenge();
    advance(server, 2000);
    // Large enough to be checked while the next challenge is handed out. One frame per challenge:
    // the same content sent again for the next one would be a replay (422), not this race.
    const big = (r: number) =>
      sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r, g: 102, b: 119 } } })
        .jpeg()
        .toBuffer();
    // Three challenges in all: the first two each race the hand-out of the next.
    let live = c;
    for (const [delayMs, shade] of [
      [0, 85],
      [10, 170],
    ] as const) {
      advance(server, 2000);
      const bytes = await big(shade);
      const upload = () => session.uploadVideoFrame({ challenge_id: live.challenge_id, index: '0', t: '300' }, blob(bytes));
      const next = new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => session.videoChallenge());
      // Both settled before any assertion: a request still in flight when the test ends holds
      // server.close() (the hand-out arriving while it closes).
      const [[sent], handedOut] = await Promise.all([atOnce([upload]), next]);
      expect(['200', '410 session_challenge_expired']).toContain(sent);
      live = handedOut;
      // Whatever the order, nothing of the old challenge is left: no row, no file.
      expect(await stored(id)).toEqual({ slots: [], filesMatchRows: true });
    }
  });
});
