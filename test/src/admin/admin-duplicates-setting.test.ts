import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/admin/components/admin-duplicates-setting.js';
import type { AdminDuplicatesSetting } from '../../../src/admin/components/admin-duplicates-setting.js';
import { $, $$, fakeApi, until, type Call } from './fake-api.js';

async function setting(mode = 'review') {
  const fake = fakeApi({
    'GET /admin/api/settings': { data: { duplicates: { mode } } },
    'PATCH /admin/api/settings': (c: Call) => ({ body: { data: { duplicates: (c.body as { duplicates: unknown }).duplicates } } }),
  });
  const el = await fixture<AdminDuplicatesSetting>(html`<admin-duplicates-setting .api=${fake.api}></admin-duplicates-setting>`);
  await until(() => $$(el, 'input[name=mode]').length === 3, 'choices');
  return { el, ...fake };
}

describe('<admin-duplicates-setting>', () => {
  it('shows the saved mode among the three, and is accessible', async () => {
    const { el } = await setting('flag');
    const checked = $$<HTMLInputElement>(el, 'input[name=mode]').filter((i) => i.checked);
    expect(checked.map((i) => i.value)).to.deep.equal(['flag']);
    expect($(el, 'legend')!.textContent).to.equal('When a duplicate is found');
    await expect(el).to.be.accessible();
  });

  it('saves the mode chosen with the keyboard', async () => {
    const { el, calls } = await setting('review');
    $<HTMLInputElement>(el, 'input[value=review]')!.focus();
    // Arrow keys move the choice within a radio group, as a keyboard user would.
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    expect($<HTMLInputElement>(el, 'input[value=off]')!.checked).to.equal(true);
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement?.textContent).to.equal('Save duplicate detection');
    await sendKeys({ press: 'Enter' });
    await until(() => calls.some((c) => c.method === 'PATCH'), 'save');
    expect(calls.find((c) => c.method === 'PATCH')!.body).to.deep.equal({ duplicates: { mode: 'off' } });
    await until(() => $(el, '[role=status]')!.textContent!.includes('Duplicate detection saved.'), 'status');
  });
});
