import { msg, str } from '@lit/localize';
import { css, html, nothing, type TemplateResult } from 'lit';
import type { MethodViewOf, VideoChallenge, VideoMove } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { CameraController } from '../../controllers/camera-controller.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { CameraWayForwardController } from '../camera-way-forward.js';
import { faceViewport } from '../selfie/face-viewport.js';
import { challengeText } from '../selfie/selfie-texts.js';
import selfieStyles from '../selfie/verify-step-selfie.styles.js';
import { StepElement } from '../step-element.js';
import { record, recordingType, type Recording } from './video-recorder.js';
import { states } from '../../internal/lit-states.js';

/** Screens of the video step. */
export const VIDEO_PHASE = { intro: 'intro', ready: 'ready', preparing: 'preparing', recording: 'recording', sending: 'sending', failed: 'failed' } as const;
export type VideoPhase = (typeof VIDEO_PHASE)[keyof typeof VIDEO_PHASE];

/** How long the step records: inside the server's 3-6 s, time for two or three slow turns. */
export const RECORDING_MS = 5200;
/** The straight look held at the start and at the end of the recording. */
const STRAIGHT_MS = 800;

/** The instruction for a move. */
export function moveText(move: VideoMove): string {
  return move === 'turn_left'
    ? msg('Turn your head to your left, then back.', { id: 'video.move.left' })
    : msg('Turn your head to your right, then back.', { id: 'video.move.right' });
}

/** What to do at `elapsed` ms into the recording: look straight, then each move in its share of the time. */
export function guideAt(moves: readonly VideoMove[], elapsed: number, total = RECORDING_MS): { index: number; text: string } {
  const share = (total - 2 * STRAIGHT_MS) / moves.length;
  const index = Math.floor((elapsed - STRAIGHT_MS) / share);
  if (elapsed < STRAIGHT_MS || index >= moves.length) return { index: -1, text: challengeText('look_straight') };
  return { index, text: moveText(moves[index]!) };
}

/**
 * Video: a short video selfie recorded while making a random sequence of head turns the server
 * drew. The moves are shown before the camera starts; the recording lasts about 5 s, frames are
 * sampled from it as it goes, and frames and recording are sent for the server to check.
 *
 * @csspart video - The camera preview (shown mirrored, like a mirror).
 */
export class VerifyStepVideo extends StepElement<MethodViewOf<'video'>> {
  static override styles = [
    sharedStyles,
    selfieStyles,
    css`
      ol.moves {
        padding-inline-start: 1.5rem;
      }
      progress {
        inline-size: 100%;
      }
    `,
  ];
  static override properties = {
    ...StepElement.properties,
    ...states('phase', 'challenge', 'guide', 'elapsed', 'error'),
  };

  declare private phase: VideoPhase;
  declare private challenge: VideoChallenge | null;
  declare private guide: string;
  declare private elapsed: number;
  declare private error: string;
  private readonly ways = new CameraWayForwardController(this, {
    retry: () => this.again(),
    handoffEnabled: () => this.context.handoffEnabled,
    handoff: () => this.requestHandoff(),
    handoffShown: (shown) => this.offersHandoff(shown),
  });
  private readonly camera = new CameraController(this);
  /** When the moves were shown: frame times are counted from here (the server checks them against the challenge). */
  private shownAt = 0;

  constructor() {
    super();
    this.phase = VIDEO_PHASE.intro;
    this.challenge = null;
    this.guide = '';
    this.elapsed = 0;
    this.error = '';
  }

  /** Asks the server for a challenge and shows its moves. */
  async showMoves(): Promise<void> {
    this.error = '';
    try {
      this.challenge = await this.client.videoChallenge();
      this.shownAt = performance.now();
      this.phase = VIDEO_PHASE.ready;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('h3')?.focus();
    } catch (error: unknown) {
      this.phase = VIDEO_PHASE.intro;
      this.error =
        error instanceof ApiError && error.error_type === 'session_attempts_exceeded'
          ? msg('No more attempts are left for this step. Please contact the company that sent you here.', { id: 'selfie.no-attempts' })
          : this.report(error).message;
    }
  }

