import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../src/admin/components/admin-user-page.js';
import type { AdminUserPage } from '../../../src/admin/components/admin-user-page.js';
import type { AdminConfirm } from '../../../src/admin/components/admin-confirm.js';
import { $, $$, fakeApi, TEMPLATES, until, USER } from './fake-api.js';

const DETAIL = {
  data: {
    user: USER,
    reference_id: 'ref-1',
    template: { id: 1, name: 'tmpl_email', label: 'Email only' },
    ip_country: 'FR',
    consent: { decision: 'given', at: '2026-05-10T11:58:00.000Z', text_version: 'default-1', ip_country: 'FR' },
    enrolments: [] as unknown[],
    verifications: [
      {
        method_id: 1,
        key: 'email',
        name: 'Email',
        status: { value: 1, key: 'processing', friendly: 'Processing' },
        started_at: null,
        completed_at: null,
        remarks: null,
        checks: [],
        results: {},
      },
      {
        method_id: 3,
        key: 'document_id',
        name: 'Document / ID',
        status: { value: 4, key: 'complete_in_review', friendly: 'Complete In Review' },
        started_at: null,
        completed_at: null,
        remarks: 'blurry',
        checks: [
          { name: 'mrz_check_digits', outcome: 'passed', reason: null, value: null },
          { name: 'photoshopped', outcome: 'flagged', reason: 'The image was edited.', value: null },
          { name: 'face_match', outcome: 'failed', reason: 'The face does not match.', value: 0.123 },
        ],
        results: { mrz_data: { valid: true } },
      },
    ],
    workflows: [],
    document_jobs: [
      {
        doc_id: 'doc_1',
        status: 'Failed',
        reason: 'MRZ check digits fail',
        source: 'session',
        created_at: 't',
        completed_at: 't',
        document_data: { mrz_data: { valid: false } },
        image_url: '/admin/api/images/doc%3Adoc_1?expires=1&sig=abc',
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
        url: '/admin/api/images/up_1?expires=1&sig=abc',
        created_at: '2026-05-10T12:00:00Z',
      },
    ],
  },
};

async function userPage(detail: typeof DETAIL = DETAIL) {
  const fake = fakeApi({
    'GET /admin/api/users/7': detail,
    'GET /admin/api/templates': TEMPLATES,
    'POST /admin/api/users/7/verifications': { data: USER },
    'PATCH /admin/api/users/7': { data: USER },
    'DELETE /admin/api/users/7': { success: true },
    'DELETE /admin/api/users/7/enrolments/two_step': { data: [] },
    'GET /admin/api/users/7/case': { data: { documents: [], faces: [], notes: [], timeline: [], duplicates: [] } },
  });
  const el = await fixture<AdminUserPage>(html`<admin-user-page .api=${fake.api} user-id="7"></admin-user-page>`);
  await until(() => $$(el, 'table.verifications > tbody > tr').length === 2, 'verifications');
  return { el, ...fake };
}

function button(el: Element, label: string): HTMLButtonElement {
  const b = $$<HTMLButtonElement>(el, 'button').find((x) => x.getAttribute('aria-label') === label || x.textContent?.trim() === label);
  if (!b) throw new Error(`no button ${label}`);
  return b;
}

async function answer(el: Element, ok: boolean): Promise<void> {
  const dialog = $<AdminConfirm>(el, 'admin-confirm')!;
  await until(() => dialog.shadowRoot!.querySelector('dialog')!.open, 'dialog open');
  dialog.shadowRoot!.querySelector<HTMLButtonElement>(ok ? 'button.confirm' : 'button.cancel')!.click();
}

