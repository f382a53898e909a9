import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-users.js';
import type { AdminUsers } from '../../../src/admin/components/admin-users.js';
import type { AdminLinkPanel } from '../../../src/admin/components/admin-link-panel.js';
import { $, $$, fakeApi, TEMPLATES, until, USER, type Call } from './fake-api.js';

function page(n: number, total = 45) {
  return { data: [{ ...USER, id: n }], meta: { page: n, per_page: 20, total, last_page: 3 } };
}

describe('<admin-users>', () => {
  it('shows a page of users with links to their pages, and is accessible', async () => {
    const { api } = fakeApi({ 'GET /admin/api/users': page(1), 'GET /admin/api/templates': TEMPLATES });
    const el = await fixture<AdminUsers>(html`<admin-users .api=${api}></admin-users>`);
    await until(() => $$(el, 'tbody tr').length === 1, 'rows');
    expect($(el, 'tbody a')!.getAttribute('href')).to.equal('/admin/users/1');
    expect($(el, 'tbody')!.textContent).to.contain('ada@example.com');
    await expect(el).to.be.accessible();
  });

  it("shows each user's name (or username), e-mail, status, verifications and creation time", async () => {
    const unnamed = { ...USER, id: 8, first_name: '', last_name: '', username: 'grace', verifications: [] };
    const { api } = fakeApi({
      'GET /admin/api/users': { data: [USER, unnamed], meta: { page: 1, per_page: 20, total: 2, last_page: 1 } },
      'GET /admin/api/templates': TEMPLATES,
    });
    const el = await fixture<AdminUsers>(html`<admin-users .api=${api}></admin-users>`);
    await until(() => $$(el, 'tbody tr').length === 2, 'rows');
    expect($$(el, 'thead th[scope=col]').map((th) => th.textContent)).to.deep.equal(['Name', 'E-mail', 'Status', 'Verifications', 'Created']);
    const rows = $$(el, 'tbody tr').map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).to.deep.equal([
      ['Ada Lovelace', 'ada@example.com', 'Active', 'Email: Pending', '2026-05-10 12:00:00'],
      ['grace', 'ada@example.com', 'Active', '', '2026-05-10 12:00:00'],
    ]);
    expect($$(el, 'tbody a').map((a) => a.getAttribute('href'))).to.deep.equal(['/admin/users/7', '/admin/users/8']);
  });

  it('asks the server for the search, status, sort and next page (nothing is filtered in the browser)', async () => {
    const { api, calls } = fakeApi({
      'GET /admin/api/users': (c: Call) => ({ body: page(c.path.includes('page=2') ? 2 : 1) }),
      'GET /admin/api/templates': TEMPLATES,
    });
    const el = await fixture<AdminUsers>(html`<admin-users .api=${api}></admin-users>`);
    await until(() => $$(el, 'tbody tr').length === 1);
    $<HTMLInputElement>(el, 'input[name=search]')!.value = 'lovelace';
    $<HTMLSelectElement>(el, 'select[name=status]')!.value = 'Verified';
    $<HTMLSelectElement>(el, 'select[name=sort]')!.value = 'email';
    $<HTMLButtonElement>(el, 'form.filters button[type=submit]')!.click();
    await until(() => calls.some((c) => c.path.includes('search=lovelace')));
    const q = new URLSearchParams(calls.at(-1)!.path.split('?')[1]);
    expect(Object.fromEntries(q)).to.deep.equal({ page: '1', per_page: '20', search: 'lovelace', status: 'Verified', sort: 'email' });
    const pager = $(el, 'admin-pager')!;
    await (pager as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const next = [...pager.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Next page')!;
    next.click();
    await until(() => calls.some((c) => c.path.includes('page=2')));
    expect(calls.at(-1)!.path).to.contain('search=lovelace');
  });

  it('adds a user with the chosen template and shows the link panel with copy, send and QR', async () => {
    const { api, calls } = fakeApi({
      'GET /admin/api/users': page(1),
      'GET /admin/api/templates': TEMPLATES,
      'POST /admin/api/users': { data: { ...USER, id: 9, email: 'new@example.com' }, magic_link: 'x' },
      'POST /admin/api/users/9/link': {
        full_url: 'https://v.example/security-verify?expires=1&key=k&signature=s',
        short_url: 'https://v.example/l/abc',
        expires_at: '2026-05-13T12:00:00Z',
        sent: null,
      },
    });
    const el = await fixture<AdminUsers>(html`<admin-users .api=${api}></admin-users>`);
    await until(() => $$(el, 'select[name=template_id] option').length === 2, 'templates');
    const form = $<HTMLFormElement>(el, 'form.add')!;
    form.querySelector<HTMLInputElement>('[name=email]')!.value = 'new@example.com';
    form.querySelector<HTMLInputElement>('[name=first_name]')!.value = 'New';
    form.querySelector<HTMLSelectElement>('[name=template_id]')!.value = 'tmpl_email';
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => $(el, 'admin-link-panel') !== null, 'link panel');
    expect(calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ email: 'new@example.com', first_name: 'New', template_id: 'tmpl_email' });
    expect($(el, '[role=status]')!.textContent).to.contain('The user was added.');
    const panel = $<AdminLinkPanel>(el, 'admin-link-panel')!;
    await panel.updateComplete;
    [...panel.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Make link')!.click();
    await until(() => panel.shadowRoot!.querySelector('svg[role=img]') !== null, 'QR');
    expect(panel.shadowRoot!.querySelector<HTMLInputElement>('input.link')!.value).to.equal('https://v.example/security-verify?expires=1&key=k&signature=s');
    expect(panel.shadowRoot!.querySelector('svg path')!.getAttribute('d')!.length).to.be.greaterThan(100);
    [...panel.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Send by e-mail')!.click();
    await until(() => calls.some((c) => c.path === '/admin/api/users/9/link' && (c.body as { send?: string }).send === 'email'));
    await expect(panel).to.be.accessible();
    await expect(el).to.be.accessible();
  });

  it('says what went wrong when the server refuses, in an alert', async () => {
    const { api } = fakeApi({
      'GET /admin/api/users': page(1),
      'GET /admin/api/templates': TEMPLATES,
      'POST /admin/api/users': () => ({
        status: 422,
        body: {
          error_type: 'api_validation_error',
          error_message: 'The given data was invalid.',
          errors: { email: ['The email must be a valid email address.'] },
        },
      }),
    });
    const el = await fixture<AdminUsers>(html`<admin-users .api=${api}></admin-users>`);
    const form = $<HTMLFormElement>(el, 'form.add')!;
    form.querySelector<HTMLInputElement>('[name=email]')!.value = 'x@y.z';
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => ($(el, '[role=alert]')!.textContent ?? '').includes('valid'));
    expect($(el, '[role=alert]')!.textContent).to.contain('email: The email must be a valid email address.');
  });
});
