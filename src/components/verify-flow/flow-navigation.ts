import { msg } from '@lit/localize';
import type { MethodResult, MethodView, SessionView } from '../../api/contract.js';
import type { SavedProgress } from '../../controllers/progress-store.js';
import { emit, VerifyError } from '../../events/events.js';
import { fromApiError } from '../../internal/errors.js';
import { needsConsent, stepFor } from '../../steps/registry.js';
import type { FlowSessionController } from './flow-session-controller.js';
import { isMethodDone } from './flow-phase.js';
import { MethodStarts } from './method-starts.js';

/** What navigation needs of the flow: its session, the step on screen and its screens. */
export interface NavigatedFlow {
  readonly session: FlowSessionController;
  /** Index of the step on screen. */
  stepIndex(): number;
  /** Puts step `index` on screen, behind its consent when `consent` (index and screen change together). */
  showStep(index: number, consent: boolean): void;
  /** The step `method` was shown (its refusal is no longer shown apart). */
  shown(method: MethodView): void;
  /** Something sent may be being checked now: follow its analysis. */
  follow(): void;
  /** Focuses `selector` once the next render is done. */
  focusSoon(selector: string): Promise<void>;
  fail(error: VerifyError): void;
  finish(): Promise<void>;
}

/** Tells the page a flow error (`verify-error`): what the flow fails with, a step reports or a retry meets. */
export function emitError(host: HTMLElement, error: VerifyError): void {
  emit(host, 'verify-error', { code: error.code, message: error.message, retryable: error.retryable });
}

/** Where a session opens: the step a reload left when still open, else the first open one; -1 when every step is done. */
export function entryIndex(session: SessionView, saved: SavedProgress | null): number {
  const savedIndex = saved ? session.methods.findIndex((m) => m.key === saved.method && !isMethodDone(m)) : -1;
  return savedIndex >= 0 ? savedIndex : session.methods.findIndex((m) => !isMethodDone(m));
}

/**
 * Moving between the flow's steps (issue 19): loads a step's module before it shows, puts a
 * biometric step behind its consent, tells the server a step was opened, announces the change
 * (`verify-step-change`), goes on after a step is done and puts a refused step back for a retry.
 */
export class FlowNavigation {
  private readonly starts: MethodStarts;
  private lastAnnounced = -1;

  constructor(
    /** The element events are sent from. */
    private readonly host: HTMLElement,
    private readonly flow: NavigatedFlow,
  ) {
    this.starts = new MethodStarts((error) => flow.fail(error));
  }

  /** Shows step `index` (0-based); out of range does nothing. */
  async goTo(index: number): Promise<void> {
    const state = this.flow.session;
    const methods = state.view?.methods ?? [];
    if (index < 0 || index >= methods.length) return;
    const previous = state.view?.methods[this.flow.stepIndex()]?.key ?? null;
    const method = methods[index]!;
    try {
      await stepFor(method.key)?.load();
    } catch (error: unknown) {
      this.flow.fail(new VerifyError('network', msg('Part of the page could not be loaded.', { id: 'flow.chunk-failed' }), 'error', true, { cause: error }));
      return;
    }
    // A biometric step waits for consent to the current text; its routes refuse without it too.
    const consent = needsConsent(method.key) && !isMethodDone(method) && !state.view?.consent.given;
    if (consent) await import('../../steps/consent/verify-consent.js');
    this.flow.showStep(index, consent);
    this.flow.shown(method);
    state.saveProgress(method);
    if (!consent) this.starts.record(state.client, method);
    if (this.lastAnnounced !== index) {
      this.lastAnnounced = index;
      emit(this.host, 'verify-step-change', { index, total: methods.length, method: method.key, previous: previous === method.key ? null : previous });
    }
    await this.flow.focusSoon('#step-title');
  }

  /** A step reported its result: on to the next open step (after it, else from the start), or finish. */
  async afterStep(result: MethodResult): Promise<void> {
    const session = this.flow.session.applyResult(result);
    if (!session) return;
    this.flow.follow();
    const { state } = result;
    if (state === 'ready_to_complete' || state === 'completed' || session.methods.every(isMethodDone)) {
      await this.flow.finish();
      return;
    }
    const index = this.flow.stepIndex();
    const next = session.methods.findIndex((m, i) => i > index && !isMethodDone(m));
    const wrap = next >= 0 ? next : session.methods.findIndex((m) => !isMethodDone(m));
    if (wrap >= 0) await this.goTo(wrap);
  }

  /** Puts a rejected method back to `assigned` (when the server allows a retry); `thenShow`: and goes to it. */
  async retry(method: MethodView, thenShow = false): Promise<void> {
    const state = this.flow.session;
    if (!state.client || method.key === 'other') return;
    try {
      this.starts.record(state.client, await state.retry(method.key));
    } catch (error: unknown) {
      emitError(this.host, fromApiError(error));
    }
    if (thenShow) await this.goTo(state.view?.methods.findIndex((m) => m.key === method.key) ?? -1);
  }
}
