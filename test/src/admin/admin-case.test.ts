import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/admin/components/admin-case.js';
import type { AdminCase } from '../../../src/admin/components/admin-case.js';
import type { AdminDocumentViewer } from '../../../src/admin/components/admin-document-viewer.js';
import { pageTheme } from '../fixtures/theme.js';
import { $, $$, fakeApi, until } from './fake-api.js';

// A 1x1 image, so the viewer has something real to zoom.
const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const CASE = {
  data: {
    documents: [
      {
        doc_id: 'doc_1',
        side: 'front',
        doc_type: 'passport',
        status: 'Success',
        reason: null,
        created_at: '2026-05-10T12:00:00.000Z',
        image_url: PIXEL,
        portrait_url: PIXEL,
        fields: [
          { name: 'Full Name', value: 'JOHN Q PUBLIC', confidence: 91, record: 'Ada Lovelace', agrees: false },
          { name: 'Date of Birth', value: '1990-04-01', confidence: 95, record: '1990-04-01', agrees: true },
          { name: 'Document Number', value: 'D1234567', confidence: 97, record: null, agrees: null },
        ],
      },
    ],
    faces: [{ key: 'selfie', name: 'Selfie', similarity: 0.412, decision: 'review', captures: [{ kind: 'selfie', url: PIXEL }] }],
    notes: [{ id: 1, author: 'root@example.com', body: 'Called the customer.', created_at: '2026-05-10T12:05:00.000Z' }],
    timeline: [
      {
        at: '2026-05-10T12:06:00.000Z',
        kind: 'decision',
        what: 'verification.complete',
        method: 'Document / ID',
        by: 'root@example.com',
        detail: 'complete_in_review → complete: “Genuine.”',
      },
      {
        at: '2026-05-10T12:01:00.000Z',
        kind: 'delivery',
        what: 'verification.pending',
        method: null,
        by: 'https://hooks.example.com/',
        detail: 'succeeded, 1 attempt, HTTP 200',
      },
    ],
    duplicates: [
      {
        kind: 'document',
        verification: 'Document / ID',
        other: { id: 12, label: 'Grace Hopper' },
        other_verification: 'Document / ID',
        score: null,
        found_by: 'this',
        detected_at: '2026-05-10T12:02:00.000Z',
      },
      {
        kind: 'face',
        verification: 'Selfie',
        other: { id: 15, label: 'alan@example.com' },
        other_verification: 'Liveness',
        score: 0.834,
        found_by: 'other',
        detected_at: '2026-05-11T08:00:00.000Z',
      },
    ],
  },
};

async function kase() {
  const fake = fakeApi({
    'GET /admin/api/users/7/case': CASE,
    'POST /admin/api/users/7/notes': { status: 201, body: { data: { id: 2 } } },
  });
  const el = await fixture<AdminCase>(html`<admin-case .api=${fake.api} user-id="7"></admin-case>`);
  await until(() => $$(el, 'admin-document-viewer').length === 1, 'documents');
  const viewer = $<AdminDocumentViewer>(el, 'admin-document-viewer')!;
  await viewer.updateComplete;
  return { el, viewer, ...fake };
}

