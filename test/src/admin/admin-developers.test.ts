import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-developers.js';
import type { AdminDevelopers } from '../../../src/admin/components/admin-developers.js';
import type { AdminConfirm } from '../../../src/admin/components/admin-confirm.js';
import { $, $$, fakeApi, until, type Call } from './fake-api.js';

const KEYS = {
  data: [{ id: 3, name: 'Backend', prefix: 'vk_live_abc123', created_at: '2026-05-01', last_used_at: null, revoked_at: null }],
  meta: { page: 1, per_page: 20, total: 1, last_page: 1 },
};
const DELIVERIES = {
  data: [
    {
      id: 11,
      event_type: 'verification.completed',
      endpoint_url: 'https://hooks.example/in',
      state: 'failed',
      attempts: 8,
      last_status: 500,
      created_at: '2026-05-01',
      retryable: true,
      test: false,
    },
  ],
  total: 1,
  page: 1,
  per_page: 20,
};

async function developers() {
  const fake = fakeApi({
    'GET /admin/api/api-keys': KEYS,
    'POST /admin/api/api-keys': { data: { id: 4, name: 'New' }, key: 'vk_live_THEWHOLEKEY' },
    'DELETE /admin/api/api-keys/3': { success: true },
    'GET /admin/api/webhooks/endpoints': {
      data: [{ id: 1, url: 'https://hooks.example/in', events: ['verification.completed'], enabled: true, disabled_reason: null, rotation_in_progress: false }],
    },
    'GET /admin/api/webhooks/deliveries': DELIVERIES,
    'GET /admin/api/webhooks/deliveries/11': (c: Call) => ({
      body: {
        data: {
          ...DELIVERIES.data[0],
          payload: c.path.includes('reveal=true') ? { email: 'ada@example.com' } : { email: 'a***@example.com' },
          payload_masked: !c.path.includes('reveal=true'),
          attempts_log: [{ attempt: 1, started_at: 't', response_status: 500, outcome: 'retry', error: 'HTTP 500' }],
        },
      },
    }),
    'POST /admin/api/webhooks/deliveries/11/retry': { data: {} },
  });
  const el = await fixture<AdminDevelopers>(html`<admin-developers .api=${fake.api}></admin-developers>`);
  await until(() => $$(el, 'table.keys tbody tr').length === 1 && $$(el, 'table.deliveries tbody tr').length === 1, 'lists');
  return { el, ...fake };
}

const byText = (el: Element, text: string) =>
  $$<HTMLButtonElement>(el, 'button').find((b) => b.textContent?.trim() === text || b.getAttribute('aria-label') === text)!;

describe('<admin-developers>', () => {
  it('creates a key and shows it once with a copy button; it is gone after "I have stored it"', async () => {
    const { el, calls } = await developers();
    $<HTMLInputElement>(el, 'form.new-key input')!.value = 'New';
    $<HTMLButtonElement>(el, 'form.new-key button')!.click();
    await until(() => $(el, '#new-key') !== null, 'key shown');
    expect($(el, '#new-key')!.textContent).to.equal('vk_live_THEWHOLEKEY');
    expect(calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ name: 'New' });
    expect(byText(el, 'Copy key')).to.exist;
    await expect(el).to.be.accessible();
    byText(el, 'I have stored it').click();
    await el.updateComplete;
    expect($(el, '#new-key')).to.equal(null);
  });

  it('revokes a key only after confirmation', async () => {
    const { el, calls } = await developers();
    byText(el, 'Revoke Backend').click();
    const dialog = $<AdminConfirm>(el, 'admin-confirm')!;
    await until(() => dialog.shadowRoot!.querySelector('dialog')!.open);
    expect(dialog.shadowRoot!.textContent).to.contain('vk_live_abc123');
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('button.confirm')!.click();
    await until(() => calls.some((c) => c.method === 'DELETE' && c.path === '/admin/api/api-keys/3'));
  });

  it('shows a delivery masked, unmasks on request, and retries a failed one', async () => {
    const { el, calls } = await developers();
    byText(el, 'Show delivery 11').click();
    await until(() => $(el, 'section.delivery pre') !== null);
    expect($(el, 'section.delivery pre')!.textContent).to.contain('a***@example.com');
    byText(el, 'Unmask').click();
    await until(() => ($(el, 'section.delivery pre')!.textContent ?? '').includes('ada@example.com'));
    byText(el, 'Retry delivery 11').click();
    await until(() => calls.some((c) => c.path === '/admin/api/webhooks/deliveries/11/retry'));
    await expect(el).to.be.accessible();
  });

  it('filters the delivery log on the server by state', async () => {
    const { el, calls } = await developers();
    const select = $<HTMLSelectElement>(el, 'select[name=delivery-state]')!;
    select.value = 'failed';
    select.dispatchEvent(new Event('change'));
    await until(() => calls.some((c) => c.path.startsWith('/admin/api/webhooks/deliveries?') && c.path.includes('state=failed')));
  });
});
