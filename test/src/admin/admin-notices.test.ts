import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/admin/components/admin-notices.js';
import '../../../src/admin/components/admin-overview.js';
import type { AdminNotice, AdminNotices } from '../../../src/admin/components/admin-notices.js';
import { $, $$, fakeApi, until, USER, type Call } from './fake-api.js';

const NOTICES: AdminNotice[] = [
  {
    id: 3,
    kind: 'webhook_endpoint_disabled',
    message: 'Webhook endpoint https://x.example/in was disabled: failing for 5 days.',
    details: null,
    created_at: '2026-05-10T12:00:00Z',
    read_at: null,
  },
  {
    id: 2,
    kind: 'webhook_deliveries_lost',
    message: '2 webhook deliveries were failed: their job was lost.',
    details: null,
    created_at: '2026-05-09T12:00:00Z',
    read_at: null,
  },
  { id: 1, kind: 'maintenance', message: 'Backups were skipped last night.', details: null, created_at: '2026-05-08T12:00:00Z', read_at: null },
];

/** A notices route over a list the mark-read route changes, as the server does. */
function noticesApi(options: { failRead?: number } = {}) {
  const unread = new Map(NOTICES.map((n) => [n.id, { ...n }]));
  return fakeApi({
    'GET /admin/api/notices': (c: Call) => {
      expect(c.path).to.equal('/admin/api/notices?unread=true');
      return { body: { data: [...unread.values()] } };
    },
    ...Object.fromEntries(
      NOTICES.map((n) => [
        `POST /admin/api/notices/${n.id}/read`,
        () => {
          if (options.failRead === n.id) return { status: 500, body: { error_type: 'api_internal_error', error_message: 'Internal Server Error' } };
          unread.delete(n.id);
          return { body: { success: true } };
        },
      ]),
    ),
  });
}

async function notices(options: { failRead?: number } = {}) {
  const fake = noticesApi(options);
  const el = await fixture<AdminNotices>(html`<admin-notices .api=${fake.api}></admin-notices>`);
  await until(() => $$(el, 'li').length === 3, 'notices listed');
  return { el, ...fake };
}

/** The element focused inside the component (focus sits in its shadow root). */
const focused = (el: Element) => el.shadowRoot!.activeElement;
const markButtons = (el: Element) => $$<HTMLButtonElement>(el, 'button.mark-read');

describe('<admin-notices>', () => {
  it('lists the unread notices with where to act on them, and is accessible', async () => {
    const { el } = await notices();
    expect($(el, 'h2')!.textContent).to.equal('Needs your attention (3)');
    const items = $$(el, 'li');
    expect(items[0]!.textContent).to.contain('failing for 5 days');
    expect(items[0]!.querySelector('a')!.getAttribute('href')).to.equal('/admin/developers');
    expect(items[2]!.querySelector('a')).to.equal(null);
    // Each button says which notice it marks, through its description.
    const first = markButtons(el)[0]!;
    expect(first.textContent!.trim()).to.equal('Mark as read');
    expect(el.shadowRoot!.getElementById(first.getAttribute('aria-describedby')!)!.textContent).to.contain('failing for 5 days');
    await expect(el).to.be.accessible();
  });

  it('marks a notice read from the keyboard; focus moves to the next notice', async () => {
    const { el, calls } = await notices();
    markButtons(el)[0]!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => $$(el, 'li').length === 2, 'notice removed');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).to.deep.equal(['/admin/api/notices/3/read']);
    expect($(el, '[role=status]')!.textContent).to.equal('Notice marked as read.');
    expect($(el, 'h2')!.textContent).to.equal('Needs your attention (2)');
    await until(() => focused(el) === markButtons(el)[0], 'focus on the next notice');
    expect(focused(el)!.getAttribute('aria-describedby')).to.equal('notice-2');
    // Space works too, on the last notice: focus goes to the one before it.
    markButtons(el)[1]!.focus();
    await sendKeys({ press: 'Space' });
    await until(() => $$(el, 'li').length === 1, 'second removed');
    expect(calls.at(-1)!.path).to.equal('/admin/api/notices/1/read');
    await until(() => focused(el)?.getAttribute('aria-describedby') === 'notice-2', 'focus on the remaining notice');
    await expect(el).to.be.accessible();
  });

  it('after the last notice, says nothing is left and puts focus on the heading', async () => {
    const { el } = await notices();
    for (let i = 0; i < 3; i++) {
      markButtons(el)[0]!.click();
      await until(() => $$(el, 'li').length === 2 - i, `notice ${i} removed`);
    }
    expect($(el, 'section')!.textContent).to.contain('Nothing needs your attention now.');
    await until(() => focused(el)?.id === 'notices-title', 'focus on the heading');
    await expect(el).to.be.accessible();
  });

  it('marks all read at once', async () => {
    const { el, calls } = await notices();
    $$<HTMLButtonElement>(el, 'button')
      .find((b) => b.textContent!.trim() === 'Mark all as read')!
      .click();
    await until(() => $$(el, 'li').length === 0, 'all removed');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).to.deep.equal([
      '/admin/api/notices/3/read',
      '/admin/api/notices/2/read',
      '/admin/api/notices/1/read',
    ]);
    expect($(el, '[role=status]')!.textContent).to.equal('All notices marked as read.');
  });

  it('keeps a notice the server could not mark, and says so', async () => {
    const { el } = await notices({ failRead: 2 });
    markButtons(el)[1]!.click();
    await until(() => ($(el, '[role=alert]')!.textContent ?? '').includes('Internal Server Error'), 'error shown');
    expect($$(el, 'li')).to.have.length(3);
    expect($(el, '[role=status]')!.textContent).to.equal('');
  });

  it('shows nothing when there is no unread notice', async () => {
    const { api } = fakeApi({ 'GET /admin/api/notices': { data: [] } });
    const el = await fixture<AdminNotices>(html`<admin-notices .api=${api}></admin-notices>`);
    await until(() => el.loaded, 'loaded');
    expect($(el, 'section')).to.equal(null);
  });
});

