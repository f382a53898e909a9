import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { FaceChallenge, FaceEvidence, MethodViewOf } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import type { DetectedFace } from '../../capture/face-detector.js';
import type { FaceModel } from '../../capture/face-model.js';
import { ChallengeJudge, isTimedStep, yawOf, type FaceHint } from '../../capture/liveness.js';
import { meanLuma, toLuma } from '../../capture/quality.js';
import { poolMoveFrame, spreadOverMove } from '../../capture/move-frames.js';
import { FrameSampler, toJpeg } from '../../capture/video-frames.js';
import { CameraController, CAMERA_STATE } from '../../controllers/camera-controller.js';
import { FrameLoopController } from '../../controllers/frame-loop-controller.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { CameraWayForwardController } from '../camera-way-forward.js';
import { StepElement } from '../step-element.js';
import { faceViewport } from './face-viewport.js';
import { challengeText, faceHintText, tooManyFramesText } from './selfie-texts.js';
import { selfieHelp, type HelpCause } from './selfie-help.js';
import { cameraDevice } from '../camera-device.js';
import { colourAt, timedPlan, type TimedPlan } from './timed-capture.js';
import styles from './verify-step-selfie.styles.js';
import { states } from '../../internal/lit-states.js';

export { challengeText, faceHintText };

/** Screens of the selfie step. */
export const SELFIE_PHASE = { intro: 'intro', preparing: 'preparing', live: 'live', sending: 'sending', failed: 'failed' } as const;
/** One of {@link SELFIE_PHASE}. */
export type SelfiePhase = (typeof SELFIE_PHASE)[keyof typeof SELFIE_PHASE];

const ANALYSIS_WIDTH = 160;
/** Dense frames of a move are taken at most this often (the server judges the motion from them). */
const DENSE_FRAME_INTERVAL_MS = 100;
/** Width the dense frames are sent at: enough for the server's face mesh, light to upload. */
const DENSE_FRAME_WIDTH = 640;

/** One frame kept while a move is under way. */
interface DenseFrame {
  canvas: HTMLCanvasElement;
  evidence: FaceEvidence;
}

/**
 * Selfie and active liveness: front camera with a face oval, on-device face detection, a
 * server-issued randomised sequence of moves judged from the face box and keypoints, and a frame
 * captured at each move and sent for the server to check. `verify-step-selfie` asks for one
 * straight look; `verify-step-liveness` for the whole sequence.
 *
 * @csspart video - The camera preview (shown mirrored, like a mirror).
 */
export class VerifyStepSelfie extends StepElement<MethodViewOf<'selfie'> | MethodViewOf<'liveness'>> {
  static override styles = [sharedStyles, styles];
  static override properties = {
    ...StepElement.properties,
    ...states('phase', 'instruction', 'hint', 'error', 'stepIndex', 'needsHelp', 'flashing'),
    stepTimeoutMs: { type: Number, attribute: 'step-timeout-ms' },
  };

  /** A move not done within this time ends the attempt (the server counts attempts; see {@link FaceChallenge}); a challenge's `move_ms` (the account's setting) wins. */
  declare stepTimeoutMs: number;
  /** Three attempts failed: show help and the other ways forward before the last one. */
  declare private needsHelp: boolean;

  declare private phase: SelfiePhase;
  declare private instruction: string;
  declare private hint: string;
  declare private error: string;
  declare private stepIndex: number;
  /** The flash step is on screen: the colour overlay is shown (its colour is set by {@link tickTimed}). */
  declare private flashing: boolean;

  private readonly camera = new CameraController(this);
  private readonly ways = new CameraWayForwardController(this, {
    retry: () => void this.begin(),
    handoffEnabled: () => this.context.handoffEnabled,
    handoff: () => this.requestHandoff(),
    handoffShown: (shown) => this.offersHandoff(shown),
    openBrowser: true,
  });
  private model: FaceModel | null = null;
  /** A detection is under way: frames that come meanwhile are skipped, not queued. */
  private detecting = false;
  private challenge: FaceChallenge | null = null;
  private judge: ChallengeJudge | null = null;
  private readonly frames = new FrameLoopController(this);
  private startedAt = 0;
  private stepStartedAt = 0;
  private uploads: Promise<unknown> = Promise.resolve();
  private uploadError: unknown = null;
  private readonly sampler = new FrameSampler(ANALYSIS_WIDTH);
  private lastHint: FaceHint | null | undefined = undefined;
  private detectMs: number[] = [];
  /**
   * The frames of the step under way, newest last: a move's pool spread over the whole move
   * (move-frames.ts), a timed step's frames on its clock.
   */
  private dense: DenseFrame[] = [];
  private lastDenseAt = 0;
  /** The canvas the next frame is drawn into (see {@link frameCanvas}). */
  private spare: HTMLCanvasElement | null = null;
  /** The timed step under way (flash or blink), or null during a move. */
  private timed: TimedPlan | null = null;
  /** The last single face seen: the evidence sent with the frames of a timed step. */
  private lastFace: DetectedFace | null = null;

