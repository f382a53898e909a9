/** The session API's abuse limits: face frames have their own budget, apart from other uploads. */
import { describe, expect, it } from 'vitest';
import { SessionApiError } from '../../../server/errors.js';
import { SESSION_FRAMES_PER_USER, SESSION_UPLOADS_PER_USER, SessionLimits } from '../../../server/session/limits.js';

async function refusal(p: Promise<void>): Promise<SessionApiError> {
  try {
    await p;
  } catch (error: unknown) {
    if (error instanceof SessionApiError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('session limits', () => {
  it('counts face frames apart from uploads, each with its own budget per user, then answers 429 with the wait', async () => {
    const limits = new SessionLimits();
    for (let i = 0; i < SESSION_UPLOADS_PER_USER; i++) await limits.upload(1);
    const upload = await refusal(limits.upload(1));
    expect([upload.statusCode, upload.errorType]).toEqual([429, 'api_rate_limit_error']);
    // Uploads spent: frames still go through, up to their own budget.
    for (let i = 0; i < SESSION_FRAMES_PER_USER; i++) await limits.frame(1);
    const frame = await refusal(limits.frame(1));
    expect([frame.statusCode, frame.errorType]).toEqual([429, 'api_rate_limit_error']);
    // Another user is not affected.
    await limits.frame(2);
    await limits.upload(2);
  });
});
