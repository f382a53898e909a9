import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/admin/components/admin-templates.js';
import '../../../src/admin/components/admin-overview.js';
import type { AdminTemplates } from '../../../src/admin/components/admin-templates.js';
import type { AdminConfirm } from '../../../src/admin/components/admin-confirm.js';
import { $, $$, fakeApi, TEMPLATES, until } from './fake-api.js';

describe('<admin-templates>', () => {
  it('creates a template from the ticked methods and workflows', async () => {
    const { api, calls } = fakeApi({ 'GET /admin/api/templates': TEMPLATES, 'POST /admin/api/templates': { data: { id: 2, name: 'tmpl_new' } } });
    const el = await fixture<AdminTemplates>(html`<admin-templates .api=${api}></admin-templates>`);
    await until(() => $(el, 'form.new-template') !== null);
    const form = $<HTMLFormElement>(el, 'form.new-template')!;
    form.querySelector<HTMLInputElement>('[name=name]')!.value = 'tmpl_new';
    form.querySelector<HTMLInputElement>('[name=label]')!.value = 'New';
    form.querySelector<HTMLInputElement>('[name=methods][value=phone]')!.checked = true;
    form.querySelector<HTMLInputElement>('[name=workflows][value=flow_id_document]')!.checked = true;
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => calls.some((c) => c.method === 'POST'));
    expect(calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ name: 'tmpl_new', label: 'New', methods: ['phone'], workflows: ['flow_id_document'] });
    await expect(el).to.be.accessible();
  });

  it('does not offer methods the end-user flow has no step for, and says so', async () => {
    const { api } = fakeApi({ 'GET /admin/api/templates': TEMPLATES });
    const el = await fixture<AdminTemplates>(html`<admin-templates .api=${api}></admin-templates>`);
    await until(() => $(el, 'form.new-template') !== null);
    const form = $<HTMLFormElement>(el, 'form.new-template')!;
    const bank = form.querySelector<HTMLInputElement>('[name=methods][value=bank]')!;
    expect(bank.disabled).to.equal(true);
    expect(bank.closest('label')!.textContent).to.contain('not in the flow yet');
    expect(form.querySelector<HTMLInputElement>('[name=methods][value=phone]')!.disabled).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('asks before deleting a template and names how many users have it', async () => {
    const { api, calls } = fakeApi({ 'GET /admin/api/templates': TEMPLATES, 'DELETE /admin/api/templates/1': { success: true } });
    const el = await fixture<AdminTemplates>(html`<admin-templates .api=${api}></admin-templates>`);
    await until(() => $$(el, 'tbody tr').length === 1);
    $$<HTMLButtonElement>(el, 'button')
      .find((b) => b.getAttribute('aria-label') === 'Delete tmpl_email')!
      .click();
    const dialog = $<AdminConfirm>(el, 'admin-confirm')!;
    await until(() => dialog.shadowRoot!.querySelector('dialog')!.open);
    expect(dialog.shadowRoot!.textContent).to.contain('3 users have it');
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('button.confirm')!.click();
    await until(() => calls.some((c) => c.method === 'DELETE'));
  });
});