  constructor() {
    super();
    this.phase = SELFIE_PHASE.intro;
    this.instruction = '';
    this.hint = '';
    this.error = '';
    this.stepIndex = 0;
    this.needsHelp = false;
    this.flashing = false;
    this.stepTimeoutMs = 30_000;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.frames.stop();
    this.endTimed();
    // The model belongs to the flow (it outlives the step); only the reference goes.
    this.model = null;
  }

  /** Milliseconds per face detection over the recent frames (diagnostics and the benchmark). */
  get detectionTimes(): readonly number[] {
    return this.detectMs;
  }

  /** The camera controller (start-up time, state). */
  get cameraState(): CameraController {
    return this.camera;
  }

  /** Fetches a challenge, loads the detector and opens the front camera. */
  async begin(): Promise<void> {
    this.error = '';
    this.needsHelp = false;
    this.phase = SELFIE_PHASE.preparing;
    await this.updateComplete;
    const video = this.renderRoot.querySelector('video')!;
    try {
      const key = this.method.key;
      // The flow began loading the model (in a worker) when the session started; usually it is ready.
      const model = (this.model ??= this.context.faceModel());
      const [challenge, , opened] = await Promise.all([this.client.faceChallenge(key), model.ready, this.camera.start(video, 'user')]);
      if (!opened) {
        this.phase = SELFIE_PHASE.failed;
        if (this.camera.error) this.report(this.camera.error);
        return;
      }
      this.challenge = challenge;
      this.judge = new ChallengeJudge(challenge.steps);
      this.uploads = Promise.resolve();
      this.uploadError = null;
      this.dense = [];
      this.lastFace = null;
      this.phase = SELFIE_PHASE.live;
      this.startedAt = performance.now();
      this.enterStep();
      this.startLoop(video);
    } catch (error: unknown) {
      this.camera.stop();
      this.phase = SELFIE_PHASE.failed;
      if (error instanceof ApiError && error.error_type === 'session_attempts_exceeded') {
        this.error = msg('No more attempts are left for this step. Please contact the company that sent you here.', { id: 'selfie.no-attempts' });
        this.report(error);
        return;
      }
      this.error = error instanceof ApiError ? this.errorText(error) : msg('The face check could not start on this device.', { id: 'selfie.detector-failed' });
      if (!(error instanceof ApiError)) this.report(new VerifyError('internal', 'face detector failed to load', 'error', true, { cause: error }));
    }
  }

  private startLoop(video: HTMLVideoElement): void {
    this.frames.start(() => {
      if (this.phase !== SELFIE_PHASE.live || this.camera.state !== CAMERA_STATE.live) return false;
      this.tickTimed(video);
      if (!this.detecting) void this.analyse(video);
      return true;
    });
  }

  private async analyse(video: HTMLVideoElement): Promise<void> {
    if (!this.model || !this.judge || !video.videoWidth) return;
    this.detecting = true;
    const t0 = performance.now();
    // The frame the worker looks at is the one kept if it becomes a dense frame.
    const frame = this.frameCanvas(video);
    const luma = meanLuma(toLuma(this.sampler.pixels(video)));
    let faces: DetectedFace[];
    try {
      faces = await this.model.detect(frame, t0);
    } catch (error: unknown) {
      this.frames.stop();
      this.camera.stop();
      this.phase = SELFIE_PHASE.failed;
      this.error = msg('The face check could not start on this device.', { id: 'selfie.detector-failed' });
      this.report(new VerifyError('internal', 'face detection failed', 'error', true, { cause: error }));
      return;
    } finally {
      this.detecting = false;
    }
    // The step may have ended (time-out, leaving the page) while the worker was busy.
    if (this.phase !== SELFIE_PHASE.live || !this.judge) return;
    this.detectMs.push(performance.now() - t0);
    if (this.detectMs.length > 60) this.detectMs.shift();
    // A timed step takes its frames on its own clock (tickTimed), not on detections.
    const timed = isTimedStep(this.judge.current);
    const update = this.judge.push(faces, luma);
    if (update.hint !== this.lastHint) {
      this.lastHint = update.hint;
      this.hint = update.hint ? faceHintText(update.hint) : '';
    }
    const face = update.face ?? (faces.length === 1 ? faces[0]! : null);
    if (face) this.lastFace = face;
    if (timed) return;
    if (face && (update.completed !== null || t0 - this.lastDenseAt >= DENSE_FRAME_INTERVAL_MS)) this.keepDense(frame, face, t0);
    if (update.completed !== null && update.face) {
      this.captureStep(update.completed);
      this.enterStep();
    } else if (performance.now() - this.stepStartedAt > (this.challenge?.move_ms ?? this.stepTimeoutMs)) {
      this.attemptTimedOut();
    }
  }

