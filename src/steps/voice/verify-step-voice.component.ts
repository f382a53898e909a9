import { msg, str } from '@lit/localize';
import { css, html, nothing } from 'lit';
import type { MethodViewOf, VoicePhrase } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { localize, messageTable } from '../../internal/message-table.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepElement } from '../step-element.js';
import { microphoneError, startRecording, type MicrophoneError, type Recording } from './record-wav.js';
import { states } from '../../internal/lit-states.js';

type VoiceMethod = MethodViewOf<'voice'>;

/** Why the microphone cannot record, in the user's words. */
export const MICROPHONE_ERRORS = messageTable<MicrophoneError>('voice.mic', {
  denied: 'Microphone access is blocked. Allow the microphone for this page in the browser settings (the icon next to the address) and try again.',
  'not-found': 'No microphone was found on this device.',
  'in-use': 'The microphone is in use by another app or tab. Close it and try again.',
  insecure: 'The microphone only works on a secure (https) page.',
  unsupported: 'This browser cannot record sound. Try another browser or device.',
});

/** `idle`: no phrase yet; `phrase`: shown, not recording; `recording`; `sending`: converting and uploading. */
type Phase = 'idle' | 'phrase' | 'recording' | 'sending';

/**
 * Voice: the server draws a phrase of digits; the user reads it aloud while the microphone
 * records; the recording goes to the server, which checks it off the request (speech, length,
 * level, the digits heard). The step never judges the recording itself.
 */
export class VerifyStepVoice extends StepElement<VoiceMethod> {
  static override styles = [
    sharedStyles,
    css`
      /* A number reads left to right in every language, Arabic too. */
      .digits {
        direction: ltr;
        display: flex;
        gap: 0.6em;
        justify-content: center;
        font-size: 2rem;
        font-weight: 700;
        letter-spacing: 0.05em;
        margin: 1rem 0;
        font-variant-numeric: tabular-nums;
      }
      .recording {
        color: var(--verify-error-color, #b00020);
        font-weight: 600;
      }
    `,
  ];
  static override properties = {
    ...StepElement.properties,
    ...states('phase', 'phrase', 'seconds'),
  };

  declare private phase: Phase;
  declare private phrase: VoicePhrase | null;
  declare private seconds: number;
  private readonly action = this.submitting((error) => this.explain(error), 3);
  private recording: Recording | null = null;
  private timer: number | undefined;

  constructor() {
    super();
    this.phase = 'idle';
    this.phrase = null;
    this.seconds = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.method) this.action.attemptsLeft = this.method.needs.attempts_left;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopTimer();
    this.recording?.cancel();
    this.recording = null;
  }

  private async askPhrase(): Promise<void> {
    await this.action.run(async () => {
      this.phrase = await this.client.voicePhrase();
      this.action.attemptsLeft = this.phrase.attempts_left;
      this.phase = 'phrase';
      await this.focusOn('#voice-record');
    });
  }

  private async record(): Promise<void> {
    this.action.error = '';
    try {
      this.recording = await startRecording();
    } catch (error: unknown) {
      this.action.error = this.micMessage(microphoneError(error));
      return;
    }
    this.phase = 'recording';
    this.seconds = 0;
    const max = this.phrase?.max_seconds ?? 20;
    this.timer = window.setInterval(() => {
      this.seconds += 1;
      // The server takes no more: stop and send what was read.
      if (this.seconds >= max) void this.send();
    }, 1000);
    await this.focusOn('#voice-stop');
  }

  private async send(): Promise<void> {
    const recording = this.recording;
    const phrase = this.phrase;
    if (!recording || !phrase || this.phase !== 'recording') return;
    this.stopTimer();
    this.recording = null;
    this.phase = 'sending';
    const outcome = await this.action.run(async () => {
      const audio = await recording.stop();
      this.complete(await this.client.uploadVoice(phrase.phrase_id, audio));
    });
    if (outcome !== 'failed') return;
    this.phase = this.phrase ? 'phrase' : 'idle';
    await this.focusOn(this.phrase ? '#voice-record' : '#voice-phrase');
  }

  private stopTimer(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private async focusOn(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(selector)?.focus();
  }

  private micMessage(code: MicrophoneError): string {
    return localize(MICROPHONE_ERRORS, code);
  }

  private explain(error: unknown): string | undefined {
    if (error instanceof ApiError) {
      switch (error.error_type) {
        case 'session_challenge_expired':
          this.phrase = null;
          return msg('This phrase has expired. Ask for a new one.', { id: 'voice.expired' });
        case 'session_attempts_exceeded':
          this.action.ranOut(error);
          this.phrase = null;
          return msg('No more phrases can be given for this step.', { id: 'voice.exceeded' });
        case 'session_upload_invalid':
        case 'session_upload_too_large':
          return msg('The recording could not be used. Record the phrase again.', { id: 'voice.invalid' });
        default:
          return undefined;
      }
    }
    if (error instanceof DOMException || error instanceof TypeError) {
      return msg('The recording could not be read by this browser. Record the phrase again.', { id: 'voice.decode' });
    }
    return undefined;
  }

  protected override render() {
    const phrase = this.phrase;
    return html`
      <p>
        ${msg('You will see a few digits. Read them aloud, one by one, in a quiet place. Only your reading of the digits is checked, not who you are.', {
          id: 'voice.intro',
        })}
      </p>
      ${phrase ? this.renderPhrase(phrase) : nothing}
      <p id="step-error" class="error" role="alert">${this.action.error}</p>
      <div class="actions">${this.renderAction()}</div>
    `;
  }

  private renderPhrase(phrase: VoicePhrase) {
    const digits = [...phrase.digits];
    return html`
      <p id="voice-read">${msg('Read these digits aloud:', { id: 'voice.read' })}</p>
      <div class="digits" role="group" aria-labelledby="voice-read" aria-describedby="voice-digits-text">
        ${digits.map((d) => html`<span aria-hidden="true">${d}</span>`)}
        <span id="voice-digits-text" class="visually-hidden">${digits.join(' ')}</span>
      </div>
      ${
        this.phase === 'recording' ? html`<p class="recording" role="status">${msg(str`Recording… ${this.seconds} s`, { id: 'voice.recording' })}</p>` : nothing
      }
      ${this.phase === 'sending' ? html`<p role="status">${msg('Sending your recording…', { id: 'voice.sending' })}</p>` : nothing}
    `;
  }

  private renderAction() {
    switch (this.phase) {
      case 'recording':
        return html`<button type="button" id="voice-stop" @click=${() => void this.send()}>${msg('Stop and send', { id: 'voice.stop' })}</button>`;
      case 'sending':
        return html`<button type="button" disabled>${msg('Stop and send', { id: 'voice.stop' })}</button>`;
      case 'phrase':
        return this.phrase
          ? html`<button type="button" id="voice-record" aria-describedby="step-error" @click=${() => void this.record()}>
              ${msg('Start recording', { id: 'voice.record' })}
            </button>`
          : this.renderAsk();
      default:
        return this.renderAsk();
    }
  }

  private renderAsk() {
    const left = this.action.attemptsLeft;
    return html`
      <button type="button" id="voice-phrase" aria-describedby="step-error voice-left" ?disabled=${left === 0} @click=${() => void this.askPhrase()}>
        ${msg('Show my phrase', { id: 'voice.ask' })}
      </button>
      <p id="voice-left" class="muted">${pluralMsg(left, 'voice.left', { one: str`${left} phrase left.`, other: str`${left} phrases left.` })}</p>
    `;
  }
}
