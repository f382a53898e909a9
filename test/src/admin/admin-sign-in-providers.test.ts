import { expect, fixture, html } from '@open-wc/testing';
import type { AdminConfirm } from '../../../src/admin/components/admin-confirm.js';
import '../../../src/admin/components/admin-sign-in-providers.js';
import type { AdminSignInProviders, SignInProviderListing } from '../../../src/admin/components/admin-sign-in-providers.js';
import { $, $$, fakeApi, until, type Call } from './fake-api.js';

const GOOGLE: SignInProviderListing = {
  id: 1,
  purpose: 'social',
  name: 'Google',
  issuer: 'https://accounts.google.com',
  client_id: 'abc.apps.googleusercontent.com',
  scopes: 'openid email',
  updated_at: '2026-05-10T12:00:00Z',
};

/** The providers routes over a list that add and remove change, as the server does. */
function providersApi() {
  const list: SignInProviderListing[] = [GOOGLE];
  return fakeApi({
    'GET /admin/api/oidc-providers': () => ({ body: { data: [...list], redirect_uri: 'https://verify.example.com/oidc/callback' } }),
    'POST /admin/api/oidc-providers': (c: Call) => {
      const b = c.body as Record<string, string>;
      if (!b.issuer?.startsWith('https://')) {
        return {
          status: 422,
          body: { error_type: 'api_validation_error', error_message: 'The given data was invalid.', errors: { issuer: ['The issuer must be an https URL.'] } },
        };
      }
      const created = {
        ...GOOGLE,
        id: 2,
        purpose: b.purpose as 'payment',
        name: b.name!,
        issuer: b.issuer,
        client_id: b.client_id!,
        scopes: b.scopes ?? 'openid email',
      };
      list.push(created);
      return { status: 201, body: { data: created } };
    },
    'DELETE /admin/api/oidc-providers/1': () => {
      list.splice(0, 1);
      return { body: { success: true } };
    },
  });
}

function fill(el: Element, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    const field = $<HTMLInputElement | HTMLSelectElement>(el, `[name="${name}"]`)!;
    field.value = value;
  }
}

describe('<admin-sign-in-providers>', () => {
  it('lists the providers without secrets, with the redirect URI to register, and is accessible', async () => {
    const { api } = providersApi();
    const el = await fixture<AdminSignInProviders>(html`<admin-sign-in-providers .api=${api}></admin-sign-in-providers>`);
    await until(() => $$(el, 'li').length === 1, 'listed');
    expect(el.shadowRoot!.textContent).to.contain('https://verify.example.com/oidc/callback');
    expect($$(el, 'li')[0]!.textContent).to.contain('Google').and.contain('Social Account');
    await expect(el).to.be.accessible();
  });

  it('adds a payment provider with its secret, shows the server’s refusal, and removes one after asking', async () => {
    const { api, calls } = providersApi();
    const el = await fixture<AdminSignInProviders>(html`<admin-sign-in-providers .api=${api}></admin-sign-in-providers>`);
    await until(() => $$(el, 'li').length === 1, 'listed');
    fill(el, { purpose: 'payment', name: 'PayPal', issuer: 'http://paypal.example', client_id: 'pp', client_secret: 's3cret' });
    $<HTMLButtonElement>(el, 'form button[type=submit]')!.click();
    await until(() => el.shadowRoot!.querySelector('[role=alert]')!.textContent!.includes('https URL'), 'refusal shown');
    fill(el, { issuer: 'https://www.paypal.example' });
    $<HTMLButtonElement>(el, 'form button[type=submit]')!.click();
    await until(() => $$(el, 'li').length === 2, 'added');
    const post = calls.filter((c) => c.method === 'POST').at(-1)!;
    expect(post.body).to.deep.equal({ purpose: 'payment', name: 'PayPal', issuer: 'https://www.paypal.example', client_id: 'pp', client_secret: 's3cret' });
    expect(el.shadowRoot!.querySelector('[role=status]')!.textContent).to.contain('Added PayPal.');

    $<HTMLButtonElement>(el, 'button[aria-label="Remove Google"]')!.click();
    const dialog = $<AdminConfirm>(el, 'admin-confirm')!;
    await until(() => dialog.shadowRoot!.querySelector('dialog')!.open, 'confirmation asked');
    expect(dialog.shadowRoot!.textContent).to.contain('Remove Google?');
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('button.confirm')!.click();
    await until(() => $$(el, 'li').length === 1, 'removed');
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/admin/api/oidc-providers/1')).to.equal(true);
  });
});