  /** Shows the current step, or finishes when none is left; a timed step gets its plan. */
  private enterStep(): void {
    const judge = this.judge!;
    if (judge.done) {
      void this.finish();
      return;
    }
    this.stepIndex = judge.currentIndex;
    this.instruction = challengeText(judge.current!);
    this.stepStartedAt = performance.now();
    this.timed = isTimedStep(judge.current) ? timedPlan(judge.current, this.challenge!, this.stepStartedAt) : null;
  }

  /**
   * Runs the timed step on every animation frame: paints the flash colour due now (through the
   * CSSOM: the hosted page's CSP blocks style attributes), takes the frames as they fall due, and
   * ends the step when its time is over.
   */
  private tickTimed(video: HTMLVideoElement): void {
    const plan = this.timed;
    if (!plan || !this.judge) return;
    const now = performance.now();
    const colour = colourAt(plan, now);
    this.flashing = plan.step === 'flash' && now >= plan.start && now < plan.end;
    this.style.setProperty('--verify-flash', colour ?? 'transparent');
    if (this.dense.length < plan.due.length && now >= plan.due[this.dense.length]! && video.videoWidth) {
      const f = this.lastFace;
      const evidence: FaceEvidence = f
        ? { box: f.box, keypoints: f.keypoints, score: f.score, yaw: yawOf(f), t: Math.round(now - this.startedAt) }
        : { box: { x: 0, y: 0, width: 0, height: 0 }, keypoints: [], score: 0, yaw: 0, t: Math.round(now - this.startedAt) };
      this.dense.push({ canvas: this.frameCanvas(video, false), evidence });
    }
    if (now >= plan.end && this.dense.length >= plan.due.length) {
      this.endTimed();
      this.captureStep(this.judge.advance());
      this.enterStep();
    }
  }

  /** Stops a timed step's overlay. */
  private endTimed(): void {
    this.timed = null;
    this.flashing = false;
    this.style.removeProperty('--verify-flash');
  }

