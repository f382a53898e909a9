import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-settings.js';
import { PREVIEW_DELAY_MS, PREVIEW_PATH, type AdminSettings, type SettingsView } from '../../../src/admin/components/admin-settings.js';
import { $, fakeApi, TEMPLATES, until, type Call } from './fake-api.js';

const SAVED: SettingsView = {
  account_name: 'Acme',
  default_completion_url: null,
  custom_domain: null,
  allowed_origins: [],
  link_lifetime_hours: 72,
  handoff_enabled: true,
  two_step_sms_allowed: false,
  bank_deposit_ttl_days: 7,
  liveness_move_seconds: 30,
  default_locale: null,
  allowed_countries: null,
  default_template: null,
  reverification_template: null,
  branding: { logo_url: 'http://verity.test/branding/logo/0123456789abcdef01234567.png', primary_color: '#112233', background_color: null, text_color: null },
  consent: { text: null, privacy_url: null, text_version: 'default-1' },
  knowledge: null,
  signup: { enabled: false, template: null, ask_name: true, ask_phone: false },
  retention: { images_days: null, unconfirmed_signup_days: 7 },
  duplicates: { mode: 'review' },
};

async function settings() {
  let saved = structuredClone(SAVED);
  const fake = fakeApi({
    'GET /admin/api/settings': () => ({ body: { data: saved } }),
    'GET /admin/api/templates': TEMPLATES,
    'PATCH /admin/api/settings': (c: Call) => {
      const body = c.body as { account_name?: string; branding?: Partial<SettingsView['branding']> };
      saved = { ...saved, ...(body.account_name ? { account_name: body.account_name } : {}), branding: { ...saved.branding, ...body.branding } };
      return { body: { data: saved } };
    },
  });
  const el = await fixture<AdminSettings>(html`<admin-settings .api=${fake.api}></admin-settings>`);
  await until(() => $(el, 'iframe.preview') !== null, 'preview frame');
  return { el, ...fake };
}

const frame = (el: Element) => $<HTMLIFrameElement>(el, 'iframe.preview')!;
/** The draft the preview frame shows, from its URL. */
function shown(el: Element): Record<string, string> {
  const url = new URL(frame(el).getAttribute('src')!, location.origin);
  expect(url.origin).to.equal(location.origin);
  expect(url.pathname).to.equal(PREVIEW_PATH);
  return Object.fromEntries(url.searchParams);
}

function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input'));
}

