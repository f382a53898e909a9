/**
 * One deployment's answers to every admin route the dashboard's views read, as the server words
 * them: a few users, one in review with a flagged document, a DEA number and a possible duplicate;
 * charts with data; a failed webhook delivery; an outbox and an audit log. For tests that walk the
 * whole dashboard (test/src/admin/dashboard-views.test.ts).
 */
import { TEMPLATES, USER, type Call } from './fake-api.js';

/** A small document-coloured image (a real JPEG from a canvas), so viewers and thumbnails have pixels. */
export function sampleImage(label: string, width = 320, height = 200): string {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d')!;
  g.fillStyle = '#dfe8f1';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#8aa1b8';
  g.fillRect(16, 40, width / 3, height - 64);
  g.fillStyle = '#1d2733';
  g.font = '16px sans-serif';
  g.fillText(label, width / 3 + 32, 60);
  g.fillText('P<GBRLOVELACE<<ADA<<<<<<<<<<', 16, height - 12);
  return canvas.toDataURL('image/jpeg', 0.8);
}

const DAYS = Array.from({ length: 30 }, (_, i) => ({
  date: new Date(Date.UTC(2026, 3, 11 + i)).toISOString().slice(0, 10),
  approved: i % 3,
  rejected: i % 7 === 0 ? 1 : 0,
  review: i % 5 === 0 ? 2 : 0,
}));

export const OVERVIEW = {
  year: 2026,
  users_per_month: { January: 1, February: 4, March: 6, April: 3, May: 2, June: 0, July: 0, August: 0, September: 0, October: 0, November: 0, December: 0 },
  users_per_status: { total: 16, new: 2, banned: 1, unconfirmed: 3 },
  users_by_status: { Unconfirmed: 4, Review: 2, Verified: 9, Banned: 1 },
  days: 30,
  decisions_per_day: DAYS,
  pass_rate_sample: 1000,
  check_pass_rates: [
    { check: 'mrz_check_digits', passed: 12, flagged: 0, failed: 1, rate: 12 / 13 },
    { check: 'photoshopped', passed: 11, flagged: 2, failed: 0, rate: 11 / 13 },
    { check: 'face_match', passed: 8, flagged: 2, failed: 1, rate: 8 / 11 },
  ],
  latest_registrations: [],
};

const REVIEWER = 'reviewer@example.com';

export function userDetail(image: string) {
  return {
    data: {
      user: { ...USER, status: 'Review', verifications: [{ id: 3, name: 'Document / ID', status: { value: 4, friendly: 'In review' } }] },
      reference_id: 'cust-42',
      template: { id: 2, name: 'tmpl_id_selfie', label: 'ID and selfie' },
      ip_country: 'GB',
      consent: { decision: 'given', at: '2026-05-10T11:58:00.000Z', text_version: 'default-1', ip_country: 'GB' },
      enrolments: [],
      verifications: [
        {
          method_id: 3,
          key: 'document_id',
          name: 'Document / ID',
          status: { value: 4, key: 'complete_in_review', friendly: 'Complete In Review' },
          started_at: '2026-05-10T11:59:00.000Z',
          completed_at: '2026-05-10T12:00:00.000Z',
          remarks: 'photoshopped',
          checks: [
            { name: 'mrz_check_digits', outcome: 'passed', reason: null, value: null },
            { name: 'photoshopped', outcome: 'flagged', reason: 'The image was edited (editing software, or a pasted region).', value: null },
            { name: 'name_match', outcome: 'flagged', reason: "The name on the document does not match the user's name.", value: null },
            { name: 'required_minimum_age', outcome: 'passed', reason: null, value: 36 },
          ],
          results: { mrz_data: { valid: true, document_number: '123456789' }, photoshopped: true },
        },
        {
          method_id: 22,
          key: 'selfie',
          name: 'Selfie',
          status: { value: 4, key: 'complete_in_review', friendly: 'Complete In Review' },
          started_at: '2026-05-10T12:00:30.000Z',
          completed_at: '2026-05-10T12:01:00.000Z',
          remarks: 'FACE_MATCH_UNCERTAIN',
          checks: [{ name: 'face_match', outcome: 'flagged', reason: 'The face match is uncertain: a person should look.', value: 0.41 }],
          results: { similarity: 0.41 },
        },
      ],
      workflows: [],
      document_jobs: [
        {
          doc_id: 'doc_1',
          status: 'Success',
          reason: null,
          source: 'session',
          created_at: '2026-05-10T12:00:00.000Z',
          completed_at: '2026-05-10T12:00:05.000Z',
          document_data: { mrz_data: { valid: true } },
          image_url: image,
        },
      ],
      images: [
        {
          id: 'up_1',
          method: 'document_id',
          document_type: 'passport',
          side: 'front',
          step: null,
          media_type: 'image/jpeg',
          url: image,
          created_at: '2026-05-10T12:00:00Z',
        },
      ],
    },
  };
}

