import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-live-video.js';
import type { AdminLiveVideo } from '../../../src/admin/components/admin-live-video.js';
import { $, $$, fakeApi, until } from './fake-api.js';

/** The server's end of the agent's signalling socket: what the page sends, and what the test answers. */
class ScriptedSocket extends EventTarget {
  static last: ScriptedSocket | null = null;
  static readonly OPEN = 1;
  readonly sent: { type: string; [k: string]: unknown }[] = [];
  readyState = 1;
  constructor(readonly url: string) {
    super();
    ScriptedSocket.last = this;
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { type: string });
  }
  close(): void {
    this.readyState = 3;
  }
  serve(body: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(body) }));
  }
}

const realSocket = window.WebSocket;
beforeEach(() => {
  ScriptedSocket.last = null;
  (window as unknown as { WebSocket: unknown }).WebSocket = ScriptedSocket;
});
afterEach(() => {
  window.WebSocket = realSocket;
});

const QUEUE = {
  type: 'queue',
  ice_servers: [],
  waiting: [
    { user_id: 4, name: 'Ada Lovelace', waiting_since: '2026-05-10T12:00:00.000Z' },
    { user_id: 9, name: 'Grace Hopper', waiting_since: '2026-05-10T12:03:00.000Z' },
  ],
};
const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const CONTEXT = { data: { user_id: 4, name: 'Ada Lovelace', documents: [{ url: PIXEL }], faces: [{ url: PIXEL }], stills: [] } };

async function opened(routes: Record<string, unknown> = {}) {
  const { api, calls } = fakeApi({ 'GET /admin/api/live-video/4/context': CONTEXT, ...routes });
  const el = await fixture<AdminLiveVideo>(html`<admin-live-video .api=${api}></admin-live-video>`);
  const socket = ScriptedSocket.last!;
  expect(socket.url).to.match(/^ws:\/\/.+\/admin\/api\/live-video\/socket$/);
  socket.serve(QUEUE);
  await until(() => $$(el, 'ol.queue li').length === 2, 'queue');
  return { el, socket, calls };
}

describe('<admin-live-video>', () => {
  it('lists the waiting users oldest first, live, each with a button to take the call, and is accessible', async () => {
    const { el, socket } = await opened();
    expect($$(el, 'ol.queue li strong').map((s) => s.textContent)).to.deep.equal(['Ada Lovelace', 'Grace Hopper']);
    await expect(el).to.be.accessible();
    socket.serve({ ...QUEUE, waiting: [QUEUE.waiting[1]] });
    await until(() => $$(el, 'ol.queue li').length === 1, 'queue update');
    socket.serve({ ...QUEUE, waiting: [] });
    await until(() => el.shadowRoot!.textContent!.includes('Nobody is waiting.'), 'empty queue');
  });

  it('takes a call, shows the user’s captures beside it, and records a rejection only with a reason', async () => {
    const { el, socket, calls } = await opened({ 'POST /admin/api/live-video/4/decision': { data: { user_id: 4, status: 'rejected' } } });
    const take = $$<HTMLButtonElement>(el, 'ol.queue button')[0]!;
    expect(take.textContent).to.contain('Take call');
    take.click();
    await until(() => socket.sent.some((m) => m.type === 'pick'), 'pick sent');
    expect(socket.sent.find((m) => m.type === 'pick')).to.deep.equal({ type: 'pick', user_id: 4 });
    socket.serve({ type: 'picked', user_id: 4, ends_at: new Date(Date.now() + 900_000).toISOString(), seconds_left: 900 });
    await until(() => $(el, 'img[alt="Document image 1"]') !== null, 'captures');
    expect($(el, 'h2')!.textContent).to.equal('Call with Ada Lovelace');
    expect($(el, 'img[alt="Selfie 1"]')).to.not.equal(null);
    // The agent sees the time left in the call.
    const countdown = $(el, 'verify-call-countdown')!;
    await until(() => countdown.shadowRoot?.textContent?.includes('Time left in the call: 15:00') === true, 'the time left');
    await expect(el).to.be.accessible();
    $<HTMLInputElement>(el, 'input[value=reject]')!.click();
    await el.updateComplete;
    const reason = $<HTMLTextAreaElement>(el, 'textarea[name=reason]')!;
    expect(reason.required).to.equal(true);
    const form = $<HTMLFormElement>(el, 'form')!;
    expect(form.checkValidity()).to.equal(false);
    reason.value = 'Not the person on the ID';
    form.requestSubmit();
    await until(() => calls.some((c) => c.method === 'POST'), 'decision sent');
    expect(calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ decision: 'reject', reason: 'Not the person on the ID' });
    await until(() => $(el, 'h2')!.textContent === 'Queue', 'back to the queue');
    expect($(el, '[role=status]')!.textContent).to.contain('Rejected.');
  });

  it('says so when the user leaves the call', async () => {
    const { el, socket } = await opened();
    $$<HTMLButtonElement>(el, 'ol.queue button')[0]!.click();
    await until(() => socket.sent.some((m) => m.type === 'pick'), 'pick sent');
    socket.serve({ type: 'picked', user_id: 4, ends_at: new Date(Date.now() + 900_000).toISOString(), seconds_left: 900 });
    await until(() => $(el, 'video.remote') !== null, 'the call');
    socket.serve({ type: 'ended', reason: 'user_left' });
    await until(() => $(el, 'video.remote') === null, 'call closed');
    expect($(el, '[role=status]')!.textContent).to.contain('The user left the call.');
  });

  it('returns to the queue and says why when the call reaches its time limit or an operator changes the verification', async () => {
    const { el, socket } = await opened();
    for (const [reason, words] of [
      ['time_limit', 'The call reached its time limit before a decision.'],
      ['method_changed', 'An operator changed this verification during the call'],
    ] as const) {
      await until(() => $$<HTMLButtonElement>(el, 'ol.queue button')[0]?.disabled === false, 'queue ready');
      $$<HTMLButtonElement>(el, 'ol.queue button')[0]!.click();
      socket.serve({ type: 'picked', user_id: 4, ends_at: new Date(Date.now() + 60_000).toISOString(), seconds_left: 60 });
      await until(() => $(el, 'verify-call-countdown') !== null, 'the call');
      socket.serve({ type: 'ended', reason });
      await until(() => $(el, 'video.remote') === null, 'call closed');
      expect($(el, 'verify-call-countdown')).to.equal(null);
      expect($(el, '[role=status]')!.textContent).to.contain(words);
      expect($(el, 'h2')!.textContent).to.equal('Queue');
    }
  });
});