describe('<admin-overview>', () => {
  it('shows the unread notices above the statistics', async () => {
    const overview = {
      year: 2026,
      users_per_month: { January: 0 },
      users_per_status: { total: 0, new: 0, banned: 0, unconfirmed: 0 },
      users_by_status: {},
      days: 30,
      decisions_per_day: [],
      pass_rate_sample: 1000,
      check_pass_rates: [],
      latest_registrations: [],
    };
    const { api } = fakeApi({ 'GET /admin/api/overview': overview, 'GET /admin/api/notices': { data: NOTICES.slice(0, 1) } });
    const el = await fixture(html`<admin-overview .api=${api}></admin-overview>`);
    await until(
      () => Boolean(el.shadowRoot!.querySelector('admin-notices')?.shadowRoot?.querySelector('li')) && el.shadowRoot!.querySelector('admin-chart') !== null,
      'overview',
    );
    const notice = el.shadowRoot!.querySelector('admin-notices')!;
    expect(notice.shadowRoot!.querySelector('li')!.textContent).to.contain('failing for 5 days');
    await expect(el).to.be.accessible();
  });

  it("lists the latest registrations with links to the users' pages, without their verifications", async () => {
    const unnamed = { ...USER, id: 8, first_name: '', last_name: '', username: 'grace' };
    const overview = {
      year: 2026,
      users_per_month: { May: 2 },
      users_per_status: { total: 2, new: 2, banned: 0, unconfirmed: 0 },
      users_by_status: { Active: 2 },
      days: 30,
      decisions_per_day: [],
      pass_rate_sample: 1000,
      check_pass_rates: [],
      latest_registrations: [USER, unnamed],
    };
    const { api } = fakeApi({ 'GET /admin/api/overview': overview, 'GET /admin/api/notices': { data: [] } });
    const el = await fixture(html`<admin-overview .api=${api}></admin-overview>`);
    // The charts' tables are inside each <admin-chart>; the overview's own table is the latest registrations.
    await until(() => el.shadowRoot!.querySelectorAll('table').length === 1, 'table');
    const latest = el.shadowRoot!.querySelector('table')!;
    expect([...latest.querySelectorAll('thead th[scope=col]')].map((th) => th.textContent)).to.deep.equal(['Name', 'E-mail', 'Status', 'Created']);
    const rows = [...latest.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).to.deep.equal([
      ['Ada Lovelace', 'ada@example.com', 'Active', '2026-05-10 12:00:00'],
      ['grace', 'ada@example.com', 'Active', '2026-05-10 12:00:00'],
    ]);
    expect([...latest.querySelectorAll('tbody a')].map((a) => a.getAttribute('href'))).to.deep.equal(['/admin/users/7', '/admin/users/8']);
    await expect(el).to.be.accessible();
  });
});