export function caseDetail(image: string, portrait: string) {
  return {
    data: {
      documents: [
        {
          doc_id: 'doc_1',
          side: 'front',
          doc_type: 'passport',
          status: 'Success',
          reason: null,
          created_at: '2026-05-10T12:00:00.000Z',
          image_url: image,
          portrait_url: portrait,
          fields: [
            { name: 'Full Name', value: 'ADA KING', confidence: 91, record: 'Ada Lovelace', agrees: false },
            { name: 'Date of Birth', value: '1990-04-01', confidence: 95, record: '1990-04-01', agrees: true },
            { name: 'Document Number', value: '123456789', confidence: 97, record: null, agrees: null },
          ],
        },
      ],
      faces: [{ key: 'selfie', name: 'Selfie', similarity: 0.412, decision: 'review', captures: [{ kind: 'selfie', url: portrait }] }],
      notes: [{ id: 1, author: REVIEWER, body: 'Called the customer: the name changed at marriage.', created_at: '2026-05-10T12:05:00.000Z' }],
      dea: {
        dea_number: 'AB1234563',
        checks: [
          { name: 'dea_format', outcome: 'passed', reason: null, value: null },
          { name: 'dea_check_digit', outcome: 'passed', reason: null, value: null },
          { name: 'dea_registrant_initial', outcome: 'flagged', reason: "The number's initial B is not that of the last name on record (L).", value: null },
          { name: 'dea_registry', outcome: 'not_run', reason: 'Not checked against a registry: none is configured (VERITY_DEA_REGISTRY_URL).', value: null },
        ],
      },
      timeline: [
        {
          at: '2026-05-10T12:06:00.000Z',
          kind: 'decision',
          what: 'verification.complete',
          method: 'Document / ID',
          by: REVIEWER,
          detail: 'complete_in_review → complete: “Genuine.”',
        },
        {
          at: '2026-05-10T12:01:00.000Z',
          kind: 'delivery',
          what: 'verification.pending',
          method: null,
          by: 'https://hooks.example.com/in',
          detail: 'succeeded, 1 attempt, HTTP 200',
        },
        { at: '2026-05-10T12:00:00.000Z', kind: 'event', what: 'verification.pending', method: 'Document / ID', by: null, detail: null },
      ],
      duplicates: [
        {
          kind: 'face',
          verification: 'Selfie',
          other: { id: 15, label: 'alan@example.com' },
          other_verification: 'Liveness',
          score: 0.834,
          found_by: 'other',
          detected_at: '2026-05-11T08:00:00.000Z',
        },
      ],
    },
  };
}

