import { expect } from '@open-wc/testing';
import { ApiError, parseSseBlock, SessionClient } from '../../../src/api/session-client.js';
import { CSRF_HEADER, SESSION_TOKEN_HEADER } from '../../../src/api/routes.js';
import { METHODS, scenario, session } from '../fixtures/double.js';

describe('SessionClient', () => {
  it('starts a session and keeps the token and CSRF token for later calls', async () => {
    const { link, key } = await scenario({ session: session([METHODS.email()]) });
    const client = new SessionClient({ baseUrl: location.origin });
    const started = await client.start(link);
    expect(started.session_token).to.equal(`tok-${key}`);
    expect(client.token).to.equal(`tok-${key}`);
    const view = await client.session();
    expect(view.methods[0]!.key).to.equal('email');
    const sent = await client.sendCode('email');
    expect(sent.attempts_left).to.equal(5);
  });

  it('turns every non-2xx into an ApiError with status, error_type and error_message', async () => {
    const client = new SessionClient({ baseUrl: location.origin });
    try {
      await client.start(`${location.origin}/security-verify?key=missing&signature=00&expires=1`);
      expect.fail('should have thrown');
    } catch (error: unknown) {
      expect(error).to.be.instanceOf(ApiError);
      const e = error as ApiError;
      expect(e.status).to.equal(403);
      expect(e.error_type).to.equal('session_link_invalid');
      expect(e.error_message).to.be.a('string').and.not.equal('');
    }
  });

  it('passes on details such as attempts left', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const client = new SessionClient({ baseUrl: location.origin });
    await client.start(link);
    await client.sendCode('email');
    try {
      await client.verifyCode('email', '999999');
      expect.fail('should have thrown');
    } catch (error: unknown) {
      expect((error as ApiError).error_type).to.equal('session_code_invalid');
      expect((error as ApiError).details.attempts_left).to.equal(4);
    }
  });

  it('is refused without the CSRF header on a state-changing call', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]) });
    const client = new SessionClient({ baseUrl: location.origin });
    const { session_token } = await client.start(link);
    const response = await fetch('/session/methods/email/send', {
      method: 'POST',
      headers: { [SESSION_TOKEN_HEADER]: session_token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).to.equal(403);
    expect(((await response.json()) as { error_type: string }).error_type).to.equal('session_csrf_error');
    const ok = await fetch('/session/methods/email/send', {
      method: 'POST',
      headers: { [SESSION_TOKEN_HEADER]: session_token, [CSRF_HEADER]: (await client.session()).csrf_token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(ok.status).to.equal(200);
  });

  it('reports an unreachable service as status 0 network_error', async () => {
    const client = new SessionClient({ baseUrl: 'http://127.0.0.1:9' });
    try {
      await client.session();
      expect.fail('should have thrown');
    } catch (error: unknown) {
      expect((error as ApiError).status).to.equal(0);
      expect((error as ApiError).error_type).to.equal('network_error');
    }
  });

  it('parses server-sent event blocks and skips comments and unknown events', () => {
    expect(parseSseBlock(': ping')).to.equal(null);
    expect(parseSseBlock('event: other\ndata: {}')).to.equal(null);
    expect(parseSseBlock('event: handoff\ndata: {"phase":"claimed","at":"2026-01-01T00:00:00Z"}')).to.deep.equal({
      type: 'handoff',
      data: { phase: 'claimed', at: '2026-01-01T00:00:00Z' },
    });
  });
});
