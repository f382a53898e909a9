import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { LiveVideoToUser, MethodViewOf } from '../../api/contract.js';
import { cameraErrorCode } from '../../controllers/camera-controller.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { cameraHelp } from '../camera-help.js';
import { StepElement } from '../step-element.js';
import './call-countdown.js';
import { PeerCall } from './peer-call.js';
import { liveVideoStyles } from './verify-step-live-video.styles.js';
import { states } from '../../internal/lit-states.js';

/** Where the user is: before joining, asking for the camera, in the queue, in the call. */
export type LiveVideoPhase = 'ready' | 'starting' | 'waiting' | 'call';

/**
 * Live Video: the user joins a queue (camera and microphone first), sees their place in it, and
 * talks to an agent in a WebRTC call; the agent's decision completes the step. Leaving the queue
 * or hanging up is always one button away, and the step can be joined again.
 */
export class VerifyStepLiveVideo extends StepElement<MethodViewOf<'live_video'>> {
  static override styles = [sharedStyles, liveVideoStyles];
  static override properties = {
    ...StepElement.properties,
    ...states('phase', 'position', 'problem', 'notice', 'remote', 'secondsLeft'),
  };

  declare phase: LiveVideoPhase;
  declare position: number;
  declare private problem: string;
  declare private notice: string;
  declare private remote: MediaStream | null;
  /** The call's time left when it started (the server's length limit), null outside a call. */
  declare private secondsLeft: number | null;
  #socket: WebSocket | null = null;
  #call: PeerCall | null = null;
  #stream: MediaStream | null = null;

  constructor() {
    super();
    this.phase = 'ready';
    this.position = 0;
    this.problem = '';
    this.notice = '';
    this.remote = null;
    this.secondsLeft = null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Closing the socket tells the server the user left: the step stays open for later.
    this.#stop();
  }

  /** Camera and microphone, then the queue. */
  async join(): Promise<void> {
    if (this.phase !== 'ready') return;
    this.phase = 'starting';
    this.problem = '';
    this.notice = '';
    try {
      this.#stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: true });
    } catch (error: unknown) {
      const code = cameraErrorCode(error, { secure: window.isSecureContext, hasMediaDevices: 'mediaDevices' in navigator, userAgent: navigator.userAgent });
      this.problem = cameraHelp(code).message;
      this.report(new VerifyError(code, `Camera or microphone: ${code}`, 'warning', true, { cause: error }));
      this.phase = 'ready';
      return;
    }
    const { url, hello } = this.client.liveVideoSocket();
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('open', () => socket.send(JSON.stringify(hello)));
    socket.addEventListener('message', (e) => void this.#onMessage(JSON.parse(String(e.data)) as LiveVideoToUser));
    socket.addEventListener('close', () => {
      if (this.#socket !== socket) return;
      this.#stop();
      if (!this.notice && !this.problem) this.problem = msg('The connection to the call was lost. Join again when you are ready.', { id: 'live-video.lost' });
    });
    await this.updateComplete;
    this.#showLocal();
  }

  /** Leaves the queue or hangs up; the step stays open and can be joined again. */
  leave(): void {
    this.#socket?.send(JSON.stringify({ type: 'leave' }));
    this.#stop();
    this.notice = msg('You left the call. Join again whenever you are ready.', { id: 'live-video.left' });
  }

  async #onMessage(message: LiveVideoToUser): Promise<void> {
    switch (message.type) {
      case 'waiting':
        this.position = message.position;
        if (this.phase !== 'call') this.phase = 'waiting';
        return;
      case 'connected': {
        this.phase = 'call';
        this.notice = '';
        this.secondsLeft = message.seconds_left;
        const call = new PeerCall(
          this.method.needs.ice_servers,
          this.#stream,
          (signal) => this.#socket?.send(JSON.stringify({ type: 'signal', signal })),
          (stream) => {
            this.remote = stream;
          },
        );
        this.#call = call;
        await this.updateComplete;
        this.#showLocal();
        // The call may have ended meanwhile (time limit, the organisation changed the step).
        if (this.#call === call) await call.offer();
        return;
      }
      case 'signal':
        await this.#call?.receive(message.signal);
        return;
      case 'ended':
        this.#call?.close();
        this.#call = null;
        this.remote = null;
        this.secondsLeft = null;
        if (message.reason === 'agent_left') {
          this.phase = 'waiting';
          this.notice = msg('The agent left the call. You are back in the queue.', { id: 'live-video.agent-left' });
        } else if (message.reason === 'time_limit') {
          this.#stop();
          this.notice = msg(
            'The call reached its time limit before the agent decided, so nothing was decided. Join again when you are ready, or contact the organisation that asked you to verify.',
            { id: 'live-video.time-limit' },
          );
        } else if (message.reason === 'method_changed') {
          await this.#methodChanged();
        } else {
          this.#stop();
          this.notice = msg('The call continues in another window.', { id: 'live-video.replaced' });
        }
        return;
      case 'decided':
        await this.#finish();
        return;
      case 'error':
        this.problem = message.error_message;
        this.report(
          new VerifyError(message.error_type === 'session_consent_required' ? 'consent_required' : 'internal', message.error_message, 'warning', true),
        );
        return;
    }
  }

  /** The agent decided: the step's result is the method as the server now has it. */
  async #finish(): Promise<void> {
    this.#stop();
    try {
      const view = await this.client.session();
      const method = view.methods.find((m) => m.key === 'live_video');
      if (method) this.complete({ method, state: view.state });
    } catch (error: unknown) {
      this.problem = this.report(error).message;
    }
  }

  /**
   * The organisation changed this step during the call (reset, approved or rejected it): a
   * decision moves the flow on as the agent's would; a reset leaves the step to join again.
   */
  async #methodChanged(): Promise<void> {
    this.#stop();
    this.notice = msg('The organisation that asked you to verify changed this step, so the call ended.', { id: 'live-video.method-changed' });
    try {
      const view = await this.client.session();
      const method = view.methods.find((m) => m.key === 'live_video');
      if (method && method.status !== 'reset' && method.status !== 'assigned') this.complete({ method, state: view.state });
    } catch (error: unknown) {
      this.problem = this.report(error).message;
    }
  }