  /**
   * The video's current picture at {@link DENSE_FRAME_WIDTH} wide, in a canvas reused until it is
   * kept as a dense frame (then the next frame gets a new one); `reuse` false: always a new one.
   */
  private frameCanvas(video: HTMLVideoElement, reuse = true): HTMLCanvasElement {
    const canvas = reuse ? (this.spare ??= document.createElement('canvas')) : document.createElement('canvas');
    const scale = Math.min(1, DENSE_FRAME_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
    return canvas;
  }

  /** Keeps the frame in the move's pool (thinned over the whole move when it is full). */
  private keepDense(canvas: HTMLCanvasElement, face: DetectedFace, now: number): void {
    this.lastDenseAt = now;
    if (canvas === this.spare) this.spare = null;
    const evidence: FaceEvidence = { box: face.box, keypoints: face.keypoints, score: face.score, yaw: yawOf(face), t: Math.round(now - this.startedAt) };
    this.dense = poolMoveFrame(this.dense, { canvas, evidence }, this.challenge?.frames_per_step ?? 1, (f) => f.evidence.t);
  }

  /**
   * A move was not made in time. On the last attempt (`review_on_failure`) what was captured is
   * sent anyway, for a person to look at; otherwise the attempt ends, with help after the third.
   */
  private attemptTimedOut(): void {
    const challenge = this.challenge!;
    if (challenge.review_on_failure) {
      if (this.dense.length > 0) this.captureStep(this.judge!.currentIndex);
      void this.finish();
      return;
    }
    this.frames.stop();
    this.camera.stop();
    this.endTimed();
    this.phase = SELFIE_PHASE.intro;
    this.needsHelp = challenge.attempts_left === 0;
    // The help says what failed itself (helpCause).
    this.error = this.needsHelp ? '' : msg('That took too long. Let us try again with new moves.', { id: 'selfie.timeout' });
  }

  /** Sends the kept frames of step `index` (a look: the held frame; a move: its dense frames). */
  private captureStep(index: number): void {
    const challenge = this.challenge!;
    const step = challenge.steps[index]!;
    // A move sends its frames spread from its start to the held pose (at most `frames_per_step`);
    // a timed step already holds exactly its frames.
    const kept =
      step === 'look_straight'
        ? this.dense.slice(-1)
        : isTimedStep(step)
          ? this.dense.slice()
          : spreadOverMove(this.dense, challenge.frames_per_step ?? 1, (f) => f.evidence.t);
    this.dense = [];
    // Uploads run one after another in the background, in step and frame order.
    this.uploads = this.uploads
      .then(async () => {
        for (const [frameIndex, frame] of kept.entries()) {
          const blob = await toJpeg(frame.canvas, 0.85);
          if (!blob) throw new Error('frame encoding failed');
          await this.client.uploadFaceFrame(
            this.method.key,
            {
              challenge_id: challenge.challenge_id,
              step_index: String(index),
              step,
              frame_index: String(frameIndex),
              evidence: JSON.stringify(frame.evidence),
            },
            blob,
          );
        }
      })
      .catch((error: unknown) => {
        this.uploadError ??= error;
      });
  }

  private async finish(): Promise<void> {
    this.frames.stop();
    this.camera.stop();
    this.endTimed();
    this.phase = SELFIE_PHASE.sending;
    await this.uploads;
    try {
      if (this.uploadError) throw this.uploadError;
      this.complete(await this.client.submitFace(this.method.key, this.challenge!.challenge_id));
    } catch (error: unknown) {
      this.phase = SELFIE_PHASE.intro;
      this.error = this.errorText(error);
    }
  }

  /** Reports `error` and returns what the user reads: a spent upload budget in words, not "Too Many Requests". */
  private errorText(error: unknown): string {
    const reported = this.report(error);
    return error instanceof ApiError && error.error_type === 'api_rate_limit_error' ? tooManyFramesText() : reported.message;
  }

  /** Three attempts failed: timed out here, or counted by the server (refused captures too, after a retry). */
  private get helpDue(): boolean {
    return this.needsHelp || this.method.needs.attempts_left === 0;
  }

  /** Why the last attempt failed: timed out here just now, else what the server says of its refusal. */
  private get helpCause(): HelpCause {
    const active = this.method.needs.active_liveness;
    if (this.needsHelp) return active ? 'moves' : 'look';
    return this.method.needs.last_refusal ?? 'unknown';
  }

  protected override render() {
    const active = this.method.needs.active_liveness;
    const total = this.challenge?.steps.length ?? 0;
    return html`
      ${
        this.phase === SELFIE_PHASE.intro
          ? html`<p>
                ${
                  active
                    ? msg('We will ask you to make a few simple moves in front of the camera.', { id: 'selfie.intro.liveness' })
                    : msg('We will take a picture of your face.', { id: 'selfie.intro.selfie' })
                }
              </p>
              <p class="muted">${msg('Remove sunglasses or a hat, and make sure your face is well lit.', { id: 'selfie.intro.tips' })}</p>
              ${
                active
                  ? html`<div class="notice flash-notice" role="note">
                      <p>
                        <strong>${msg('The screen will change colour', { id: 'selfie.flash.notice-title' })}</strong>
                        ${msg('For about five seconds the screen shows a few plain colours, two a second, to check that a real face is in front of it.', {
                          id: 'selfie.flash.notice',
                        })}
                      </p>
                      <p>
                        ${msg(
                          'If changing light or flashing may affect you, do not start: use another way offered here or contact the company that sent you.',
                          {
                            id: 'selfie.flash.notice-health',
                          },
                        )}
                      </p>
                    </div>`
                  : nothing
              }
              ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
              ${this.helpDue ? html`<div role="alert">${selfieHelp(this.helpCause, cameraDevice(), active)}</div>` : nothing}
              <div class="actions">
                <button type="button" @click=${() => void this.begin()}>
                  ${this.helpDue ? msg('Try once more (a person will check it)', { id: 'selfie.help.last-try' }) : msg('Start the camera', { id: 'selfie.start' })}
                </button>
                ${this.helpDue ? this.ways.button('handoff') : nothing}
              </div>`
          : nothing
      }
      ${this.flashing ? html`<div class="flash" aria-hidden="true"></div>` : nothing}
      ${faceViewport({
        shown: this.phase === SELFIE_PHASE.live || this.phase === SELFIE_PHASE.preparing,
        preparing: this.phase === SELFIE_PHASE.preparing,
        flashing: this.flashing,
      })}
      ${
        this.phase === SELFIE_PHASE.live
          ? html`<p class="instruction" role="status" aria-live="assertive">
                ${total > 1 ? html`<span class="count">${msg(str`Move ${this.stepIndex + 1} of ${total}`, { id: 'selfie.count' })}</span>` : nothing}
                ${this.instruction}
              </p>
              <p class="hint" aria-live="polite">${this.hint}</p>`
          : nothing
      }
      ${this.phase === SELFIE_PHASE.sending ? html`<p role="status">${msg('Sending…', { id: 'doc.sending' })}</p>` : nothing}
      ${this.phase === SELFIE_PHASE.failed ? this.ways.failure(this.camera.error, this.error) : nothing}
    `;
  }
}
