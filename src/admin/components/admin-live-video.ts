import { css, html, nothing } from 'lit';
import type { LiveVideoEndReason, LiveVideoWaiting } from '../../api/methods/live_video.js';
import '../../steps/live_video/call-countdown.js';
import { LiveVideoAgent } from '../live-video-agent.js';
import { adminStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import type { CallContext, CallContextAnswer, StillAnswer } from '../../api/admin/live-video.js';
import { states } from '../../internal/lit-states.js';

type Decision = 'approve' | 'reject' | 'review';

/** What the agent is told when a call ends without their decision; the view is back at the queue. */
const ENDED_WORDS: Partial<Record<LiveVideoEndReason, string>> = {
  user_left: 'The user left the call. The verification is open again for them.',
  time_limit: 'The call reached its time limit before a decision. The verification is open again for the user.',
  method_changed: 'An operator changed this verification during the call (reset, approved or rejected it), so the call ended. Their status stands.',
};

/**
 * Live Video for agents: the queue of waiting users (oldest first, live), the call with the one
 * picked, their captured documents and selfies beside it, "Take a still" (a frame of the user's
 * video, stored with their captures), and the decision with its reason.
 */
export class AdminLiveVideo extends AdminView {
  static override styles = [
    adminStyles,
    css`
      .call {
        display: grid;
        gap: 1rem;
        grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
      }
      @media (max-width: 50rem) {
        .call {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      video {
        background: #111;
        border-radius: 6px;
        inline-size: 100%;
        aspect-ratio: 4 / 3;
      }
      video.local {
        inline-size: 10rem;
      }
      .captures {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
      }
      .captures img {
        inline-size: 8rem;
        block-size: auto;
        border: 1px solid var(--verity-border, #d5d9e0);
        border-radius: 4px;
      }
      ol.queue li {
        margin-block: 0.4rem;
      }
    `,
  ];

  static override properties = {
    ...AdminView.properties,
    ...states('waiting', 'callUser', 'context', 'remote', 'connected', 'decision', 'secondsLeft'),
  };

  declare waiting: LiveVideoWaiting[];
  declare callUser: number | null;
  declare context: CallContext | null;
  declare remote: MediaStream | null;
  declare connected: boolean;
  declare decision: Decision;
  /** The call's time left when the agent took it (the configured length limit). */
  declare secondsLeft: number;
  #agent: LiveVideoAgent;

  constructor() {
    super();
    this.waiting = [];
    this.callUser = null;
    this.context = null;
    this.remote = null;
    this.connected = false;
    this.decision = 'approve';
    this.secondsLeft = 0;
    this.#agent = new LiveVideoAgent({
      queue: (waiting) => {
        this.waiting = waiting;
        this.connected = true;
      },
      picked: (userId, secondsLeft) => {
        this.callUser = userId;
        this.secondsLeft = secondsLeft;
        this.status = 'In the call.';
        void this.#loadContext(userId);
      },
      remote: (stream) => {
        this.remote = stream;
      },
      ended: (reason) => {
        this.#clearCall();
        this.status = ENDED_WORDS[reason] ?? ENDED_WORDS.user_left!;
      },
      problem: (message) => {
        this.error = message;
      },
      closed: () => {
        this.connected = false;
        this.#clearCall();
        this.error = 'The connection to the queue was lost. Reload the page to reconnect.';
      },
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#agent.connect();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#agent.close();
  }

  #clearCall(): void {
    this.callUser = null;
    this.context = null;
    this.remote = null;
  }

  async #loadContext(userId: number): Promise<void> {
    const res = await this.run(() => this.client.get<CallContextAnswer>(`/admin/api/live-video/${userId}/context`));
    if (res && this.callUser === userId) this.context = res.data;
  }

  async #pick(userId: number): Promise<void> {
    this.error = '';
    this.status = '';
    await this.#agent.pick(userId);
  }

  /** Draws the user's current video frame and stores it as a still. */
  async #takeStill(): Promise<void> {
    const video = this.renderRoot.querySelector<HTMLVideoElement>('video.remote');
    const userId = this.callUser;
    if (!video || userId === null || video.videoWidth === 0) {
      this.error = 'No video from the user yet.';
      return;
    }
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    if (!blob) return;
    const res = await this.run(
      () => this.client.request<StillAnswer>('POST', `/admin/api/live-video/${userId}/stills`, blob, { 'content-type': 'image/jpeg' }),
      'Still saved to the user’s captures.',
    );
    if (res && this.context) this.context = { ...this.context, stills: [...this.context.stills, res.data] };
  }

  async #decide(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const userId = this.callUser;
    if (userId === null) return;
    const reason = (new FormData(e.target as HTMLFormElement).get('reason') ?? '').toString();
    const words = { approve: 'Approved', reject: 'Rejected', review: 'Sent to review' }[this.decision];
    const done = await this.run(
      () => this.client.post(`/admin/api/live-video/${userId}/decision`, { decision: this.decision, ...(reason.trim() ? { reason } : {}) }),
      `${words}. The user’s flow goes on.`,
      'reason',
    );
    if (done === undefined) return;
    this.#agent.endCall();
    this.#clearCall();
  }

  protected override updated(): void {
    const remote = this.renderRoot.querySelector<HTMLVideoElement>('video.remote');
    if (remote && remote.srcObject !== this.remote) remote.srcObject = this.remote;
    const local = this.renderRoot.querySelector<HTMLVideoElement>('video.local');
    if (local && local.srcObject !== this.#agent.local) local.srcObject = this.#agent.local;
  }

  #renderQueue() {
    if (!this.connected) return html`<p class="muted">Connecting to the queue…</p>`;
    if (this.waiting.length === 0) return html`<p class="muted">Nobody is waiting.</p>`;
    return html`<ol class="queue" aria-label="Waiting users, oldest first">
      ${this.waiting.map(
        (w) =>
          html`<li>
            <strong>${w.name}</strong> <span class="muted">waiting since ${new Date(w.waiting_since).toLocaleTimeString()}</span>
            <button type="button" ?disabled=${this.callUser !== null} @click=${() => void this.#pick(w.user_id)}>
              Take call<span class="sr-only"> with ${w.name}</span>
            </button>
          </li>`,
      )}
    </ol>`;
  }

  #renderCall() {
    const ctx = this.context;
    const needsReason = this.decision !== 'approve';
    return html`<h2>Call with ${ctx?.name || `user ${this.callUser}`}</h2>
      <verify-call-countdown .seconds=${this.secondsLeft}></verify-call-countdown>
      <div class="call">
        <div>
          <video class="remote" autoplay playsinline aria-label="The user’s video"></video>
          <div class="row">
            <video class="local" autoplay playsinline muted aria-label="Your camera"></video>
            <button type="button" class="secondary" @click=${() => void this.#takeStill()}>Take a still</button>
            <button type="button" class="secondary" @click=${() => this.#agent.hangUp()}>Hang up</button>
          </div>
        </div>
        <div>
          <h3>Documents</h3>
          <div class="captures">
            ${ctx?.documents.length ? ctx.documents.map((d, i) => html`<img src=${d.url} alt="Document image ${i + 1}" />`) : html`<p class="muted">None captured.</p>`}
          </div>
          <h3>Selfies</h3>
          <div class="captures">
            ${ctx?.faces.length ? ctx.faces.map((f, i) => html`<img src=${f.url} alt="Selfie ${i + 1}" />`) : html`<p class="muted">None captured.</p>`}
          </div>
          <h3>Stills of this call</h3>
          <div class="captures">
            ${ctx?.stills.length ? ctx.stills.map((s, i) => html`<img src=${s.url} alt="Still ${i + 1}" />`) : html`<p class="muted">None yet.</p>`}
          </div>
        </div>
      </div>
      <form @submit=${(e: SubmitEvent) => void this.#decide(e)}>
        <fieldset>
          <legend>Decision</legend>
          ${(['approve', 'reject', 'review'] as const).map(
            (d) =>
              html`<label class="inline"
                ><input type="radio" name="decision" value=${d} .checked=${this.decision === d} @change=${() => (this.decision = d)} />
                ${{ approve: 'Approve', reject: 'Reject', review: 'Send to review' }[d]}</label
              >`,
          )}
          <label
            >Reason ${needsReason ? '(required, sent to the customer)' : '(optional)'}<textarea
              name="reason"
              rows="2"
              maxlength="1000"
              ?required=${needsReason}
            ></textarea>
          </label>
          <div class="row"><button type="submit">Record the decision</button></div>
        </fieldset>
      </form>`;
  }

  protected override render() {
    return html`<h1 tabindex="-1">Live video</h1>
      ${this.feedback()} ${this.callUser !== null ? this.#renderCall() : nothing}
      <h2>Queue</h2>
      ${this.#renderQueue()}`;
  }
}

if (!customElements.get('admin-live-video')) customElements.define('admin-live-video', AdminLiveVideo);

declare global {
  interface HTMLElementTagNameMap {
    'admin-live-video': AdminLiveVideo;
  }
}