  #showLocal(): void {
    const video = this.renderRoot.querySelector<HTMLVideoElement>('video.local');
    if (video && this.#stream && video.srcObject !== this.#stream) video.srcObject = this.#stream;
  }

  #stop(): void {
    const socket = this.#socket;
    this.#socket = null;
    socket?.close();
    this.#call?.close();
    this.#call = null;
    for (const track of this.#stream?.getTracks() ?? []) track.stop();
    this.#stream = null;
    this.remote = null;
    this.secondsLeft = null;
    this.phase = 'ready';
    this.position = 0;
  }

  protected override updated(): void {
    const video = this.renderRoot.querySelector<HTMLVideoElement>('video.remote');
    if (video && video.srcObject !== this.remote) video.srcObject = this.remote;
  }

  #status() {
    if (this.phase === 'starting') return msg('Starting your camera and microphone…', { id: 'live-video.starting' });
    if (this.phase === 'waiting') {
      return this.position > 0
        ? msg(str`An agent will join shortly. You are number ${this.position} in the queue.`, { id: 'live-video.waiting' })
        : msg('An agent will join shortly.', { id: 'live-video.waiting-plain' });
    }
    if (this.phase === 'call')
      return this.remote
        ? msg('You are in the call with an agent.', { id: 'live-video.in-call' })
        : msg('Connecting to the agent…', { id: 'live-video.connecting' });
    return '';
  }

  protected override render() {
    const active = this.phase !== 'ready';
    return html`
      <p>
        ${msg(
          'An agent will talk to you in a short video call and may ask you to show your ID document. Your camera and microphone are used for the call only.',
          {
            id: 'live-video.intro',
          },
        )}
      </p>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      <p class="status" role="status" aria-live="polite">${this.notice} ${this.#status()}</p>
      ${
        active
          ? html`<div class="videos">
              <video
                class="remote"
                autoplay
                playsinline
                aria-label=${msg('The agent', { id: 'live-video.agent-video' })}
                ?hidden=${this.phase !== 'call'}
              ></video>
              <video class="local" autoplay playsinline muted aria-label=${msg('Your camera', { id: 'live-video.own-video' })}></video>
            </div>`
          : nothing
      }
      ${this.phase === 'call' && this.secondsLeft !== null ? html`<verify-call-countdown .seconds=${this.secondsLeft}></verify-call-countdown>` : nothing}
      <div class="actions">
        ${
          active
            ? html`<button type="button" class="secondary" ?disabled=${this.phase === 'starting'} @click=${() => this.leave()}>
                ${this.phase === 'call' ? msg('Hang up', { id: 'live-video.hang-up' }) : msg('Leave the queue', { id: 'live-video.leave' })}
              </button>`
            : html`<button type="button" ?disabled=${this.method.status === 'rejected'} @click=${() => void this.join()}>
                ${this.notice || this.problem ? msg('Join again', { id: 'live-video.rejoin' }) : msg('Join the video call', { id: 'live-video.join' })}
              </button>`
        }
      </div>
    `;
  }
}
