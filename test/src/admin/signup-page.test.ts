import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/signup/signup-page.js';
import type { SignupPage } from '../../../src/signup/signup-page.js';
import { contrast } from '../../../src/theme/contrast.js';
import { pageTheme } from '../fixtures/theme.js';
import { $, until } from './fake-api.js';

/** Replaces window.fetch for one test with scripted `/signup/api/*` answers. */
function stubFetch(answers: Record<string, (body: unknown) => { status: number; body: unknown }>): {
  calls: { path: string; body: unknown }[];
  restore: () => void;
} {
  const original = window.fetch;
  const calls: { path: string; body: unknown }[] = [];
  window.fetch = async (input, init) => {
    const path = new URL(String(input), location.origin).pathname;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ path, body });
    const a = answers[path]?.(body) ?? { status: 404, body: { error_type: 'api_resource_error', error_message: 'nf' } };
    return new Response(JSON.stringify(a.body), { status: a.status });
  };
  return { calls, restore: () => (window.fetch = original) };
}

const CONFIG = { enabled: true, ask_name: true, ask_phone: false, account_name: 'Acme', branding: { logo_url: null, primary_color: '#112233' } };

describe('<signup-page>', () => {
  it('says signing up is closed when it is switched off', async () => {
    const stub = stubFetch({ '/signup/api/config': () => ({ status: 200, body: { ...CONFIG, enabled: false } }) });
    try {
      const el = await fixture<SignupPage>(html`<signup-page></signup-page>`);
      await until(() => (el.shadowRoot!.textContent ?? '').includes('not open'));
      expect($(el, 'form')).to.equal(null);
      await expect(el).to.be.accessible();
    } finally {
      stub.restore();
    }
  });

  it('registers, then asks for the code with focus on it, and shows a wrong code in an alert', async () => {
    const stub = stubFetch({
      '/signup/api/config': () => ({ status: 200, body: CONFIG }),
      '/signup/api/start': () => ({ status: 201, body: { token: 't'.repeat(43), code_ttl_minutes: 10 } }),
      '/signup/api/confirm': () => ({
        status: 422,
        body: { error_type: 'api_validation_error', error_message: 'The code is not right.', errors: { code: ['The code is not right; 4 tries left.'] } },
      }),
    });
    try {
      const el = await fixture<SignupPage>(html`<signup-page></signup-page>`);
      await until(() => $(el, 'input[name=email]') !== null);
      await expect(el).to.be.accessible();
      $<HTMLInputElement>(el, 'input[name=email]')!.value = 'sam@example.com';
      $<HTMLInputElement>(el, 'input[name=first_name]')!.value = 'Sam';
      $<HTMLButtonElement>(el, 'button[type=submit]')!.click();
      await until(() => $(el, 'input[name=code]') !== null, 'code field');
      expect(stub.calls.find((c) => c.path === '/signup/api/start')!.body).to.include({ email: 'sam@example.com', first_name: 'Sam' });
      expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('code');
      expect($(el, '[role=status]')!.textContent).to.contain('sam@example.com');
      $<HTMLInputElement>(el, 'input[name=code]')!.value = '123456';
      $<HTMLButtonElement>(el, 'button[type=submit]')!.click();
      await until(() => ($(el, '[role=alert]')!.textContent ?? '').includes('4 tries left'));
      expect(stub.calls.find((c) => c.path === '/signup/api/confirm')!.body).to.deep.equal({ token: 't'.repeat(43), code: '123456' });
      await expect(el).to.be.accessible();
    } finally {
      stub.restore();
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`keeps the account's colour readable and is accessible in ${scheme} mode`, async () => {
      const undo = await pageTheme(scheme);
      const stub = stubFetch({ '/signup/api/config': () => ({ status: 200, body: CONFIG }) });
      try {
        const el = await fixture<SignupPage>(html`<signup-page></signup-page>`);
        await until(() => $(el, 'input[name=email]') !== null);
        const button = getComputedStyle($(el, 'button[type=submit]')!);
        const card = getComputedStyle($(el, 'main')!);
        const channels = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];
        // #112233 reads on white as it is; on the dark surface it is lightened until it reads.
        if (scheme === 'light') expect(button.backgroundColor).to.equal('rgb(17, 34, 51)');
        else expect(contrast(channels(button.backgroundColor), channels(card.backgroundColor))).to.be.at.least(4.5);
        expect(contrast(channels(button.backgroundColor), channels(button.color))).to.be.at.least(4.5);
        await expect(el).to.be.accessible();
      } finally {
        stub.restore();
        await undo();
      }
    });
  }
});