describe('<admin-case>', () => {
  it('shows the document fields against the record, marking in words the one that disagrees', async () => {
    const { el, viewer } = await kase();
    const rows = [...viewer.shadowRoot!.querySelectorAll('table.fields tbody tr')];
    expect(rows.map((r) => r.className)).to.deep.equal(['disagrees', '', '']);
    expect(rows[0]!.textContent).to.contain('Disagrees');
    expect(rows[0]!.textContent).to.contain('Ada Lovelace');
    expect(rows[1]!.textContent).to.contain('Agrees');
    expect(viewer.shadowRoot!.textContent).to.contain("1 field disagrees with the user's record.");
    await expect(viewer).to.be.accessible();
    await expect(el).to.be.accessible();
  });

  it('zooms the document from the keyboard: + and - on the focused image, and the buttons', async () => {
    const { viewer } = await kase();
    const img = viewer.shadowRoot!.querySelector<HTMLImageElement>('.viewport img')!;
    viewer.shadowRoot!.querySelector<HTMLElement>('.viewport')!.focus();
    await sendKeys({ press: '+' });
    await viewer.updateComplete;
    expect(img.style.width).to.equal('150%');
    await sendKeys({ press: '+' });
    await viewer.updateComplete;
    expect(img.style.width).to.equal('200%');
    await sendKeys({ press: '-' });
    await viewer.updateComplete;
    expect(img.style.width).to.equal('150%');
    viewer.shadowRoot!.querySelector<HTMLButtonElement>('button[aria-label="Zoom in"]')!.click();
    await viewer.updateComplete;
    expect(img.style.width).to.equal('200%');
    [...viewer.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Fit')!.click();
    await viewer.updateComplete;
    expect(img.style.width).to.equal('100%');
    expect(viewer.shadowRoot!.querySelector<HTMLButtonElement>('button[aria-label="Zoom out"]')!.disabled).to.equal(true);
  });

  it('puts the document portrait beside the selfie with the match score', async () => {
    const { el } = await kase();
    const faces = $(el, 'section[aria-label="Selfie"]')!;
    expect(faces.querySelector('.score')!.textContent).to.contain('0.41');
    const alts = [...faces.querySelectorAll('img')].map((i) => i.alt);
    expect(alts).to.deep.equal(['Portrait cropped from the document', 'Selfie capture 1 (selfie)']);
  });

  it('adds a note, clears the form and reads the case again; an empty note is not sent', async () => {
    const { el, calls } = await kase();
    const area = $<HTMLTextAreaElement>(el, 'textarea[name=body]')!;
    $<HTMLButtonElement>(el, 'form[aria-label="Add a note"] button')!.click();
    await until(() => $(el, '[role=alert]')!.textContent!.includes('Write the note first'), 'alert');
    expect(calls.some((c) => c.method === 'POST')).to.equal(false);
    area.value = 'Expected a new passport.';
    area.focus();
    $<HTMLButtonElement>(el, 'form[aria-label="Add a note"] button')!.click();
    await until(() => calls.filter((c) => c.path === '/admin/api/users/7/case').length === 2, 'reload');
    expect(calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ body: 'Expected a new passport.' });
    expect(area.value).to.equal('');
    expect($(el, '[role=status]')!.textContent).to.contain('Note added.');
  });

  it('lists the timeline: decisions with who and why, deliveries with their outcome', async () => {
    const { el } = await kase();
    const rows = $$(el, 'table.timeline tbody tr').map((r) => r.textContent!.replace(/\s+/g, ' ').trim());
    expect(rows[0]).to.contain('Decision: verification.complete');
    expect(rows[0]).to.contain('root@example.com');
    expect(rows[0]).to.contain('Genuine.');
    expect(rows[1]).to.contain('Webhook delivery: verification.pending');
    expect(rows[1]).to.contain('HTTP 200');
    expect($$(el, 'ol.notes li')[0]!.textContent).to.contain('Called the customer.');
  });

  it('shows each possible duplicate as a row linking to the other user, reachable by keyboard', async () => {
    const { el } = await kase();
    const rows = $$(el, 'ul.duplicates li').map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(rows).to.have.length(2);
    expect(rows[0]).to.contain('Possible duplicate (Document / ID): Same document number as Grace Hopper');
    expect(rows[1]).to.contain('Same face (similarity 0.83) as alan@example.com');
    expect(rows[1]).to.contain('found by their later capture');
    const links = $$<HTMLAnchorElement>(el, 'ul.duplicates a');
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['/admin/users/12', '/admin/users/15']);
    // The first thing to tab to on the case is the first duplicate's link.
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(links[0]);
    await expect(el).to.be.accessible();
  });

  it('has no duplicates section when there is none', async () => {
    const fake = fakeApi({ 'GET /admin/api/users/7/case': { data: { ...CASE.data, duplicates: [] } } });
    const el = await fixture<AdminCase>(html`<admin-case .api=${fake.api} user-id="7"></admin-case>`);
    await until(() => $$(el, 'admin-document-viewer').length === 1, 'documents');
    expect($(el, 'ul.duplicates')).to.equal(null);
    expect(el.shadowRoot!.textContent).not.to.contain('Possible duplicate');
  });

  describe('the DEA number', () => {
    let undo: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await undo?.();
      undo = undefined;
    });

    /** A case with only a DEA number, as for a user on a contact template; checks as the server words them. */
    async function deaCase(dea_number: string, checks: { name: string; outcome: string; reason: string | null }[]) {
      const fake = fakeApi({
        'GET /admin/api/users/7/case': {
          data: { documents: [], faces: [], notes: [], timeline: [], duplicates: [], dea: { dea_number, checks: checks.map((c) => ({ ...c, value: null })) } },
        },
      });
      const el = await fixture<AdminCase>(html`<admin-case .api=${fake.api} user-id="7"></admin-case>`);
      await until(() => $(el, 'table.dea') !== null, 'DEA table');
      return el;
    }

    const rowsOf = (el: AdminCase) => $$(el, 'table.dea tbody tr').map((tr) => [...tr.children].map((c) => c.textContent!.trim()));

    const WELL_FORMED = [
      { name: 'dea_format', outcome: 'passed', reason: null },
      { name: 'dea_check_digit', outcome: 'passed', reason: null },
      { name: 'dea_registrant_initial', outcome: 'flagged', reason: "The number's initial B is not that of the last name on record (L)." },
      { name: 'dea_registry', outcome: 'not_run', reason: 'Not checked against a registry: none is configured (VERITY_DEA_REGISTRY_URL).' },
    ];

    it('lists each check in words: format, check digit, the initial against the last name, and that no registry is configured', async () => {
      const el = await deaCase('AB1234563', WELL_FORMED);
      expect($(el, 'h2#dea')!.textContent).to.equal('DEA number');
      expect(el.shadowRoot!.querySelector('code')!.textContent).to.equal('AB1234563');
      expect($$(el, 'table.dea thead th').map((th) => th.textContent)).to.deep.equal(['Check', 'Outcome', 'Reason']);
      expect(rowsOf(el)).to.deep.equal([
        ['Format', 'Passed', ''],
        ['Check digit', 'Passed', ''],
        ['Initial of the last name', 'Flagged', "The number's initial B is not that of the last name on record (L)."],
        ['Registry', 'Not run', 'Not checked against a registry: none is configured (VERITY_DEA_REGISTRY_URL).'],
      ]);
    });

    it('says why the later checks did not run when the number is malformed or its check digit fails', async () => {
      const malformed = await deaCase('ZZ12', [
        { name: 'dea_format', outcome: 'failed', reason: 'Not two letters and seven digits.' },
        { name: 'dea_check_digit', outcome: 'not_run', reason: 'The number does not have the DEA shape.' },
        { name: 'dea_registrant_initial', outcome: 'not_run', reason: 'The number does not have the DEA shape.' },
        { name: 'dea_registry', outcome: 'not_run', reason: 'A number without the DEA shape is not looked up.' },
      ]);
      expect(rowsOf(malformed).map((r) => r.slice(0, 2))).to.deep.equal([
        ['Format', 'Failed'],
        ['Check digit', 'Not run'],
        ['Initial of the last name', 'Not run'],
        ['Registry', 'Not run'],
      ]);
      expect(rowsOf(malformed)[0]![2]).to.equal('Not two letters and seven digits.');
      const mistyped = await deaCase('AB1234567', [
        { name: 'dea_format', outcome: 'passed', reason: null },
        { name: 'dea_check_digit', outcome: 'failed', reason: 'The check digit does not hold: the number is mistyped or made up.' },
        { name: 'dea_registrant_initial', outcome: 'passed', reason: null },
        { name: 'dea_registry', outcome: 'not_run', reason: 'A number whose check digit fails is not looked up.' },
      ]);
      expect(rowsOf(mistyped)[1]).to.deep.equal(['Check digit', 'Failed', 'The check digit does not hold: the number is mistyped or made up.']);
      expect(rowsOf(mistyped)[3]).to.deep.equal(['Registry', 'Not run', 'A number whose check digit fails is not looked up.']);
    });

    it('is reached by keyboard: its table is a named scroll region that Tab focuses, then the note form', async () => {
      const el = await deaCase('AB1234563', WELL_FORMED);
      await sendKeys({ press: 'Tab' });
      const region = el.shadowRoot!.activeElement as HTMLElement;
      expect(region.getAttribute('role')).to.equal('region');
      expect(region.getAttribute('aria-labelledby')).to.equal('dea');
      expect(region.querySelector('table.dea')).to.not.equal(null);
      // The note form comes next: the table holds no stop of its own.
      await sendKeys({ press: 'Tab' });
      expect(el.shadowRoot!.activeElement!.tagName).to.equal('TEXTAREA');
    });

    for (const scheme of ['light', 'dark'] as const) {
      it(`is accessible in ${scheme} mode`, async () => {
        undo = await pageTheme(scheme);
        const el = await deaCase('AB1234563', WELL_FORMED);
        await expect(el).to.be.accessible();
      });
    }
  });
});
