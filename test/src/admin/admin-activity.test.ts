import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-activity.js';
import { outboxCount, type AdminActivity } from '../../../src/admin/components/admin-activity.js';
import { $, $$, fakeApi, until, type Call } from './fake-api.js';

const MESSAGE = (n: number, channel: 'email' | 'sms') => ({
  id: `m${n}`,
  channel,
  to: channel === 'email' ? `p${n}@example.com` : '+14155550123',
  subject: `Subject ${n}`,
  text: `Text ${n}`,
  created_at: '2026-05-10T12:00:00Z',
});

/** The outbox route as the server answers it: pages of 10 over 23 messages (8 of them texts). */
function outboxRoute(call: Call) {
  const q = new URL(call.path, location.origin).searchParams;
  const page = Number(q.get('page') ?? 1);
  const channel = q.get('channel');
  const total = channel === 'sms' ? 8 : 23;
  const count = Math.max(0, Math.min(10, total - (page - 1) * 10));
  const data = Array.from({ length: count }, (_, i) => MESSAGE((page - 1) * 10 + i, channel === 'sms' ? 'sms' : 'email'));
  return { body: { data, meta: { page, per_page: 10, total, last_page: Math.ceil(total / 10), has_more: page * 10 < total } } };
}

async function activity() {
  const fake = fakeApi({
    'GET /admin/api/outbox': outboxRoute,
    'GET /admin/api/audit': { data: [], meta: { page: 1, per_page: 20, total: 0, last_page: 1 } },
    'GET /admin/api/admins': {
      data: [{ id: 1, email: 'root@example.com', created_at: '2026-05-01', totp: false, me: true }],
      meta: { page: 1, per_page: 100, total: 1, last_page: 1 },
    },
  });
  const el = await fixture<AdminActivity>(html`<admin-activity .api=${fake.api}></admin-activity>`);
  await until(() => $$(el, 'table.outbox tbody tr').length === 10, 'outbox page');
  return { el, ...fake };
}

const pagerText = (el: Element) => $(el, 'admin-pager')!.shadowRoot!.textContent!.replace(/\s+/g, ' ');

describe('<admin-activity> outbox', () => {
  it('shows the total number of messages and the page count from the server', async () => {
    const { el } = await activity();
    expect($(el, '.outbox-count')!.textContent).to.equal('23 messages in the outbox.');
    expect(pagerText(el)).to.contain('Page 1 of 3');
    await expect(el).to.be.accessible();
  });

  it('pages on the server and keeps the total', async () => {
    const { el, calls } = await activity();
    const next = [...$(el, 'admin-pager')!.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Next page')!;
    next.click();
    await until(() => calls.some((c) => c.path.startsWith('/admin/api/outbox?') && c.path.includes('page=2')), 'page 2 asked');
    await until(() => pagerText(el).includes('Page 2 of 3'), 'page 2 shown');
    expect($(el, '.outbox-count')!.textContent).to.equal('23 messages in the outbox.');
  });

  it('filters by channel on the server and counts that channel', async () => {
    const { el, calls } = await activity();
    const select = $<HTMLSelectElement>(el, 'select[name=outbox-channel]')!;
    select.value = 'sms';
    select.dispatchEvent(new Event('change'));
    await until(() => $(el, '.outbox-count')!.textContent === '8 texts in the outbox.', 'texts counted');
    expect(calls.some((c) => c.path.includes('channel=sms') && c.path.includes('page=1'))).to.equal(true);
    expect(pagerText(el)).to.contain('Page 1 of 1');
    await expect(el).to.be.accessible();
  });

  it('words the count for one and for none', () => {
    expect(outboxCount(1, 'email')).to.equal('1 e-mail in the outbox.');
    expect(outboxCount(0, 'sms')).to.equal('No texts in the outbox.');
    expect(outboxCount(2, '')).to.equal('2 messages in the outbox.');
  });
});
