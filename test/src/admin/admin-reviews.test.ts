import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/admin/components/admin-reviews.js';
import type { AdminReviews } from '../../../src/admin/components/admin-reviews.js';
import { $, $$, fakeApi, TEMPLATES, until, type Call } from './fake-api.js';

const ROW = {
  user: { id: 7, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', status: 'Review', reference_id: null },
  template: { name: 'tmpl_document', label: 'Single document check' },
  entered_review_at: '2026-05-10T12:00:00.000Z',
  waiting: [{ method: 'document_id', name: 'Document / ID', status: { key: 'complete_in_review', friendly: 'In review' }, remarks: null }],
  reasons: ['Document / ID: The image was edited (editing software, or a pasted region).', 'Document / ID: The image is a photo of a screen.'],
  flags: ['photoshopped', 'screen_recapture'],
};
const BY_HAND = {
  ...ROW,
  user: { ...ROW.user, id: 8, first_name: null, last_name: null, email: 'grace@example.com' },
  template: null,
  reasons: ['The user was set to Review by hand.'],
};

function answer(rows: unknown[], page = 1, lastPage = 1) {
  return { data: rows, meta: { page, per_page: 20, total: rows.length, last_page: lastPage } };
}

describe('<admin-reviews>', () => {
  it('lists who waits, since when and why in words, linking to each user, and is accessible', async () => {
    const { api } = fakeApi({ 'GET /admin/api/reviews': answer([ROW, BY_HAND]), 'GET /admin/api/templates': TEMPLATES });
    const el = await fixture<AdminReviews>(html`<admin-reviews .api=${api}></admin-reviews>`);
    await until(() => $$(el, 'tbody tr').length === 2, 'rows');
    expect($$(el, 'thead th[scope=col]').map((th) => th.textContent)).to.deep.equal(['User', 'Waiting since', 'Why', 'Template']);
    const [first, second] = $$(el, 'tbody tr');
    expect([...first!.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(ROW.reasons);
    expect(first!.querySelector('time')!.getAttribute('datetime')).to.equal('2026-05-10T12:00:00.000Z');
    expect(first!.textContent).to.contain('Single document check');
    expect(second!.textContent).to.contain('The user was set to Review by hand.');
    expect($$(el, 'tbody a').map((a) => [a.textContent, a.getAttribute('href')])).to.deep.equal([
      ['Ada Lovelace', '/admin/users/7'],
      ['grace@example.com', '/admin/users/8'],
    ]);
    await expect(el).to.be.accessible();
  });

  it('says so when no one is waiting', async () => {
    const { api } = fakeApi({ 'GET /admin/api/reviews': answer([]), 'GET /admin/api/templates': TEMPLATES });
    const el = await fixture<AdminReviews>(html`<admin-reviews .api=${api}></admin-reviews>`);
    await until(() => el.shadowRoot!.textContent!.includes('No one is waiting'), 'empty note');
    expect($(el, 'table')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('asks the server for the filters chosen with the keyboard and for the next page, and clears them', async () => {
    const { api, calls } = fakeApi({
      'GET /admin/api/reviews': (c: Call) => ({ body: answer([ROW], c.path.includes('page=2') ? 2 : 1, 2) }),
      'GET /admin/api/templates': TEMPLATES,
    });
    const el = await fixture<AdminReviews>(html`<admin-reviews .api=${api}></admin-reviews>`);
    await until(() => $$(el, 'tbody tr').length === 1 && $$(el, 'select[name=template] option').length > 1, 'rows and templates');
    $<HTMLSelectElement>(el, 'select[name=flag]')!.value = 'photoshopped';
    $<HTMLSelectElement>(el, 'select[name=method]')!.value = 'email';
    $<HTMLSelectElement>(el, 'select[name=template]')!.value = 'tmpl_email';
    $<HTMLInputElement>(el, 'input[name=from]')!.value = '2026-05-01';
    $<HTMLInputElement>(el, 'input[name=to]')!.value = '2026-05-31';
    // Enter in a field submits the form, as a keyboard user would.
    $<HTMLInputElement>(el, 'input[name=to]')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => calls.some((c) => c.path.includes('flag=photoshopped')), 'filtered call');
    expect(Object.fromEntries(new URLSearchParams(calls.at(-1)!.path.split('?')[1]))).to.deep.equal({
      page: '1',
      per_page: '20',
      flag: 'photoshopped',
      method: 'email',
      template: 'tmpl_email',
      from: '2026-05-01',
      to: '2026-05-31',
    });
    const pager = $(el, 'admin-pager')!;
    await (pager as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    [...pager.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Next page')!.click();
    await until(() => calls.at(-1)!.path.includes('page=2'), 'second page');
    expect(calls.at(-1)!.path).to.contain('flag=photoshopped');
    [...$$<HTMLButtonElement>(el, 'button')].find((b) => b.textContent === 'Clear')!.click();
    await until(() => calls.at(-1)!.path === '/admin/api/reviews?page=1&per_page=20', 'cleared call');
    expect($<HTMLSelectElement>(el, 'select[name=flag]')!.value).to.equal('');
  });

  it("offers the customer's document requirements and the DEA number's checks as flags, named in words, grouped", async () => {
    const dea = {
      ...BY_HAND,
      reasons: ['The user was set to Review by hand.', 'DEA number: The check digit does not hold: the number is mistyped or made up.'],
      flags: ['dea_check_digit'],
    };
    const { api, calls } = fakeApi({ 'GET /admin/api/reviews': answer([dea]), 'GET /admin/api/templates': TEMPLATES });
    const el = await fixture<AdminReviews>(html`<admin-reviews .api=${api}></admin-reviews>`);
    await until(() => $$(el, 'tbody tr').length === 1, 'rows');
    const groups = Object.fromEntries(
      $$<HTMLOptGroupElement>(el, 'select[name=flag] optgroup').map((g) => [
        g.label,
        [...g.querySelectorAll('option')].map((o) => [o.value, o.textContent!.trim()]),
      ]),
    );
    expect(Object.keys(groups)).to.deep.equal(['Analysis', "Customer's document requirements", 'DEA number']);
    expect(groups["Customer's document requirements"]).to.deep.include.members([
      ['required_document_type', 'Required document type not met'],
      ['required_minimum_age', 'Under the minimum age'],
      ['required_expiry_margin', 'Document expires too soon'],
    ]);
    expect(groups['DEA number']).to.deep.equal([
      ['dea_format', 'DEA number malformed'],
      ['dea_check_digit', 'DEA check digit wrong'],
      ['dea_registrant_initial', 'DEA initial not the last name'],
      ['dea_registry', 'DEA registry did not confirm'],
    ]);
    expect([...$$(el, 'tbody li')].map((li) => li.textContent)).to.deep.equal(dea.reasons);

    for (const flag of ['required_document_type', 'dea_check_digit']) {
      $<HTMLSelectElement>(el, 'select[name=flag]')!.value = flag;
      // Enter in a field submits the form, as a keyboard user would.
      $<HTMLInputElement>(el, 'input[name=from]')!.focus();
      await sendKeys({ press: 'Enter' });
      await until(() => calls.at(-1)!.path.includes(`flag=${flag}`), `call filtered by ${flag}`);
      expect($<HTMLSelectElement>(el, 'select[name=flag]')!.value).to.equal(flag);
    }
    await expect(el).to.be.accessible();
  });

  it('filters by the duplicate flag, named in words', async () => {
    const { api, calls } = fakeApi({ 'GET /admin/api/reviews': answer([ROW]), 'GET /admin/api/templates': TEMPLATES });
    const el = await fixture<AdminReviews>(html`<admin-reviews .api=${api}></admin-reviews>`);
    await until(() => $$(el, 'tbody tr').length === 1, 'rows');
    const option = $$<HTMLOptionElement>(el, 'select[name=flag] option').find((o) => o.value === 'duplicate');
    expect(option?.textContent).to.equal('Possible duplicate (document or face of another user)');
    $<HTMLSelectElement>(el, 'select[name=flag]')!.value = 'duplicate';
    [...$$<HTMLButtonElement>(el, 'button')].find((b) => b.textContent === 'Apply')!.click();
    await until(() => calls.some((c) => c.path.includes('flag=duplicate')), 'filtered call');
  });
});
