/** The geolocation step through the session API: the allowed countries, rejection and a retry. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce } from '../../../helpers/stored-uploads.js';
import { eventTypes, failure, sessionFor } from '../../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  // No workers: the analysis engine (once registered) must not consume the jobs these tests inspect.
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

describe('geolocation', () => {
  it('rejects a position outside the allowed countries, records it, and allows a limited retry', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['FR', 'BE']);
    const { session, id } = await sessionFor(server, [8]);
    const berlin = { latitude: 52.52, longitude: 13.405, accuracy: 30, timestamp: Date.now() };
    const e = await failure(session.submitGeolocation(berlin));
    expect(e.status).toBe(422);
    expect(e.error_type).toBe('session_location_rejected');
    const view = await session.session();
    const geo = view.methods[0]!;
    expect(geo.status).toBe('rejected');
    expect(geo.can_retry).toBe(true);
    expect(geo.reason).toMatch(/outside/);
    if (geo.key === 'geolocation') expect(geo.needs.allowed_countries).toEqual(['FR', 'BE']);
    expect(await eventTypes(server, id)).toContain('verification.rejected');
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Review');

    await session.retryMethod('geolocation');
    const brussels = await session.submitGeolocation({ latitude: 50.8503, longitude: 4.3517, accuracy: 10, timestamp: Date.now() });
    expect(brussels.method.status).toBe('complete');
    const attrs = await server.verity.ctx.db.selectFrom('user_verifications').select('attributes').where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(attrs.attributes)).toMatchObject({ country: 'BE', latitude: 50.85, longitude: 4.35 });
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Verified');
  });

  it('accepts regions such as EU', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['EU']);
    const { session } = await sessionFor(server, [8]);
    expect((await session.submitGeolocation({ latitude: 41.9028, longitude: 12.4964, accuracy: 10, timestamp: Date.now() })).method.status).toBe('complete');
  });

  it('the same position twice at once: one result, one event, the other answers as it would after it', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['BE']);
    const { session, id } = await sessionFor(server, [8]);
    const brussels = () => session.submitGeolocation({ latitude: 50.8503, longitude: 4.3517, accuracy: 10, timestamp: Date.now() });
    const outcomes = await atOnce([brussels, brussels]);
    expect(outcomes.sort()).toEqual(['200', '409 session_method_state_error']);
    expect((await eventTypes(server, id)).filter((t) => t === 'verification.completed')).toHaveLength(1);
    expect((await session.session()).methods[0]!.status).toBe('complete');
  });
});
