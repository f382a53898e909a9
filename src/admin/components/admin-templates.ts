import { html, nothing } from 'lit';
import type { TemplateInfo, TemplatesAnswer } from '../../api/admin/templates.js';
import { AdminView } from './admin-view.js';

/** Verification templates and document workflows; which template new users and re-verification get. */
export class AdminTemplates extends AdminView {
  static override properties = { ...AdminView.properties, data: { state: true }, editing: { state: true } };
  declare data: TemplatesAnswer | undefined;
  /** Id of the template being edited. */
  declare editing: number | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    const data = await this.run(() => this.client.get<TemplatesAnswer>('/admin/api/templates'));
    if (data) this.data = data;
  }

  #checked(form: HTMLFormElement, name: string): string[] {
    return new FormData(form).getAll(name).map(String);
  }

  async #create(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const body = {
      name: String(data.get('name')),
      label: String(data.get('label')),
      methods: this.#checked(form, 'methods'),
      workflows: this.#checked(form, 'workflows'),
    };
    const ok = await this.run(() => this.client.post('/admin/api/templates', body), `Template ${body.name} created.`);
    if (ok) {
      form.reset();
      await this.load();
    }
  }

  async #save(e: SubmitEvent, t: TemplateInfo): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const body = { label: String(new FormData(form).get('label')), methods: this.#checked(form, 'methods'), workflows: this.#checked(form, 'workflows') };
    const ok = await this.run(() => this.client.patch(`/admin/api/templates/${t.id}`, body), `Template ${t.name} saved.`);
    if (ok) {
      this.editing = undefined;
      await this.load();
    }
  }

  async #delete(t: TemplateInfo): Promise<void> {
    if (!(await this.confirmAction(`Delete template ${t.name}? ${t.users} users have it; they keep their current verifications.`, 'Delete template'))) return;
    if (await this.run(() => this.client.del(`/admin/api/templates/${t.id}`), `Template ${t.name} deleted.`)) await this.load();
  }

  async #roles(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const body = {
      default_template: String(data.get('default_template')) || null,
      reverification_template: String(data.get('reverification_template')) || null,
    };
    if (await this.run(() => this.client.put('/admin/api/templates/roles', body), 'Saved.')) await this.load();
  }

  async #createWorkflow(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const types = String(data.get('document_types'))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (await this.run(() => this.client.post('/admin/api/workflows', { name: String(data.get('name')), document_types: types }), 'Workflow created.')) {
      form.reset();
      await this.load();
    }
  }

  #methodBoxes(selected: string[], legend: string) {
    return html`<fieldset>
      <legend>${legend}</legend>
      ${this.data!.methods.map(
        (m) =>
          html`<label class="inline"
            ><input type="checkbox" name="methods" value=${m.key} ?checked=${selected.includes(m.key)} ?disabled=${!m.in_flow && !selected.includes(m.key)} />
            ${m.name}${m.in_flow ? nothing : html` <small>(not in the flow yet)</small>`}</label
          >`,
      )}
    </fieldset>`;
  }

  #workflowBoxes(selected: string[]) {
    return html`<fieldset>
      <legend>Document workflows (for Document / ID)</legend>
      ${this.data!.workflows.map((w) => html`<label class="inline"><input type="checkbox" name="workflows" value=${w.id} ?checked=${selected.includes(w.id)} /> ${w.name}</label>`)}
    </fieldset>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Templates</h1>
      ${this.data ? this.#body(this.data) : html`<p>Loading…</p>`}${this.feedback()}`;
  }

  #body(d: TemplatesAnswer) {
    return html`<table>
        <thead>
          <tr>
            <th scope="col">Template</th>
            <th scope="col">Methods</th>
            <th scope="col">Users</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          ${d.data.map(
            (t) =>
              html`<tr>
                  <th scope="row">${t.label}<br /><span class="muted">${t.name}</span></th>
                  <td>${t.methods.map((m) => m.name).join(', ')}</td>
                  <td>${t.users}</td>
                  <td class="row">
                    <button type="button" class="secondary" aria-label=${`Edit ${t.name}`} @click=${() => (this.editing = t.id)}>Edit</button>
                    <button type="button" class="danger" aria-label=${`Delete ${t.name}`} @click=${() => this.#delete(t)}>Delete</button>
                  </td>
                </tr>
                ${
                  this.editing === t.id
                    ? html`<tr>
                        <td colspan="4">
                          <form aria-label=${`Edit ${t.name}`} @submit=${(e: SubmitEvent) => this.#save(e, t)}>
                            <label>Label <input name="label" required .value=${t.label} /></label>
                            ${this.#methodBoxes(
                              t.methods.map((m) => m.key),
                              'Verification methods',
                            )}
                            ${this.#workflowBoxes(t.workflows)}
                            <div class="row">
                              <button type="submit">Save</button
                              ><button type="button" class="secondary" @click=${() => (this.editing = undefined)}>Cancel</button>
                            </div>
                          </form>
                        </td>
                      </tr>`
                    : nothing
                }`,
          )}
        </tbody>
      </table>
      <h2 id="roles-title">Defaults</h2>
      <form aria-labelledby="roles-title" @submit=${this.#roles}>
        <label
          >Template for new users without one
          <select name="default_template">
            <option value="">None</option>
            ${d.data.map((t) => html`<option value=${t.name} ?selected=${t.name === d.default_template}>${t.label}</option>`)}
          </select>
        </label>
        <label
          >Template re-verification uses
          <select name="reverification_template">
            <option value="">None</option>
            ${d.data.map((t) => html`<option value=${t.name} ?selected=${t.name === d.reverification_template}>${t.label}</option>`)}
          </select>
        </label>
        <div><button type="submit">Save defaults</button></div>
      </form>
      <h2 id="new-title">New template</h2>
      <form aria-labelledby="new-title" class="new-template" @submit=${this.#create}>
        <label>Name (tmpl_…) <input name="name" required pattern="tmpl_[A-Za-z0-9_\\-]{1,64}" placeholder="tmpl_onboarding" /></label>
        <label>Label <input name="label" required /></label>
        ${this.#methodBoxes([], 'Verification methods')} ${this.#workflowBoxes([])}
        <div><button type="submit">Create template</button></div>
      </form>
      <h2 id="wf-title">Document workflows</h2>
      <ul>
        ${d.workflows.map((w) => html`<li>${w.name} <span class="muted">(${w.id}: ${w.document_types.join(', ')})</span></li>`)}
      </ul>
      <form aria-labelledby="wf-title" @submit=${this.#createWorkflow}>
        <label>Workflow name <input name="name" required /></label>
        <label>Document types (comma separated, e.g. passport, id_card, driving_licence) <input name="document_types" required /></label>
        <div><button type="submit">Create workflow</button></div>
      </form>`;
  }
}

if (!customElements.get('admin-templates')) customElements.define('admin-templates', AdminTemplates);

declare global {
  interface HTMLElementTagNameMap {
    'admin-templates': AdminTemplates;
  }
}
