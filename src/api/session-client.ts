/**
 * Typed client for the end-user session API (see `contract.ts`). Types only are imported from the
 * contract so the widget bundle carries no schema code.
 */
import type {
  BankAccountRequest,
  BankVerifyRequest,
  ConsentRequest,
  CodeMethodKey,
  CodeSentResponse,
  CompleteResponse,
  DocumentSubmitRequest,
  DocumentUploadFields,
  DocumentUploadResponse,
  FaceChallenge,
  FaceFrameFields,
  FaceFrameResponse,
  FaceMethodKey,
  GeolocationRequest,
  HandoffProgress,
  HandoffResponse,
  KnowledgeRequest,
  MethodKey,
  MethodResult,
  OidcMethodKey,
  SessionErrorType,
  SessionView,
  SignInResponse,
  StartSessionResponse,
  TotpEnrolment,
  TwoStepVerified,
  PasskeyOptions,
  PasskeyVerifyRequest,
  SecureCardSubmitFields,
  TwoStepVerifyRequest,
  VideoChallenge,
  VideoFrameFields,
  VideoRecordingFields,
  VideoUploadResponse,
  VoicePhrase,
} from './contract.js';
import { CSRF_HEADER, SESSION_ROUTES, SESSION_TOKEN_HEADER } from './routes.js';

/** A non-2xx answer of the session API, or a network failure (`status` 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly error_type: SessionErrorType | 'network_error' | 'unknown_error',
    readonly error_message: string,
    readonly details: { attempts_left?: number; retry_after_seconds?: number } = {},
    readonly errors: Record<string, string[]> = {},
    options?: { cause?: unknown },
  ) {
    super(error_message, options);
  }
}

/** Live progress events read from `GET /session/events`. */
export type SessionStreamEvent = { type: 'session'; data: SessionView } | { type: 'handoff'; data: HandoffProgress };

/** Options of {@link SessionClient}. */
export interface SessionClientOptions {
  /** The service's `{base_url}` (origin, optionally with a path prefix), no trailing slash. */
  baseUrl: string;
  /** `fetch` to use (tests may pass a wrapped one). */
  fetch?: typeof fetch;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * One client per flow instance (no global state). After `start()`/`claimHandoff()`/`session()`,
 * it remembers the session token and CSRF token and sends them on every call.
 */
export class SessionClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private sessionToken: string | null = null;
  private csrfToken: string | null = null;

