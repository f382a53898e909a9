import { expect, fixture, html } from '@open-wc/testing';
import '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import type { Branding } from '../../../../src/api/contract.js';
import { contrast, parseHex } from '../../../../src/theme/contrast.js';
import { pageTheme } from '../../fixtures/theme.js';

const BRANDING: Branding = {
  account_name: 'Acme Bank',
  logo_url: null,
  primary_color: '#aa0000',
  background_color: '#fafafa',
  text_color: '#222222',
};

const part = (flow: VerifyFlow, name: string) => flow.shadowRoot!.querySelector<HTMLElement>(`[part=${name}]`)!;

/** `rgb(r, g, b)` → channels. */
const rgb = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];

describe('<verify-flow> branding on our own pages (the tokens of src/theme/tokens.css)', () => {
  let undo: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await undo?.();
    undo = undefined;
  });

  it('in light mode keeps a brand colour that reads, with its background and text', async () => {
    undo = await pageTheme('light');
    const flow = await fixture<VerifyFlow>(html`<verify-flow apply-branding .branding=${BRANDING}></verify-flow>`);
    const button = getComputedStyle(flow.shadowRoot!.querySelector('.intro button')!);
    expect(button.backgroundColor).to.equal('rgb(170, 0, 0)');
    expect(button.color).to.equal('rgb(255, 255, 255)');
    expect(getComputedStyle(part(flow, 'base')).backgroundColor).to.equal('rgb(250, 250, 250)');
    await expect(flow).to.be.accessible();
  });

  it('in dark mode lightens the brand colour until it reads on the dark surface, with dark text on it', async () => {
    undo = await pageTheme('dark');
    const flow = await fixture<VerifyFlow>(html`<verify-flow apply-branding .branding=${BRANDING}></verify-flow>`);
    const base = getComputedStyle(part(flow, 'base'));
    // The light brand background gives way to the dark surface; the brand colour stays, lighter.
    expect(base.backgroundColor).to.equal('rgb(23, 27, 34)');
    const button = getComputedStyle(flow.shadowRoot!.querySelector('.intro button')!);
    const brand = rgb(button.backgroundColor);
    expect(brand[0]).to.be.greaterThan(brand[1]).and.greaterThan(170);
    expect(contrast(brand, parseHex('#171b22')!)).to.be.at.least(4.5);
    expect(contrast(brand, rgb(button.color))).to.be.at.least(4.5);
    await expect(flow).to.be.accessible();
  });
});

describe('<verify-flow> branding before the session, and the preview', () => {
  let fetches: string[];
  let realFetch: typeof fetch;
  beforeEach(() => {
    fetches = [];
    realFetch = window.fetch;
    window.fetch = (input, init) => {
      fetches.push(String(input));
      return realFetch(input, init);
    };
  });
  afterEach(() => {
    window.fetch = realFetch;
  });

  it('shows the branding it is given on the intro, with its colours, before any session', async () => {
    const flow = await fixture<VerifyFlow>(html`<verify-flow apply-branding .branding=${BRANDING}></verify-flow>`);
    expect(part(flow, 'header').textContent!.trim()).to.equal('Acme Bank');
    const base = getComputedStyle(part(flow, 'base'));
    expect(base.getPropertyValue('--verify-primary').trim()).to.equal('#aa0000');
    expect(base.backgroundColor).to.equal('rgb(250, 250, 250)');
    expect(getComputedStyle(flow.shadowRoot!.querySelector('.intro button')!).backgroundColor).to.equal('rgb(170, 0, 0)');
    await expect(flow).to.be.accessible();
  });

  it("inline, without apply-branding, shows the account's logo and colours where the page sets none", async () => {
    const logo = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"/>');
    const flow = await fixture<VerifyFlow>(html`<verify-flow .branding=${{ ...BRANDING, logo_url: logo, background_color: null }}></verify-flow>`);
    const img = part(flow, 'header').querySelector('img')!;
    expect(img.getAttribute('alt')).to.equal('Acme Bank');
    expect(getComputedStyle(flow.shadowRoot!.querySelector('.intro button')!).backgroundColor).to.equal('rgb(170, 0, 0)');
    await expect(flow).to.be.accessible();
  });

  it('inline, a page that themes the flow keeps its own colour', async () => {
    const page = await fixture<HTMLElement>(html`<div style="--verify-primary: #00aa00"><verify-flow .branding=${BRANDING}></verify-flow></div>`);
    const flow = page.querySelector<VerifyFlow>('verify-flow')!;
    await flow.updateComplete;
    expect(getComputedStyle(flow.shadowRoot!.querySelector('.intro button')!).backgroundColor).to.equal('rgb(0, 170, 0)');
    // The hosted page's apply-branding puts the account's first.
    flow.applyBranding = true;
    await flow.updateComplete;
    expect(getComputedStyle(flow.shadowRoot!.querySelector('.intro button')!).backgroundColor).to.equal('rgb(170, 0, 0)');
  });

  it('in a preview, Start sends nothing and says it is a preview', async () => {
    const flow = await fixture<VerifyFlow>(html`<verify-flow apply-branding preview .branding=${BRANDING}></verify-flow>`);
    const started: Event[] = [];
    flow.addEventListener('verify-start', (e) => started.push(e));
    flow.shadowRoot!.querySelector<HTMLButtonElement>('.intro button')!.click();
    await flow.updateComplete;
    await new Promise((r) => setTimeout(r, 100));
    expect(flow.phase).to.equal('intro');
    expect(fetches).to.deep.equal([]);
    expect(started).to.deep.equal([]);
    expect(flow.shadowRoot!.querySelector('.intro [role=status]')!.textContent).to.equal('This is a preview: nothing is started or sent.');
    await expect(flow).to.be.accessible();
  });
});
