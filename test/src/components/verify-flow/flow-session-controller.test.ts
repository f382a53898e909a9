import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import { FlowSessionController } from '../../../../src/components/verify-flow/flow-session-controller.js';
import { calls, deep, METHODS, scenario, session, until } from '../../fixtures/double.js';

/** The signals of the requests to `path` made while `run` goes on (fetch is only watched, the request goes through). */
function watchSignals(path: string): { signals: AbortSignal[]; restore(): void } {
  const real = window.fetch;
  const signals: AbortSignal[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url, location.href).pathname === path && init?.signal) signals.push(init.signal);
    return real(input, init);
  };
  return { signals, restore: () => (window.fetch = real) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class SessionHost extends LitElement {
  readonly flowSession = new FlowSessionController(this);
}
customElements.define('test-session-host', SessionHost);

describe('the flow session controller', () => {
  it('aborts the opening in flight when the flow leaves the page: nothing changes after, and it opens again when the flow comes back', async () => {
    // The double answers each call 3 s late: time enough to take the flow off the page meanwhile.
    const { key, link } = await scenario({ session: session([METHODS.email()]), delayMs: 3000 });
    const watched = watchSignals('/session/start');
    try {
      const flow = await fixture<VerifyFlow>(html`<verify-flow .link=${link} stay></verify-flow>`);
      const events: string[] = [];
      for (const name of ['verify-ready', 'verify-error', 'verify-step-change']) flow.addEventListener(name, () => events.push(name));
      (await until(() => deep<HTMLButtonElement>(flow, '.intro button'), 5000, 'start button')).click();
      const signal = await until(() => watched.signals[0], 3000, 'the start request');
      await until(async () => (await calls(key)).some((c) => c.path === '/session/start'), 3000, 'the request at the service');
      const parent = flow.parentElement!;
      flow.remove();
      expect(signal.aborted).to.equal(true);

      // The service answers later: the removed flow does nothing with it.
      await sleep(3500);
      expect(flow.currentSession).to.equal(null);
      expect(flow.phase).to.equal('starting');
      expect(events).to.deep.equal([]);
      expect((await calls(key)).map((c) => c.path)).to.deep.equal(['/session/start']);

      // Put back on the page, it opens the session again and shows the first step.
      parent.append(flow);
      await until(() => deep(flow, 'verify-step-email'), 12_000, 'the first step');
      expect(events).to.include('verify-ready');
      expect(watched.signals).to.have.length(2);
      expect(watched.signals[1]!.aborted).to.equal(false);
    } finally {
      watched.restore();
    }
  });

  it('a second opening aborts the first: only the second one sets the session', async () => {
    const slow = await scenario({ session: session([METHODS.email()]), delayMs: 3000 });
    const fast = await scenario({ session: session([METHODS.phone()]) });
    const host = await fixture<SessionHost>(html`<test-session-host></test-session-host>`);
    const first = host.flowSession.open(location.origin, { handoff: '', link: slow.link });
    await until(async () => (await calls(slow.key)).length > 0, 3000, 'the first request at the service');
    const second = await host.flowSession.open(location.origin, { handoff: '', link: fast.link });
    expect(await first).to.equal(null);
    expect(second?.session.methods.map((m) => m.key)).to.deep.equal(['phone']);
    await sleep(3500);
    expect(host.flowSession.view?.methods.map((m) => m.key)).to.deep.equal(['phone']);
    expect(host.flowSession.loading).to.equal(false);
  });

  it('a refusal from the service is thrown as it came, for the flow to show', async () => {
    const { link } = await scenario({ session: session([METHODS.email()]), startError: 'session_link_expired' });
    const host = await fixture<SessionHost>(html`<test-session-host></test-session-host>`);
    const error = await host.flowSession.open(location.origin, { handoff: '', link }).catch((e: unknown) => e);
    expect((error as { error_type?: string }).error_type).to.equal('session_link_expired');
    expect(host.flowSession.view).to.equal(null);
    expect(host.flowSession.loading).to.equal(false);
  });
});
