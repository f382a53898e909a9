import { describe, expect, it } from 'vitest';
import { buildEventPayload, describeDuration, SPEC_VERSION } from '../../../server/domain/event-payload.js';

const user = {
  id: 7,
  uuid: '0b7e7c2a-2f4c-4a3a-9d6e-1f1f1f1f1f1f',
  email: 'ann@example.com',
  status: 'Active',
  order_id: null,
  reference_id: 'cust-7',
  ip: '203.0.113.9',
  ip_country: 'GB',
  last_activity: '2026-02-01T10:00:00.000Z',
};

describe('buildEventPayload', () => {
  it('has every field of spec 6.3', () => {
    const p = buildEventPayload({
      id: '5d2f2b8a-1c1e-4a2b-9a55-3f5a1b2c3d4e',
      type: 'verification.completed',
      occurredAt: new Date('2026-02-01T10:05:00Z'),
      user,
      methodId: 1,
      verifications: [
        { method_id: 1, status: 2, attributes: { email: 'ann@example.com' }, started_at: '2026-02-01T10:00:00Z', completed_at: '2026-02-01T10:02:05Z' },
        { method_id: 3, status: 0, attributes: {}, started_at: null, completed_at: null },
      ],
    });
    expect(p).toEqual({
      id: '5d2f2b8a-1c1e-4a2b-9a55-3f5a1b2c3d4e',
      type: 'verification.completed',
      subject: 'users/7/verifications/email',
      spec_version: SPEC_VERSION,
      occurred_at: '2026-02-01T10:05:00.000+00:00',
      resource_id: 7,
      relationships: { user_id: 7, user_uuid: user.uuid },
      data: {
        verification_id: 1,
        verification_name: 'Email',
        email: 'ann@example.com',
        user_status: 'Active',
        order_id: null,
        ip: '203.0.113.9',
        ip_country: 'GB',
        reference_id: 'cust-7',
        last_activity: '2026-02-01T10:00:00.000Z',
        verifications: [
          {
            id: 1,
            name: 'Email',
            status: { value: 2, friendly: 'Complete' },
            attributes: { email: 'ann@example.com' },
            start_time: '2026-02-01 10:00:00',
            completion_time: '2 minutes 5 seconds',
            completed_at: '2026-02-01 10:02',
          },
          { id: 3, name: 'Document / ID', status: { value: 0, friendly: 'Assigned' }, attributes: {} },
        ],
      },
    });
    expect(SPEC_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('carries previous_status on user.status.changed', () => {
    const p = buildEventPayload({ id: 'x', type: 'user.status.changed', occurredAt: new Date(), user, verifications: [], previousStatus: 'Unconfirmed' });
    expect(p.data.previous_status).toBe('Unconfirmed');
    expect(p.data.user_status).toBe('Active');
    expect(p.subject).toBe('users/7');
  });
});

describe('describeDuration', () => {
  it('writes durations as text', () => {
    expect(describeDuration(0)).toBe('0 seconds');
    expect(describeDuration(61_000)).toBe('1 minute 1 second');
    expect(describeDuration(3 * 86_400_000 + 3_600_000)).toBe('3 days 1 hour');
  });
});