describe('<admin-user-page>', () => {
  it('shows the consent to biometric steps: when, which text version, from which country', async () => {
    const { el } = await userPage();
    const consent = $(el, 'dd.consent')!.textContent!.replace(/\s+/g, ' ').trim();
    expect(consent).to.equal('Given on 2026-05-10 11:58:00 UTC, text default-1, from FR');
  });

  it('shows the user’s second factor from Two-Step Authentication, or that it is off', async () => {
    const off = await userPage();
    expect($(off.el, 'dd.two-factor')!.textContent!.trim()).to.equal('Off');
    const user = { ...USER, two_factor_options: { method: 'totp', enabled_at: '2026-05-10 12:03:00' }, two_factor_phone: null };
    const on = await userPage({ data: { ...DETAIL.data, user } });
    expect($(on.el, 'dd.two-factor')!.textContent!.trim()).to.equal('On: authenticator app since 2026-05-10 12:03:00 UTC');
    await expect(on.el).to.be.accessible();
  });

  it('lists enrolled factors and removes one only with a reason and a confirmation', async () => {
    const none = await userPage();
    expect($(none.el, 'ul.enrolments')).to.equal(null);
    const enrolments = [
      { key: 'two_step', details: { method: 'totp', enabled_at: '2026-05-10T12:03:00.000Z', phone_ending: null, recovery_codes_left: 9 } },
      {
        key: 'biometric_id',
        details: {
          rp_id: 'verify.example.com',
          passkeys: [{ created_at: '2026-05-10T12:05:00.000Z', last_used_at: null, device_type: 'multiDevice', backed_up: true, aaguid: '0' }],
        },
      },
    ];
    const { el, calls } = await userPage({ data: { ...DETAIL.data, enrolments } });
    const items = $$(el, 'ul.enrolments > li').map((li) => li.querySelector('span')!.textContent);
    expect(items).to.deep.equal([
      'Authenticator app, since 2026-05-10 12:03:00 UTC, 9 recovery codes left',
      '1 passkey for verify.example.com, last used 2026-05-10 12:05:00 UTC',
    ]);
    await expect(el).to.be.accessible();
    // Without a reason: nothing is sent, the field is focused.
    button(el, 'Remove second factor').click();
    await until(() => $(el, '[role=alert]')!.textContent!.includes('Say why'), 'reason asked');
    const reason = $<HTMLInputElement>(el, 'input[data-enrolment-reason="two_step"]')!;
    expect(el.shadowRoot!.activeElement).to.equal(reason);
    expect(calls.some((c) => c.method === 'DELETE')).to.equal(false);
    reason.value = 'Lost phone';
    button(el, 'Remove second factor').click();
    await answer(el, true);
    await until(() => calls.some((c) => c.method === 'DELETE'), 'removal sent');
    expect(calls.find((c) => c.method === 'DELETE')).to.deep.include({ path: '/admin/api/users/7/enrolments/two_step', body: { reason: 'Lost phone' } });
  });

  it('shows each verification with its status, remarks and analysis results, and the images by signed URL', async () => {
    const { el } = await userPage();
    const rows = $$(el, 'table.verifications > tbody > tr');
    expect(rows[1]!.textContent).to.contain('Complete In Review');
    expect(rows[1]!.textContent).to.contain('blurry');
    const checks = [...rows[1]!.querySelectorAll('table.checks tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(checks).to.deep.equal([
      ['mrz check digits', 'Passed', '', ''],
      ['photoshopped', 'Flagged', 'The image was edited.', ''],
      ['face match', 'Failed', 'The face does not match.', '0.12'],
    ]);
    // The raw JSON only behind a closed disclosure.
    const raw = rows[1]!.querySelector('details')!;
    expect(raw.open).to.equal(false);
    expect(raw.querySelector('pre')!.textContent).to.contain('"valid": true');
    expect(rows[0]!.querySelector('table.checks')).to.equal(null);
    const img = $<HTMLImageElement>(el, 'ul.images img')!;
    expect(img.getAttribute('src')).to.equal('/admin/api/images/up_1?expires=1&sig=abc');
    expect(img.alt).to.equal('document_id passport front');
    expect($(el, 'table.jobs')!.textContent).to.contain('MRZ check digits fail');
    await expect(el).to.be.accessible();
  });

  it('approves at once, asks for a reason and then a confirmation before rejecting, and sends nothing when cancelled', async () => {
    const { el, calls } = await userPage();
    button(el, 'Approve Email').click();
    await until(() => calls.some((c) => c.method === 'POST'));
    expect(calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ method: 'email', status: 'complete' });
    const posts = () => calls.filter((c) => c.method === 'POST').length;
    // No reason: nothing is sent, the reason field is focused and the alert says why.
    button(el, 'Reject Document / ID').click();
    const reason = $<HTMLTextAreaElement>(el, 'textarea[data-method="document_id"]')!;
    await until(() => el.shadowRoot!.activeElement === reason, 'reason focused');
    expect($(el, '[role=alert]')!.textContent).to.contain('Give the reason for the customer');
    expect(posts()).to.equal(1);
    reason.value = 'The portrait was pasted in.';
    button(el, 'Reject Document / ID').click();
    await answer(el, false);
    await new Promise((r) => setTimeout(r, 50));
    expect(posts()).to.equal(1);
    button(el, 'Reject Document / ID').click();
    await answer(el, true);
    await until(() => posts() === 2);
    expect(calls.filter((c) => c.method === 'POST')[1]!.body).to.deep.equal({
      method: 'document_id',
      status: 'rejected',
      reason: 'The portrait was pasted in.',
    });
  });

  it('confirms the dialog by keyboard: Esc cancels', async () => {
    const { el, calls } = await userPage();
    $<HTMLTextAreaElement>(el, 'textarea[data-method="email"]')!.value = 'Use the address you read at work.';
    button(el, 'Request redo of Email').click();
    const dialog = $<AdminConfirm>(el, 'admin-confirm')!;
    await until(() => dialog.shadowRoot!.querySelector('dialog')!.open);
    // Focus starts on Cancel, the safe choice.
    expect(dialog.shadowRoot!.activeElement?.textContent).to.equal('Cancel');
    dialog.shadowRoot!.querySelector('dialog')!.dispatchEvent(new Event('cancel'));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.some((c) => c.method === 'POST')).to.equal(false);
  });

  it('deletes only after confirmation and tells the app', async () => {
    const { el, calls } = await userPage();
    button(el, 'Delete user').click();
    const deleted = oneEvent(el, 'user-deleted');
    await answer(el, true);
    await deleted;
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/admin/api/users/7')).to.equal(true);
  });

  it('changes the status and switches the template through PATCH', async () => {
    const { el, calls } = await userPage();
    const statusForm = $<HTMLFormElement>(el, 'form[aria-label="Change status"]')!;
    statusForm.querySelector('select')!.value = 'Verified';
    statusForm.querySelector('button')!.click();
    await until(() => calls.some((c) => c.method === 'PATCH'));
    expect(calls.find((c) => c.method === 'PATCH')!.body).to.deep.equal({ status: 'Verified' });
  });
});
