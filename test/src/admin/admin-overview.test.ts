import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/admin/components/admin-overview.js';
import type { AdminChart } from '../../../src/admin/components/admin-chart.js';
import type { AdminOverview } from '../../../src/admin/components/admin-overview.js';
import { pageTheme } from '../fixtures/theme.js';
import { $, $$, fakeApi, until } from './fake-api.js';

const DAYS = Array.from({ length: 30 }, (_, i) => ({
  date: new Date(Date.UTC(2026, 3, 11 + i)).toISOString().slice(0, 10),
  approved: i === 29 ? 3 : 0,
  rejected: i === 29 ? 1 : 0,
  review: i === 28 ? 2 : 0,
}));

const OVERVIEW = {
  year: 2026,
  users_per_month: { January: 1, February: 4, March: 0, April: 0, May: 2, June: 0, July: 0, August: 0, September: 0, October: 0, November: 0, December: 0 },
  users_per_status: { total: 7, new: 2, banned: 1, unconfirmed: 3 },
  users_by_status: { Unconfirmed: 4, Verified: 2, Banned: 1 },
  days: 30,
  decisions_per_day: DAYS,
  pass_rate_sample: 1000,
  check_pass_rates: [
    { check: 'mrz_check_digits', passed: 2, flagged: 0, failed: 1, rate: 2 / 3 },
    { check: 'photoshopped', passed: 3, flagged: 1, failed: 0, rate: 0.75 },
  ],
  latest_registrations: [],
};

async function overview(): Promise<AdminOverview> {
  const { api } = fakeApi({ 'GET /admin/api/overview': OVERVIEW, 'GET /admin/api/notices': { data: [] } });
  const el = await fixture<AdminOverview>(html`<admin-overview .api=${api}></admin-overview>`);
  await until(() => $$(el, 'admin-chart').length === 4, 'charts');
  const charts = $$<AdminChart>(el, 'admin-chart');
  // Chartist loads on first use; every chart has drawn its bars once it has.
  await until(() => charts.every((c) => c.shadowRoot!.querySelector('.ct-bar') !== null), 'bars drawn', 8000);
  return el;
}

const chart = (el: AdminOverview, heading: string): AdminChart => $$<AdminChart>(el, 'admin-chart').find((c) => c.heading.startsWith(heading))!;

describe('admin-overview charts', () => {
  let undo: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await undo?.();
    undo = undefined;
  });

  it('draws each chart with axes, its values on the bars, and an accessible name holding every value', async () => {
    const el = await overview();
    const months = chart(el, 'Registrations per month');
    expect($(months, 'figcaption')!.textContent).to.equal('Registrations per month, 2026');
    const plot = $(months, '.plot[role=img]')!;
    expect(plot.getAttribute('aria-label')).to.contain('February: 4').and.to.contain('December: 0');
    expect($$(months, '.ct-bar')).to.have.length(12);
    // The month axis and the count axis (integers only).
    const labels = $$(months, '.ct-label').map((l) => l.textContent);
    expect(labels).to.include.members(['Jan', 'Feb', 'Dec', '0', '4']);
    // Each non-zero bar carries its value; a zero bar none.
    expect($$(months, 'text.value').map((t) => t.textContent)).to.deep.equal(['1', '4', '2']);

    const rates = chart(el, 'Pass rate per check');
    expect($$(rates, 'text.value').map((t) => t.textContent)).to.deep.equal(['67%', '75%']);
    expect($$(rates, '.ct-label').map((l) => l.textContent)).to.include.members(['MRZ check digits', 'Photoshopped', '100%']);

    // Stacked by outcome: one total per day that had decisions, the series named in a legend.
    const decisions = chart(el, 'Decisions per day');
    expect($$(decisions, 'text.value').map((t) => t.textContent)).to.deep.equal(['2', '4']);
    expect($$(decisions, '.legend li').map((l) => l.textContent)).to.deep.equal(['Approved', 'In review', 'Rejected']);
    expect($(decisions, '.plot')!.getAttribute('aria-label')).to.equal(
      'Decisions per day, last 30 days. 2026-05-09: Approved 0, In review 2, Rejected 0; 2026-05-10: Approved 3, In review 0, Rejected 1; every other entry 0.',
    );
  });

  it('says 0 % on a check that never passed, rather than leaving its bar bare like an empty count', async () => {
    const { api } = fakeApi({
      'GET /admin/api/overview': {
        ...OVERVIEW,
        check_pass_rates: [
          { check: 'photoshopped', passed: 0, flagged: 1, failed: 0, rate: 0 },
          { check: 'mrz_check_digits', passed: 1, flagged: 0, failed: 0, rate: 1 },
        ],
      },
      'GET /admin/api/notices': { data: [] },
    });
    const el = await fixture<AdminOverview>(html`<admin-overview .api=${api}></admin-overview>`);
    await until(() => $$(el, 'admin-chart').length === 4, 'charts');
    const rates = chart(el, 'Pass rate per check');
    await until(() => $$(rates, 'text.value').length === 2, 'values drawn', 8000);
    expect($$(rates, 'text.value').map((t) => t.textContent)).to.deep.equal(['0%', '100%']);
  });

  it('puts the numbers in a table a keyboard reaches behind each chart', async () => {
    const el = await overview();
    const rates = chart(el, 'Pass rate per check');
    const summary = $<HTMLElement>(rates, 'summary')!;
    summary.focus();
    expect(rates.shadowRoot!.activeElement).to.equal(summary);
    await sendKeys({ press: 'Enter' });
    expect($<HTMLDetailsElement>(rates, 'details')!.open).to.equal(true);
    const rows = $$(rates, 'tbody tr').map((tr) => [...tr.children].map((c) => c.textContent!.trim()));
    expect(rows).to.deep.equal([
      ['MRZ check digits', '67%', '2', '0', '1'],
      ['Photoshopped', '75%', '3', '1', '0'],
    ]);
    expect($$(rates, 'thead th').map((t) => t.textContent!.trim())).to.deep.equal(['Check', 'Pass rate', 'Passed', 'Flagged', 'Failed']);
    const decisions = chart(el, 'Decisions per day');
    $<HTMLDetailsElement>(decisions, 'details')!.open = true;
    expect($$(decisions, 'tbody tr')).to.have.length(30);
    expect([...$$(decisions, 'tbody tr').at(-1)!.children].map((c) => c.textContent!.trim())).to.deep.equal(['2026-05-10', '3', '0', '1']);
  });

  it('says there is nothing to show rather than drawing empty axes', async () => {
    const { api } = fakeApi({
      'GET /admin/api/overview': { ...OVERVIEW, check_pass_rates: [] },
      'GET /admin/api/notices': { data: [] },
    });
    const el = await fixture<AdminOverview>(html`<admin-overview .api=${api}></admin-overview>`);
    await until(() => $$(el, 'admin-chart').length === 4, 'charts');
    const rates = chart(el, 'Pass rate per check');
    await rates.updateComplete;
    expect($(rates, '.empty')!.textContent).to.equal('Nothing to show yet.');
    expect($(rates, '.plot')).to.equal(null);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`is accessible in ${scheme} mode, with the page's tokens`, async () => {
      undo = await pageTheme(scheme);
      const el = await overview();
      for (const c of $$<AdminChart>(el, 'admin-chart')) $<HTMLDetailsElement>(c, 'details')!.open = true;
      const text = getComputedStyle(el).color;
      expect(text).to.equal(scheme === 'dark' ? 'rgb(231, 234, 240)' : 'rgb(20, 23, 31)');
      await expect(el).to.be.accessible();
    });
  }
});