const REVIEW_ROWS = [
  {
    user: { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', status: 'Review', reference_id: 'cust-42' },
    template: { name: 'tmpl_id_selfie', label: 'ID and selfie' },
    entered_review_at: '2026-05-10T12:00:00.000Z',
    waiting: [],
    reasons: [
      'Document / ID: The image was edited (editing software, or a pasted region).',
      "Document / ID: The name on the document does not match the user's name.",
      'Selfie: The face match is uncertain: a person should look.',
      "DEA number: The number's initial B is not that of the last name on record (L).",
    ],
    flags: ['photoshopped', 'name_match', 'face_match', 'dea_registrant_initial'],
  },
  {
    user: { id: 8, email: 'grace.brewster.murray.hopper@navy.example.com', first_name: null, last_name: null, status: 'Review', reference_id: null },
    template: null,
    entered_review_at: '2026-05-11T09:30:00.000Z',
    waiting: [],
    reasons: ['Document / ID: A driving_licence, not among passport, id_card.'],
    flags: ['required_document_type'],
  },
];

const MESSAGES = Array.from({ length: 3 }, (_, i) => ({
  id: `m${i}`,
  channel: i === 2 ? 'sms' : 'email',
  to: i === 2 ? '+14155550123' : `user${i}@example.com`,
  subject: i === 2 ? '' : 'Your verification code',
  text: `Your code is 12345${i}.`,
  created_at: '2026-05-10T12:00:00Z',
}));

/** Every route the views read, answering as the server would. */
export function dashboardRoutes(): Record<string, unknown> {
  const image = sampleImage('PASSPORT');
  const portrait = sampleImage('portrait', 120, 150);
  const page = (data: unknown[], per_page = 20) => ({ data, meta: { page: 1, per_page, total: data.length, last_page: 1 } });
  return {
    'GET /admin/api/session': { admin: { id: 1, email: REVIEWER } },
    'GET /admin/api/overview': OVERVIEW,
    'GET /admin/api/notices': {
      data: [
        {
          id: 3,
          kind: 'webhook_endpoint_disabled',
          message: 'Webhook endpoint https://x.example/in was disabled: failing for 5 days.',
          created_at: '2026-05-10T12:00:00Z',
          read_at: null,
        },
      ],
    },
    'GET /admin/api/users': page([
      { ...USER, status: 'Review' },
      {
        ...USER,
        id: 8,
        first_name: '',
        last_name: '',
        username: 'grace',
        email: 'grace.brewster.murray.hopper@navy.example.com',
        status: 'Verified',
        verifications: [],
      },
    ]),
    'GET /admin/api/templates': TEMPLATES,
    'GET /admin/api/users/7': userDetail(image),
    'GET /admin/api/users/7/case': caseDetail(image, portrait),
    'GET /admin/api/reviews': page(REVIEW_ROWS),
    'GET /admin/api/live-video/4/context': { data: { user_id: 4, name: 'Ada Lovelace', documents: [{ url: image }], faces: [{ url: portrait }], stills: [] } },
    'GET /admin/api/settings': {
      data: {
        account_name: 'Acme Bank',
        default_completion_url: 'https://acme.example/done',
        custom_domain: null,
        allowed_origins: ['https://acme.example'],
        link_lifetime_hours: 72,
        handoff_enabled: true,
        two_step_sms_allowed: false,
        bank_deposit_ttl_days: 10,
        liveness_move_seconds: 30,
        default_locale: null,
        allowed_countries: ['GB', 'EU'],
        branding: { logo_url: null, primary_color: '#112233', background_color: null, text_color: null },
        consent: { text: null, privacy_url: 'https://acme.example/privacy', text_version: 'default-1' },
        knowledge: {
          ask: 1,
          pass_threshold: 1,
          max_attempts: 3,
          questions: [{ id: 'q1', prompt: 'Which branch opened your account?', kind: 'text', choices: null, answers_stored: 2 }],
        },
        signup: { enabled: true, template: 'tmpl_email', ask_name: true, ask_phone: false },
        retention: { images_days: 90, unconfirmed_signup_days: 7 },
        duplicates: { mode: 'review' },
      },
    },
    'GET /admin/api/oidc-providers': {
      data: [
        {
          id: 1,
          purpose: 'social',
          name: 'Google',
          issuer: 'https://accounts.google.com',
          client_id: 'abc.apps.googleusercontent.com',
          scopes: 'openid email',
          updated_at: '2026-05-10T12:00:00Z',
        },
      ],
      redirect_uri: 'https://verify.example.com/oidc/callback',
    },
    'GET /admin/api/api-keys': page([
      { id: 3, name: 'Backend', prefix: 'vk_live_abc123', created_at: '2026-05-01', last_used_at: '2026-05-10T12:00:00Z', revoked_at: null },
    ]),
    'GET /admin/api/webhooks/endpoints': {
      data: [
        { id: 1, url: 'https://hooks.example.com/in', events: ['verification.completed'], enabled: true, disabled_reason: null, rotation_in_progress: false },
      ],
    },
    'GET /admin/api/webhooks/deliveries': {
      data: [
        {
          id: 11,
          event_type: 'verification.completed',
          endpoint_url: 'https://hooks.example.com/in',
          state: 'failed',
          attempts: 8,
          last_status: 500,
          created_at: '2026-05-01',
          retryable: true,
          test: false,
        },
        {
          id: 12,
          event_type: 'verification.pending',
          endpoint_url: 'https://hooks.example.com/in',
          state: 'succeeded',
          attempts: 1,
          last_status: 200,
          created_at: '2026-05-10',
          retryable: false,
          test: false,
        },
      ],
      total: 2,
      page: 1,
      per_page: 20,
    },
    'GET /admin/api/outbox': page(MESSAGES, 10),
    'GET /admin/api/audit': page([
      {
        id: 5,
        admin_email: REVIEWER,
        action: 'verification.approve',
        target_type: 'user',
        target_id: '7',
        details: { method: 'document_id', reason: 'Genuine.' },
        created_at: '2026-05-10T12:06:00Z',
      },
      {
        id: 4,
        admin_email: REVIEWER,
        action: 'settings.update',
        target_type: 'settings',
        target_id: null,
        details: { keys: ['duplicates'] },
        created_at: '2026-05-09T08:00:00Z',
      },
    ]),
    'GET /admin/api/admins': {
      data: [
        { id: 1, email: REVIEWER, created_at: '2026-05-01', totp: true, me: true },
        { id: 2, email: 'root@example.com', created_at: '2026-04-01', totp: false, me: false },
      ],
      meta: { page: 1, per_page: 100, total: 2, last_page: 1 },
    },
  };
}

/** Signed out: the session route refuses, as the server does. */
export const SIGNED_OUT: Record<string, unknown> = {
  'GET /admin/api/session': () => ({ status: 401, body: { error_type: 'api_authentication_error', error_message: 'Unauthenticated.' } }),
};

export type { Call };
