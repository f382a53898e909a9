import type { MethodView } from '../../api/contract.js';
import type { SessionClient } from '../../api/session-client.js';
import type { VerifyError } from '../../events/events.js';
import { fromApiError } from '../../internal/errors.js';
import { isMethodDone } from './flow-phase.js';

/**
 * Tells the server a step was opened (its `start_time`), once per method and page. A failure is
 * not the user's problem (the submit reports real ones) except an expired session.
 */
export class MethodStarts {
  private readonly started = new Set<string>();

  constructor(private readonly onExpired: (error: VerifyError) => void) {}

  record(client: SessionClient | null, method: MethodView): void {
    if (!client || method.key === 'other' || isMethodDone(method) || method.status === 'rejected' || this.started.has(method.key)) return;
    this.started.add(method.key);
    client.startMethod(method.key).catch((error: unknown) => {
      this.started.delete(method.key);
      const mapped = fromApiError(error);
      if (mapped.code === 'session_expired') this.onExpired(mapped);
    });
  }
}