  constructor(options: SessionClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Restores a token kept by the host (e.g. after a reload of the embedded flow). */
  setSessionToken(token: string | null): void {
    this.sessionToken = token;
  }

  /** The current session token, if any. */
  get token(): string | null {
    return this.sessionToken;
  }

  /** `POST /session/start` with the magic link. */
  async start(link: string, signal?: AbortSignal): Promise<StartSessionResponse> {
    const result = await this.request<StartSessionResponse>('POST', SESSION_ROUTES.start, { link }, false, signal);
    this.remember(result);
    return result;
  }

  /** `POST /session/handoff/claim` with a hand-off token (phone side). */
  async claimHandoff(token: string, signal?: AbortSignal): Promise<StartSessionResponse> {
    const result = await this.request<StartSessionResponse>('POST', SESSION_ROUTES.handoffClaim, { token }, false, signal);
    this.remember(result);
    return result;
  }

  /** `GET /session`. */
  async session(signal?: AbortSignal): Promise<SessionView> {
    const view = await this.request<SessionView>('GET', SESSION_ROUTES.session, undefined, false, signal);
    this.csrfToken = view.csrf_token;
    return view;
  }

  /** `POST /session/consent`: the user's decision about the consent text before biometric steps. */
  async consent(body: ConsentRequest): Promise<SessionView> {
    const view = await this.request<SessionView>('POST', SESSION_ROUTES.consent, body);
    this.csrfToken = view.csrf_token;
    return view;
  }

  /** `POST /session/methods/{key}/start`. */
  startMethod(key: MethodKey): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.methodStart(key), {});
  }

  /** `POST /session/methods/{key}/retry`. */
  retryMethod(key: MethodKey): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.methodRetry(key), {});
  }

  /** `POST /session/methods/{email|phone}/send` (send and resend). */
  sendCode(key: CodeMethodKey): Promise<CodeSentResponse> {
    return this.request('POST', SESSION_ROUTES.codeSend(key), {});
  }

  /** `POST /session/methods/{email|phone}/verify`. */
  verifyCode(key: CodeMethodKey, code: string): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.codeVerify(key), { code });
  }

  /** Starts a sign-in with an OpenID Connect provider: open the answer's `url` in a new window. */
  startSignIn(key: OidcMethodKey, providerId: number): Promise<SignInResponse> {
    return this.request('POST', SESSION_ROUTES.signIn(key), { provider_id: providerId });
  }

  /** Ends the step's pending sign-in as cancelled. */
  cancelSignIn(key: OidcMethodKey): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.signInCancel(key));
  }

  /** Sends a code to the payment account's e-mail. */
  sendPaymentCode(email: string): Promise<CodeSentResponse> {
    return this.request('POST', SESSION_ROUTES.paymentSend, { email });
  }

  /** Confirms the code sent to the payment account's e-mail. */
  verifyPaymentCode(code: string): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.paymentVerify, { code });
  }

  /** `POST /session/methods/geolocation`. */
  submitGeolocation(body: GeolocationRequest): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.geolocation, body);
  }

  /** `POST /session/methods/knowledge`. */
  submitKnowledge(body: KnowledgeRequest): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.knowledge, body);
  }

  /** `POST /session/methods/document_id/uploads` (multipart). */
  uploadDocument(fields: DocumentUploadFields, image: Blob, filename: string): Promise<DocumentUploadResponse> {
    const form = new FormData();
    form.set('document_type', fields.document_type);
    form.set('side', fields.side);
    form.set('source', fields.source);
    if (fields.quality !== undefined) form.set('quality', fields.quality);
    form.set('image', image, filename);
    return this.request('POST', SESSION_ROUTES.documentUpload, form);
  }

  /** `POST /session/methods/document_id/submit`. */
  submitDocument(body: DocumentSubmitRequest): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.documentSubmit, body);
  }

  /** `POST /session/methods/{selfie|liveness}/challenge`. */
  faceChallenge(key: FaceMethodKey): Promise<FaceChallenge> {
    return this.request('POST', SESSION_ROUTES.faceChallenge(key), {});
  }

  /** `POST /session/methods/{selfie|liveness}/frames` (multipart). */
  uploadFaceFrame(key: FaceMethodKey, fields: FaceFrameFields, frame: Blob): Promise<FaceFrameResponse> {
    const form = new FormData();
    form.set('challenge_id', fields.challenge_id);
    form.set('step_index', fields.step_index);
    form.set('step', fields.step);
    if (fields.frame_index !== undefined) form.set('frame_index', fields.frame_index);
    form.set('evidence', fields.evidence);
    form.set('frame', frame, `frame-${fields.step_index}-${fields.frame_index ?? '0'}.jpg`);
    return this.request('POST', SESSION_ROUTES.faceFrames(key), form);
  }

  /** `POST /session/methods/{selfie|liveness}/submit`. */
  submitFace(key: FaceMethodKey, challengeId: string): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.faceSubmit(key), { challenge_id: challengeId });
  }

  /** `POST /session/methods/two_step/totp`: a new authenticator secret (shown this once). */
  enrolTotp(): Promise<TotpEnrolment> {
    return this.request('POST', SESSION_ROUTES.twoStepTotp, {});
  }

  /** `POST /session/methods/two_step/sms/send`, to `phone` when setting SMS up. */
  sendTwoStepSms(phone?: string): Promise<CodeSentResponse> {
    return this.request('POST', SESSION_ROUTES.twoStepSms, phone === undefined ? {} : { phone });
  }

  /** `POST /session/methods/two_step/verify`. */
  verifyTwoStep(body: TwoStepVerifyRequest): Promise<TwoStepVerified> {
    return this.request('POST', SESSION_ROUTES.twoStepVerify, body);
  }

  /** `POST /session/methods/bank/account`: the account the two deposits go to (again, for new ones after an expiry). */
  submitBankAccount(body: BankAccountRequest): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.bankAccount, body);
  }

  /** `POST /session/methods/bank/verify`: the two deposits, in cents. */
  verifyBankDeposits(body: BankVerifyRequest): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.bankVerify, body);
  }

  /** `POST /session/methods/biometric_id/options`: a fresh passkey challenge and the ceremony's options. */
  passkeyOptions(): Promise<PasskeyOptions> {
    return this.request('POST', SESSION_ROUTES.passkeyOptions, {});
  }

  /** `POST /session/methods/biometric_id/verify`: the credential the browser returned, as JSON. */
  verifyPasskey(body: PasskeyVerifyRequest): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.passkeyVerify, body);
  }

  /** `POST /session/methods/video/challenge`: a random sequence of head moves and its nonce. */
  videoChallenge(): Promise<VideoChallenge> {
    return this.request('POST', SESSION_ROUTES.videoChallenge, {});
  }

  /** `POST /session/methods/video/frames` (multipart): one frame sampled from the recording. */
  uploadVideoFrame(fields: VideoFrameFields, frame: Blob): Promise<VideoUploadResponse> {
    const form = new FormData();
    form.set('challenge_id', fields.challenge_id);
    form.set('index', fields.index);
    form.set('t', fields.t);
    form.set('frame', frame, `frame-${fields.index}.jpg`);
    return this.request('POST', SESSION_ROUTES.videoFrames, form);
  }

  /** `POST /session/methods/video/recording` (multipart): the recording itself. */
  uploadVideoRecording(fields: VideoRecordingFields, video: Blob): Promise<VideoUploadResponse> {
    const form = new FormData();
    form.set('challenge_id', fields.challenge_id);
    form.set('duration_ms', fields.duration_ms);
    form.set('video', video, 'recording.webm');
    return this.request('POST', SESSION_ROUTES.videoRecording, form);
  }

  /** `POST /session/methods/video/submit`: uses the challenge up and queues the analysis. */
  submitVideo(challengeId: string): Promise<MethodResult> {
    return this.request('POST', SESSION_ROUTES.videoSubmit, { challenge_id: challengeId });
  }

  /** `POST /session/methods/voice/phrase`: a new phrase of digits to read aloud. */
  voicePhrase(): Promise<VoicePhrase> {
    return this.request('POST', SESSION_ROUTES.voicePhrase, {});
  }

  /** `POST /session/methods/voice/recording` (multipart): the phrase read aloud, as a 16-bit PCM WAV. */
  uploadVoice(phraseId: string, audio: Blob): Promise<MethodResult> {
    const form = new FormData();
    form.set('phrase_id', phraseId);
    form.set('audio', audio, 'voice.wav');
    return this.request('POST', SESSION_ROUTES.voiceRecording, form);
  }

  /**
   * `POST /session/methods/secure_card/submit` (multipart): what the device read from the card and,
   * when it read a number, the picture with that number blacked out.
   */
  submitSecureCard(fields: SecureCardSubmitFields, maskedImage: Blob | null): Promise<MethodResult> {
    const form = new FormData();
    form.set('reading', fields.reading);
    form.set('source', fields.source);
    if (fields.quality !== undefined) form.set('quality', fields.quality);
    if (maskedImage) form.set('image', maskedImage, maskedImage.type === 'image/png' ? 'card.png' : 'card.jpg');
    return this.request('POST', SESSION_ROUTES.secureCardSubmit, form);
  }

  /**
   * Live Video's signalling socket (`GET /session/methods/live_video/socket`, a WebSocket) and the
   * `hello` it must send first: a socket carries no headers, so the tokens travel in it.
   */
  liveVideoSocket(): { url: string; hello: { type: 'hello'; session_token: string; csrf_token: string } } {
    const url = new URL(this.baseUrl + SESSION_ROUTES.liveVideoSocket, (globalThis as { location?: { href: string } }).location?.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return { url: url.href, hello: { type: 'hello', session_token: this.sessionToken ?? '', csrf_token: this.csrfToken ?? '' } };
  }

  /** `POST /session/handoff`. */
  createHandoff(): Promise<HandoffResponse> {
    return this.request('POST', SESSION_ROUTES.handoff, {});
  }

  /** `POST /session/complete`. */
  complete(): Promise<CompleteResponse> {
    return this.request('POST', SESSION_ROUTES.complete, {});
  }

  /**
   * Reads `GET /session/events` until the stream ends or `signal` aborts, calling `onEvent` for
   * each event. Uses `fetch` rather than `EventSource` so the session header can be sent.
   */
  async follow(onEvent: (event: SessionStreamEvent) => void, signal: AbortSignal): Promise<void> {
    const response = await this.send('GET', SESSION_ROUTES.events, undefined, false, signal, 'text/event-stream');
    if (!response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let split: number;
      while ((split = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, split);
        buffer = buffer.slice(split).replace(/^\r?\n\r?\n/, '');
        const event = parseSseBlock(block);
        if (event) onEvent(event);
      }
    }
  }

  private remember(result: StartSessionResponse): void {
    this.sessionToken = result.session_token;
    this.csrfToken = result.session.csrf_token;
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, csrf = true, signal?: AbortSignal): Promise<T> {
    const response = await this.send(method, path, body, csrf, signal, 'application/json');
    if (response.status === 204) return undefined as T;
    try {
      return (await response.json()) as T;
    } catch (cause: unknown) {
      throw new ApiError(response.status, 'unknown_error', 'The server answered with an unreadable body.', {}, {}, { cause });
    }
  }

  private async send(method: 'GET' | 'POST', path: string, body: unknown, csrf: boolean, signal: AbortSignal | undefined, accept: string): Promise<Response> {
    const headers = new Headers({ Accept: accept });
    if (this.sessionToken) headers.set(SESSION_TOKEN_HEADER, this.sessionToken);
    if (method !== 'GET') {
      if (csrf && this.csrfToken) headers.set(CSRF_HEADER, this.csrfToken);
    }
    let payload: RequestInit['body'];
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.fetchImpl(this.baseUrl + path, {
        method,
        headers,
        body: payload ?? null,
        // Cookies only on our own origin; across origins the session header is used (contract).
        credentials: 'same-origin',
        signal: signal ?? null,
      });
    } catch (cause: unknown) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, 'network_error', 'The service could not be reached.', {}, {}, { cause });
    }
    if (!response.ok) throw await toApiError(response);
    return response;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // Not JSON (a proxy's HTML page, say): fall through to the generic error below.
  }
  if (isRecord(parsed) && typeof parsed.error_type === 'string') {
    const details = isRecord(parsed.details) ? parsed.details : {};
    const errors = isRecord(parsed.errors) ? (parsed.errors as Record<string, string[]>) : {};
    return new ApiError(
      response.status,
      parsed.error_type as SessionErrorType,
      typeof parsed.error_message === 'string' ? parsed.error_message : response.statusText,
      {
        ...(typeof details.attempts_left === 'number' ? { attempts_left: details.attempts_left } : {}),
        ...(typeof details.retry_after_seconds === 'number' ? { retry_after_seconds: details.retry_after_seconds } : {}),
      },
      errors,
    );
  }
  return new ApiError(response.status, 'unknown_error', response.statusText || `HTTP ${response.status}`);
}

/** Parses one SSE block (`event:` and `data:` lines); comments and unknown events give null. */
export function parseSseBlock(block: string): SessionStreamEvent | null {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0 || (name !== 'session' && name !== 'handoff')) return null;
  try {
    const parsed: unknown = JSON.parse(data.join('\n'));
    return name === 'session' ? { type: 'session', data: parsed as SessionView } : { type: 'handoff', data: parsed as HandoffProgress };
  } catch {
    return null;
  }
}
