import { html, nothing, type TemplateResult } from 'lit';
import type { AdminUser } from '../api/admin/users.js';

export interface UserTableOptions {
  /** Add a column naming each of the user's verifications with its status. */
  verifications?: boolean;
}

/**
 * A table of users, one row each: the name (the username when there is none) linking to the
 * user's page, the e-mail, the status, optionally the verifications, and the creation time.
 * Shared by the users list and the overview's latest registrations, so that both show a user alike.
 */
export function userTable(users: readonly AdminUser[], { verifications = false }: UserTableOptions = {}): TemplateResult {
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">E-mail</th>
        <th scope="col">Status</th>
        ${verifications ? html`<th scope="col">Verifications</th>` : nothing}
        <th scope="col">Created</th>
      </tr>
    </thead>
    <tbody>
      ${users.map(
        (u) =>
          html`<tr>
            <td><a href="/admin/users/${u.id}">${`${u.first_name} ${u.last_name}`.trim() || u.username}</a></td>
            <td>${u.email}</td>
            <td>${u.status}</td>
            ${verifications ? html`<td>${u.verifications.map((v) => `${v.name}: ${v.status.friendly}`).join(', ')}</td>` : nothing}
            <td>${u.created_at}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