describe('<admin-settings> branding preview', () => {
  it('frames the real hosted page with the saved branding, sandboxed, and is accessible', async () => {
    const { el } = await settings();
    expect(shown(el)).to.deep.equal({ account_name: 'Acme', primary_color: '#112233', background_color: '', text_color: '', logo: 'saved' });
    const f = frame(el);
    expect(f.title).to.equal('Preview of the hosted page');
    // Scripts run (the hosted app), but no forms, popups, navigation of the dashboard, or same-origin access.
    expect([...f.sandbox]).to.deep.equal(['allow-scripts']);
    await expect(el).to.be.accessible();
  });

  it('follows the unsaved colours, name and logo once the edits pause, without saving anything', async () => {
    const { el, calls } = await settings();
    const colour = $<HTMLInputElement>(el, 'input[name=primary_color]')!;
    // A colour picker sends a burst of input events: the preview loads once, with the last.
    for (const c of ['#aa0000', '#bb0000', '#cc0000']) type(colour, c);
    type($<HTMLInputElement>(el, 'input[name=background_color]')!, '#fafafa');
    type($<HTMLInputElement>(el, 'input[name=account_name]')!, 'Acme Bank');
    expect(shown(el).primary_color).to.equal('#112233');
    await until(() => shown(el).primary_color === '#cc0000', 'preview follows', PREVIEW_DELAY_MS + 2000);
    expect(shown(el)).to.deep.equal({ account_name: 'Acme Bank', primary_color: '#cc0000', background_color: '#fafafa', text_color: '', logo: 'saved' });
    [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Remove logo')!.click();
    await until(() => shown(el).logo === 'none', 'logo removed in the preview', PREVIEW_DELAY_MS + 2000);
    expect(calls.filter((c) => c.method !== 'GET')).to.deep.equal([]);
  });

  it('saves the draft branding (a removed logo too), and the preview shows what was saved at once', async () => {
    const { el, calls } = await settings();
    type($<HTMLInputElement>(el, 'input[name=text_color]')!, '#222222');
    [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Remove logo')!.click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, 'form[aria-labelledby=branding] button[type=submit]')!.click();
    await until(() => calls.some((c) => c.method === 'PATCH'), 'saved');
    expect(calls.find((c) => c.method === 'PATCH')!.body).to.deep.equal({
      branding: { primary_color: '#112233', background_color: null, text_color: '#222222', logo_url: null },
    });
    await until(() => shown(el).text_color === '#222222', 'saved branding shown');
    expect(shown(el).logo).to.equal('none');
    expect($(el, '[role=status]')!.textContent).to.equal('Branding saved.');
  });

  it('keeps the unsaved branding when the general settings are saved', async () => {
    const { el, calls } = await settings();
    type($<HTMLInputElement>(el, 'input[name=primary_color]')!, '#00aa00');
    type($<HTMLInputElement>(el, 'input[name=account_name]')!, 'Acme Bank');
    $<HTMLButtonElement>(el, 'form[aria-labelledby=general] button[type=submit]')!.click();
    await until(() => calls.some((c) => c.method === 'PATCH'), 'saved');
    expect((calls.find((c) => c.method === 'PATCH')!.body as { account_name: string }).account_name).to.equal('Acme Bank');
    await until(() => shown(el).account_name === 'Acme Bank', 'name shown');
    expect(shown(el).primary_color).to.equal('#00aa00');
    expect($<HTMLInputElement>(el, 'input[name=primary_color]')!.value).to.equal('#00aa00');
  });

  it('lets Two-Step send codes by SMS when the box is ticked and the general settings are saved', async () => {
    const { el, calls } = await settings();
    const box = $<HTMLInputElement>(el, 'input[name=two_step_sms_allowed]')!;
    expect(box.checked).to.equal(false);
    box.click();
    $<HTMLButtonElement>(el, 'form[aria-labelledby=general] button[type=submit]')!.click();
    await until(() => calls.some((c) => c.method === 'PATCH'), 'saved');
    expect((calls.find((c) => c.method === 'PATCH')!.body as { two_step_sms_allowed: boolean }).two_step_sms_allowed).to.equal(true);
  });
});

describe('<admin-settings> knowledge questions', () => {
  it('empties "Add a question" once saved, so a second save does not add it again', async () => {
    let saved = structuredClone(SAVED);
    const puts: { questions: { prompt: string }[] }[] = [];
    const fake = fakeApi({
      'GET /admin/api/settings': () => ({ body: { data: saved } }),
      'GET /admin/api/templates': TEMPLATES,
      'PUT /admin/api/knowledge': (c: Call) => {
        const body = c.body as { questions: { id: string; prompt: string; kind: string }[]; ask: number; pass_threshold: number; max_attempts: number };
        puts.push(body);
        saved = {
          ...saved,
          knowledge: {
            questions: body.questions.map((q) => ({ id: q.id, prompt: q.prompt, kind: q.kind, choices: null, answers_stored: 1 })),
            ask: body.ask,
            pass_threshold: body.pass_threshold,
            max_attempts: body.max_attempts,
          },
        };
        return { body: { data: saved } };
      },
    });
    const el = await fixture<AdminSettings>(html`<admin-settings .api=${fake.api}></admin-settings>`);
    await until(() => $(el, '[name="new-prompt"]') !== null, 'knowledge form');
    const form = $<HTMLInputElement>(el, '[name="new-prompt"]')!.form!;
    $<HTMLInputElement>(el, '[name="new-prompt"]')!.value = 'City of birth?';
    $<HTMLInputElement>(el, '[name="new-answers"]')!.value = 'Geneva';
    form.requestSubmit();
    await until(() => puts.length === 1, 'first save');
    await until(() => $<HTMLInputElement>(el, '[name="new-prompt"]')!.value === '', 'emptied form');
    expect($<HTMLInputElement>(el, '[name="new-answers"]')!.value).to.equal('');
    form.requestSubmit();
    await until(() => puts.length === 2, 'second save');
    expect(puts[1]!.questions.map((q) => q.prompt)).to.deep.equal(['City of birth?']);
    await expect(el).to.be.accessible();
  });
});

describe('<admin-settings> general settings', () => {
  it('saves the seconds Liveness gives each move with the other general settings', async () => {
    const { el, calls } = await settings();
    const input = $<HTMLInputElement>(el, 'input[name="liveness_move_seconds"]')!;
    expect(input.value).to.equal('30');
    expect(input.labels?.[0]?.textContent).to.contain('Liveness: seconds for each move');
    expect([input.min, input.max]).to.deep.equal(['10', '30']);
    input.value = '12';
    $<HTMLFormElement>(el, 'form[aria-labelledby="general"]')!.requestSubmit();
    await until(() => calls.some((c) => c.method === 'PATCH'), 'the save');
    expect(calls.find((c) => c.method === 'PATCH')!.body).to.include({ liveness_move_seconds: 12, bank_deposit_ttl_days: 7 });
  });
});

describe('<admin-settings> outcome of a save', () => {
  /** Whether `p` is on screen and nothing of the view covers its middle. */
  function inSight(el: AdminSettings, p: Element): boolean {
    const r = p.getBoundingClientRect();
    const hit = el.shadowRoot!.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && hit === p;
  }

  it('shows "saved" and a refusal in the window of a user who saved at the top of the long page', async () => {
    let refuse = false;
    const fake = fakeApi({
      'GET /admin/api/settings': () => ({ body: { data: SAVED } }),
      'GET /admin/api/templates': TEMPLATES,
      'PATCH /admin/api/settings': () =>
        refuse
          ? {
              status: 422,
              body: { error_type: 'api_invalid_error', error_message: 'Invalid request.', errors: { link_lifetime_hours: 'Must be at most 720.' } },
            }
          : { body: { data: SAVED } },
    });
    const el = await fixture<AdminSettings>(html`<admin-settings .api=${fake.api}></admin-settings>`);
    await until(() => $(el, 'form[aria-labelledby="general"]') !== null, 'general form');
    // The page is far taller than the window: the live regions are rendered below every section.
    expect(el.getBoundingClientRect().height).to.be.greaterThan(window.innerHeight * 2);
    window.scrollTo(0, 0);
    $<HTMLButtonElement>(el, 'form[aria-labelledby=general] button[type=submit]')!.click();
    const status = $(el, '[role=status]')!;
    await until(() => status.textContent === 'General settings saved.', 'saved');
    expect(inSight(el, status)).to.equal(true);
    refuse = true;
    $<HTMLButtonElement>(el, 'form[aria-labelledby=general] button[type=submit]')!.click();
    const alert = $(el, '[role=alert]')!;
    await until(() => (alert.textContent ?? '') !== '', 'refused');
    expect(inSight(el, alert)).to.equal(true);
  });
});
