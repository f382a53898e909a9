import { html, nothing } from 'lit';
import type { UserDetail } from '../../api/admin/users.js';

/** The document workflows and API document jobs of a user's page (raw results behind a disclosure). */
export function renderDocumentRecords(d: UserDetail) {
  return html`${
    d.workflows.length
      ? html`<h3>Document workflows</h3>
          <ul>
            ${d.workflows.map((w) => html`<li>${w.id}: ${w.status.friendly}${w.remarks ? ` — ${w.remarks}` : ''}</li>`)}
          </ul>`
      : nothing
  }${
    d.document_jobs.length
      ? html`<h3>Document verification jobs</h3>
          <table class="jobs">
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Status</th>
                <th scope="col">Results</th>
                <th scope="col">Image</th>
              </tr>
            </thead>
            <tbody>
              ${d.document_jobs.map(
                (j) =>
                  html`<tr>
                    <th scope="row">${j.doc_id}<br /><span class="muted">${j.source}, ${j.created_at}</span></th>
                    <td>${j.status}${j.reason ? html`<br /><span class="muted">${j.reason}</span>` : nothing}</td>
                    <td>
                      ${
                        j.document_data
                          ? html`<details>
                              <summary>Document data</summary>
                              <pre>${JSON.stringify(j.document_data, null, 2)}</pre>
                            </details>`
                          : '—'
                      }
                    </td>
                    <td><img src=${j.image_url} alt=${`Document ${j.doc_id}`} width="160" loading="lazy" /></td>
                  </tr>`,
              )}
            </tbody>
          </table>`
      : nothing
  }`;
}

/** What the verification flow captured, through short-lived signed URLs. */
export function renderCapturedImages(d: UserDetail) {
  return d.images.length
    ? html`<ul class="images">
        ${d.images.map(
          (i) =>
            html`<li>
              ${
                i.url
                  ? html`<img src=${i.url} alt=${`${i.method} ${i.document_type ?? ''} ${i.side ?? i.step ?? ''}`.trim()} width="240" loading="lazy" />`
                  : html`<span>${i.media_type} file</span>`
              }
              <span class="muted">${i.created_at}</span>
            </li>`,
        )}
      </ul>`
    : html`<p class="muted">
        ${
          d.document_jobs.length
            ? 'Nothing captured in the verification flow; documents sent through the API are under “Document verification jobs” above.'
            : 'No images.'
        }
      </p>`;
}
