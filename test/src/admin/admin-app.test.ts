import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-app.js';
import { parseRoute, type AdminApp } from '../../../src/admin/components/admin-app.js';
import '../../../src/admin/components/admin-overview.js';
import '../../../src/admin/components/admin-templates.js';
import '../../../src/admin/components/admin-settings.js';
import type { AdminSignIn } from '../../../src/admin/components/admin-sign-in.js';
import { $, $$, fakeApi, TEMPLATES, until, type Call } from './fake-api.js';

const OVERVIEW = {
  year: 2026,
  users_per_month: { January: 1, February: 4, March: 0, April: 0, May: 2, June: 0, July: 0, August: 0, September: 0, October: 0, November: 0, December: 0 },
  users_per_status: { total: 7, new: 2, banned: 1, unconfirmed: 3 },
  users_by_status: { Unconfirmed: 4, Verified: 2, Banned: 1 },
  days: 30,
  decisions_per_day: [],
  pass_rate_sample: 1000,
  check_pass_rates: [],
  latest_registrations: [],
};

const SETTINGS = {
  data: {
    account_name: 'Acme',
    default_completion_url: null,
    custom_domain: null,
    allowed_origins: [],
    link_lifetime_hours: 72,
    handoff_enabled: true,
    default_locale: null,
    allowed_countries: null,
    branding: { logo_url: null, primary_color: '#112233', background_color: null, text_color: null },
    consent: { text: null, privacy_url: null, text_version: 'default-1' },
    knowledge: null,
    signup: { enabled: false, template: null, ask_name: true, ask_phone: false },
    retention: { images_days: null, unconfirmed_signup_days: 7 },
    duplicates: { mode: 'review' },
  },
};

describe('<admin-app>', () => {
  beforeEach(() => history.replaceState(null, '', '/admin'));
  afterEach(() => history.replaceState(null, '', '/'));

  it('maps paths to views', () => {
    expect(parseRoute('/admin')).to.deep.equal({ view: '', id: undefined });
    expect(parseRoute('/admin/users/42')).to.deep.equal({ view: 'users', id: 42 });
    expect(parseRoute('/admin/users/x')).to.deep.equal({ view: 'users', id: undefined });
  });

  it('asks to sign in without a session; asks for the authenticator code when the server wants one; then shows the overview', async () => {
    let signedIn = false;
    const { api, calls } = fakeApi({
      'GET /admin/api/session': () =>
        signedIn
          ? { body: { admin: { id: 1, email: 'a@example.com' } } }
          : { status: 401, body: { error_type: 'api_auth_error', error_message: 'Unauthenticated.' } },
      'POST /admin/api/session': (c: Call) => {
        if (!(c.body as { totp?: string }).totp)
          return { status: 401, body: { error_type: 'api_auth_error', error_message: 'Enter the code', errors: { totp: ['required'] } } };
        signedIn = true;
        return { body: { admin: { id: 1, email: 'a@example.com' } } };
      },
      'GET /admin/api/overview': OVERVIEW,
    });
    const el = await fixture<AdminApp>(html`<admin-app .api=${api}></admin-app>`);
    await until(() => $(el, 'admin-sign-in') !== null, 'sign-in');
    const signIn = $<AdminSignIn>(el, 'admin-sign-in')!;
    await signIn.updateComplete;
    await expect(el).to.be.accessible();
    signIn.shadowRoot!.querySelector<HTMLInputElement>('[name=email]')!.value = 'a@example.com';
    signIn.shadowRoot!.querySelector<HTMLInputElement>('[name=password]')!.value = 'pw';
    signIn.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => signIn.shadowRoot!.querySelector('[name=totp]') !== null, 'code field');
    expect(signIn.shadowRoot!.activeElement?.getAttribute('name')).to.equal('totp');
    signIn.shadowRoot!.querySelector<HTMLInputElement>('[name=totp]')!.value = '123456';
    signIn.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => $(el, 'admin-overview') !== null, 'overview');
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).to.deep.equal({ email: 'a@example.com', password: 'pw', totp: '123456' });
    const overview = $(el, 'admin-overview')!;
    await until(() => overview.shadowRoot!.querySelectorAll('admin-chart').length === 4, 'charts');
    const months = overview.shadowRoot!.querySelector('admin-chart')!;
    await until(() => months.shadowRoot!.querySelector('.ct-bar') !== null, 'bars drawn', 8000);
    expect(months.shadowRoot!.querySelector('[role=img]')!.getAttribute('aria-label')).to.contain('February: 4');
    expect($(el, 'nav a[aria-current=page]')!.textContent).to.equal('Overview');
    await expect(el).to.be.accessible();
  });

  it('routes nav links on the client and moves focus to the new heading', async () => {
    const { api } = fakeApi({
      'GET /admin/api/session': { admin: { id: 1, email: 'a@example.com' } },
      'GET /admin/api/overview': OVERVIEW,
      'GET /admin/api/templates': TEMPLATES,
    });
    const el = await fixture<AdminApp>(html`<admin-app .api=${api}></admin-app>`);
    await until(() => $(el, 'nav') !== null);
    $$<HTMLAnchorElement>(el, 'nav a')
      .find((a) => a.textContent === 'Templates')!
      .click();
    await until(() => location.pathname === '/admin/templates' && $(el, 'admin-templates') !== null, 'templates view');
    const view = $(el, 'admin-templates')!;
    await until(() => view.shadowRoot?.activeElement?.tagName === 'H1', 'focus on heading');
    await until(() => view.shadowRoot!.querySelector('table tbody tr') !== null);
    await expect(view).to.be.accessible();
  });

  it('settings: adds a multiple-choice knowledge question, naming the right choice by its text', async () => {
    const { api, calls } = fakeApi({ 'GET /admin/api/settings': SETTINGS, 'GET /admin/api/templates': TEMPLATES, 'PUT /admin/api/knowledge': SETTINGS });
    const el = await fixture(html`<admin-settings .api=${api}></admin-settings>`);
    await until(() => el.shadowRoot!.querySelector('form[aria-labelledby=knowledge]') !== null, 'knowledge form');
    const form = el.shadowRoot!.querySelector<HTMLFormElement>('form[aria-labelledby=knowledge]')!;
    form.querySelector<HTMLInputElement>('[name=new-prompt]')!.value = 'Which city were you born in?';
    form.querySelector<HTMLSelectElement>('[name=new-kind]')!.value = 'choice';
    form.querySelector<HTMLTextAreaElement>('[name=new-choices]')!.value = 'Paris\nLyon\nNice';
    form.querySelector<HTMLInputElement>('[name=new-answers]')!.value = 'lyon';
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => calls.some((c) => c.method === 'PUT'));
    const body = calls.find((c) => c.method === 'PUT')!.body as { questions: { kind: string; choices: unknown; answers: string[] }[]; ask: number };
    expect(body.questions[0]!.kind).to.equal('choice');
    expect(body.questions[0]!.choices).to.deep.equal([
      { id: 'c1', label: 'Paris' },
      { id: 'c2', label: 'Lyon' },
      { id: 'c3', label: 'Nice' },
    ]);
    expect(body.questions[0]!.answers).to.deep.equal(['c2']);
    expect(body.ask).to.equal(1);
  });
});
