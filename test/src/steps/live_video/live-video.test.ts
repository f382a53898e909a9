import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-live-video';

/**
 * Stands in for the server's end of the signalling socket: records what the step sends and lets
 * the test say what the server answers. The step, its camera (Chromium's fake device) and its
 * RTCPeerConnection are real.
 */
class ScriptedSocket extends EventTarget {
  static last: ScriptedSocket | null = null;
  static readonly OPEN = 1;
  readonly sent: { type: string; [k: string]: unknown }[] = [];
  readyState = 0;
  constructor(readonly url: string) {
    super();
    ScriptedSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event('open'));
    });
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { type: string });
  }
  close(): void {
    this.readyState = 3;
  }
  /** A message from the server. */
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

async function joined(flow: HTMLElement): Promise<ScriptedSocket> {
  buttonByText(flow as never, TAG, 'Join the video call')!.click();
  const socket = await until(() => ScriptedSocket.last, 5000, 'the signalling socket');
  await until(() => socket.sent.length > 0, 3000, 'hello');
  return socket;
}

describe('<verify-step-live-video>', () => {
  it('says what happens, joins with camera and microphone, says hello with the session, and shows the place in the queue', async () => {
    const { flow } = await startFlow({ session: session([METHODS.live_video()]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('An agent will talk to you in a short video call');
    await expect(deep(flow, TAG)).to.be.accessible();
    const socket = await joined(flow);
    expect(socket.url).to.match(/^ws:\/\/.+\/session\/methods\/live_video\/socket$/);
    expect(socket.sent[0]).to.include({ type: 'hello' });
    expect(socket.sent[0]!.session_token).to.be.a('string').and.not.equal('');
    expect(socket.sent[0]!.csrf_token).to.be.a('string').and.not.equal('');
    socket.serve({ type: 'waiting', position: 2 });
    await until(() => stepText(flow, TAG).includes('An agent will join shortly. You are number 2 in the queue.'), 3000, 'queue place');
    const own = deep<HTMLVideoElement>(flow, TAG, 'video.local')!;
    await until(() => own.srcObject instanceof MediaStream, 3000, 'own camera preview');
    expect(buttonByText(flow as never, TAG, 'Leave the queue')).to.not.equal(null);
    await expect(deep(flow, TAG)).to.be.accessible();
    buttonByText(flow as never, TAG, 'Leave the queue')!.click();
    expect(socket.sent.at(-1)).to.deep.equal({ type: 'leave' });
    await until(() => stepText(flow, TAG).includes('You left the call. Join again whenever you are ready.'), 3000, 'left');
    expect(buttonByText(flow as never, TAG, 'Join again')).to.not.equal(null);
  });

  it('makes a WebRTC offer when an agent joins, goes back to the queue when the agent leaves, and hangs up', async () => {
    const { flow } = await startFlow({ session: session([METHODS.live_video()]) }, TAG);
    const socket = await joined(flow);
    socket.serve({ type: 'waiting', position: 1 });
    socket.serve({ type: 'connected', ends_at: new Date(Date.now() + 900_000).toISOString(), seconds_left: 900 });
    const offer = await until(() => socket.sent.find((m) => m.type === 'signal'), 5000, 'the offer');
    const description = (offer.signal as { description: { type: string; sdp: string } }).description;
    expect(description.type).to.equal('offer');
    expect(description.sdp).to.contain('m=video').and.contain('m=audio');
    await until(() => stepText(flow, TAG).includes('Connecting to the agent'), 3000, 'connecting');
    socket.serve({ type: 'ended', reason: 'agent_left' });
    await until(() => stepText(flow, TAG).includes('The agent left the call. You are back in the queue.'), 3000, 'agent left');
    socket.serve({ type: 'connected', ends_at: new Date(Date.now() + 900_000).toISOString(), seconds_left: 900 });
    await until(() => buttonByText(flow as never, TAG, 'Hang up'), 3000, 'hang-up button');
    buttonByText(flow as never, TAG, 'Hang up')!.click();
    expect(socket.sent.at(-1)).to.deep.equal({ type: 'leave' });
    await until(() => buttonByText(flow as never, TAG, 'Join again'), 3000, 'join again');
  });

  it('shows the time left in the call, and at the limit ends it with the way forward', async () => {
    const { flow } = await startFlow({ session: session([METHODS.live_video()]) }, TAG);
    const socket = await joined(flow);
    socket.serve({ type: 'connected', ends_at: new Date(Date.now() + 900_000).toISOString(), seconds_left: 900 });
    await until(() => stepText(flow, TAG).includes('Connecting to the agent'), 3000, 'connecting');
    const countdown = await until(() => deep(flow, TAG, 'verify-call-countdown'), 3000, 'the countdown');
    await until(() => countdown.shadowRoot?.textContent?.includes('Time left in the call: 15:00'), 3000, 'the time left');
    await expect(deep(flow, TAG)).to.be.accessible();
    socket.serve({ type: 'ended', reason: 'time_limit' });
    await until(() => stepText(flow, TAG).includes('The call reached its time limit before the agent decided'), 3000, 'time limit');
    expect(stepText(flow, TAG)).to.contain('contact the organisation that asked you to verify');
    expect(deep(flow, TAG, 'verify-call-countdown')).to.equal(null);
    expect(buttonByText(flow as never, TAG, 'Join again')).to.not.equal(null);
  });

  it('ends the call when the organisation changes the step, and leaves a reset step to join again', async () => {
    const { flow } = await startFlow({ session: session([METHODS.live_video()]) }, TAG);
    const socket = await joined(flow);
    socket.serve({ type: 'connected', ends_at: new Date(Date.now() + 900_000).toISOString(), seconds_left: 900 });
    socket.serve({ type: 'ended', reason: 'method_changed' });
    await until(() => stepText(flow, TAG).includes('changed this step, so the call ended'), 3000, 'method changed');
    await until(() => buttonByText(flow as never, TAG, 'Join again'), 3000, 'join again');
  });

  it('asks the session again when the agent decides, and shows a refusal the server sends', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.live_video()]) }, TAG);
    const socket = await joined(flow);
    socket.serve({ type: 'error', error_type: 'session_method_state_error', error_message: 'This step is already done.' });
    await until(() => deep(flow, TAG, '[role=alert]')?.textContent?.includes('This step is already done.'), 3000, 'refusal');
    const before = (await calls(key)).filter((c) => c.path === '/session').length;
    socket.serve({ type: 'decided', status: 'complete' });
    let after = before;
    for (let i = 0; i < 100 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = (await calls(key)).filter((c) => c.path === '/session').length;
    }
    expect(after).to.be.greaterThan(before);
  });

  it('is used with the keyboard, and speaks Arabic', async () => {
    const { flow } = await startFlow({ session: session([METHODS.live_video()]) }, TAG, { lang: 'ar' });
    const join = await until(() => buttonByText(flow as never, TAG, 'الانضمام إلى مكالمة الفيديو'), 3000, 'arabic join');
    join.focus();
    await sendKeys({ press: 'Enter' });
    const socket = await until(() => ScriptedSocket.last, 5000, 'socket opened from the keyboard');
    socket.serve({ type: 'waiting', position: 3 });
    await until(() => stepText(flow, TAG).includes('ترتيبك 3 في قائمة الانتظار'), 3000, 'arabic queue place');
  });
});
