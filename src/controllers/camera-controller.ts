/**
 * Camera access as a reactive controller: opens the stream on request, attaches it to a
 * `<video>`, and always releases it when the host leaves the page. Each failure maps to its own
 * closed error code so the step can show a specific message and way forward.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { VerifyError, type VerifyErrorCode } from '../events/events.js';

/** Which camera. */
export type Facing = 'environment' | 'user';

/** Camera states. */
export const CAMERA_STATE = { idle: 'idle', starting: 'starting', live: 'live', failed: 'failed' } as const;
/** One of {@link CAMERA_STATE}. */
export type CameraState = (typeof CAMERA_STATE)[keyof typeof CAMERA_STATE];

/** True inside in-app browsers (Facebook, Instagram, LINE, Android WebView) that often block cameras. */
export function isInAppBrowser(userAgent: string): boolean {
  return /FBAN|FBAV|Instagram|Line\/|; wv\)|WebView|TikTok|Snapchat/i.test(userAgent);
}

/** Maps a `getUserMedia` failure to a closed error code. */
export function cameraErrorCode(error: unknown, env: { secure: boolean; hasMediaDevices: boolean; userAgent: string }): VerifyErrorCode {
  if (!env.secure) return 'camera_insecure_context';
  if (!env.hasMediaDevices) return 'camera_unsupported';
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return isInAppBrowser(env.userAgent) ? 'camera_unsupported' : 'camera_permission_denied';
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return 'camera_not_found';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'camera_in_use';
    default:
      return isInAppBrowser(env.userAgent) ? 'camera_unsupported' : 'camera_in_use';
  }
}

/** Opens and owns one camera stream for its host. */
export class CameraController implements ReactiveController {
  state: CameraState = CAMERA_STATE.idle;
  error: VerifyError | null = null;
  stream: MediaStream | null = null;
  /** ms from `start()` to the first frame being available in the video. */
  firstFrameMs: number | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.stop();
  }

  /** Opens the camera facing `facing` and plays it in `video`. Resolves false on failure (see `error`). */
  async start(video: HTMLVideoElement, facing: Facing): Promise<boolean> {
    this.stop();
    const started = performance.now();
    this.state = CAMERA_STATE.starting;
    this.error = null;
    this.firstFrameMs = null;
    this.host.requestUpdate();
    const env = {
      secure: window.isSecureContext,
      hasMediaDevices: typeof navigator.mediaDevices?.getUserMedia === 'function',
      userAgent: navigator.userAgent,
    };
    try {
      if (!env.secure || !env.hasMediaDevices) throw new DOMException('Camera unavailable here', 'NotSupportedError');
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: facing }, width: { ideal: 1280 }, height: { ideal: 720 } },
      });
      this.stream = stream;
      video.srcObject = stream;
      video.muted = true;
      video.playsInline = true;
      await video.play();
      if (video.readyState < 2) await new Promise((resolve) => video.addEventListener('loadeddata', resolve, { once: true }));
      this.firstFrameMs = performance.now() - started;
      this.state = CAMERA_STATE.live;
      this.host.requestUpdate();
      return true;
    } catch (error: unknown) {
      this.stop();
      const code = cameraErrorCode(error, env);
      this.error = new VerifyError(code, error instanceof Error ? error.message : String(error), 'warning', code !== 'camera_insecure_context', {
        cause: error,
      });
      this.state = CAMERA_STATE.failed;
      this.host.requestUpdate();
      return false;
    }
  }

  /** Releases the camera. */
  stop(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    if (this.state === CAMERA_STATE.live || this.state === CAMERA_STATE.starting) this.state = CAMERA_STATE.idle;
  }
}