  /** Opens the front camera and records while the moves are guided on screen. */
  async startRecording(): Promise<void> {
    const challenge = this.challenge;
    if (!challenge) return;
    const mimeType = recordingType();
    if (!mimeType) return this.fail(msg('This browser cannot record video. Open this page in Chrome, Firefox or Safari.', { id: 'video.unsupported' }));
    this.phase = VIDEO_PHASE.preparing;
    await this.updateComplete;
    const video = this.renderRoot.querySelector('video')!;
    if (!(await this.camera.start(video, 'user')) || !this.camera.stream) {
      this.phase = VIDEO_PHASE.failed;
      if (this.camera.error) this.report(this.camera.error);
      return;
    }
    this.phase = VIDEO_PHASE.recording;
    this.guide = guideAt(challenge.moves, 0).text;
    let recording: Recording;
    try {
      recording = await record(this.camera.stream, video, {
        durationMs: RECORDING_MS,
        frameCount: challenge.max_frames,
        mimeType,
        onTick: (elapsed) => {
          this.elapsed = elapsed;
          this.guide = guideAt(challenge.moves, elapsed).text;
        },
      });
    } catch (error: unknown) {
      this.camera.stop();
      this.report(new VerifyError('internal', 'video recording failed', 'error', true, { cause: error }));
      return this.fail(msg('The recording failed. Please try again.', { id: 'video.record-failed' }));
    }
    this.camera.stop();
    await this.send(challenge, recording);
  }

  private async send(challenge: VideoChallenge, recording: Recording): Promise<void> {
    this.phase = VIDEO_PHASE.sending;
    try {
      for (const [i, frame] of recording.frames.entries()) {
        const t = Math.max(0, Math.round(frame.at - this.shownAt));
        await this.client.uploadVideoFrame({ challenge_id: challenge.challenge_id, index: String(i), t: String(t) }, frame.blob);
      }
      await this.client.uploadVideoRecording({ challenge_id: challenge.challenge_id, duration_ms: String(recording.durationMs) }, recording.video);
      this.complete(await this.client.submitVideo(challenge.challenge_id));
    } catch (error: unknown) {
      this.challenge = null;
      this.phase = VIDEO_PHASE.intro;
      this.error =
        error instanceof ApiError && error.error_type === 'session_challenge_expired'
          ? msg('That took too long. Let us try again with new moves.', { id: 'selfie.timeout' })
          : this.report(error).message;
    }
  }

  private fail(message: string): void {
    this.challenge = null;
    this.error = message;
    this.phase = VIDEO_PHASE.failed;
  }

  private again(): void {
    this.phase = VIDEO_PHASE.intro;
    void this.showMoves();
  }

  private renderIntro(): TemplateResult {
    const left = this.method.needs.attempts_left;
    return html`<p>${msg('You will record a short video of your face (about 5 seconds) while turning your head as we ask.', { id: 'video.intro' })}</p>
      <p class="muted">${msg('Remove sunglasses or a hat, and make sure your face is well lit.', { id: 'selfie.intro.tips' })}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button type="button" ?disabled=${left === 0} @click=${() => void this.showMoves()}>${msg('Show me the moves', { id: 'video.show-moves' })}</button>
      </div>`;
  }

  private renderReady(challenge: VideoChallenge): TemplateResult {
    return html`<h3 tabindex="-1">${msg('Your moves', { id: 'video.moves-title' })}</h3>
      <p>${msg('Look straight at the camera first. When the recording starts, make these moves in this order, slowly:', { id: 'video.moves-intro' })}</p>
      <ol class="moves">
        ${challenge.moves.map((m) => html`<li>${moveText(m)}</li>`)}
      </ol>
      <p class="muted">${msg('Then look straight at the camera again. We will guide you on screen.', { id: 'video.moves-end' })}</p>
      <div class="actions">
        <button type="button" @click=${() => void this.startRecording()}>${msg('Start recording', { id: 'video.start' })}</button>
      </div>`;
  }

  protected override render() {
    const seconds = Math.max(0, Math.ceil((RECORDING_MS - this.elapsed) / 1000));
    return html`
      ${this.phase === VIDEO_PHASE.intro ? this.renderIntro() : nothing}
      ${this.phase === VIDEO_PHASE.ready && this.challenge ? this.renderReady(this.challenge) : nothing}
      ${faceViewport({ shown: this.phase === VIDEO_PHASE.recording || this.phase === VIDEO_PHASE.preparing, preparing: this.phase === VIDEO_PHASE.preparing })}
      ${
        this.phase === VIDEO_PHASE.recording
          ? html`<p class="instruction" role="status" aria-live="assertive">${this.guide}</p>
              <progress max=${RECORDING_MS} .value=${this.elapsed} aria-label=${msg('Recording', { id: 'video.recording' })}></progress>
              <p class="muted">${msg(str`Recording: ${seconds} s left`, { id: 'video.seconds-left' })}</p>`
          : nothing
      }
      ${this.phase === VIDEO_PHASE.sending ? html`<p role="status">${msg('Sending…', { id: 'doc.sending' })}</p>` : nothing}
      ${this.phase === VIDEO_PHASE.failed ? this.ways.failure(this.camera.error, this.error) : nothing}
    `;
  }
}
