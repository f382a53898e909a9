import { html, nothing } from 'lit';

/** A check's outcome as the server reports it (verification checks, the case's DEA checks). */
export type CheckOutcome = 'passed' | 'flagged' | 'failed' | 'not_run';

/** The outcome in words; its colour comes from `outcomeStyles` by the row's class. */
export const OUTCOME_WORDS: Record<CheckOutcome, string> = {
  passed: 'Passed',
  flagged: 'Flagged',
  failed: 'Failed',
  not_run: 'Not run',
};

export interface CheckRow {
  /** What was checked, in words. */
  label: string;
  outcome: CheckOutcome;
  reason: string | null;
  /** The number behind the outcome (a score), when the check has one. */
  value?: number | null;
}

/**
 * Checks as rows: what was checked, its outcome in words, why, and the number behind it (a column
 * only when some row has one). One table for the user page's verifications and the case's DEA number.
 */
export function checksTable(caption: string, rows: readonly CheckRow[], className = 'checks') {
  if (rows.length === 0) return nothing;
  const valued = rows.some((r) => r.value !== undefined && r.value !== null);
  return html`<table class=${className}>
    <caption class="sr-only">
      ${caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">Check</th>
        <th scope="col">Outcome</th>
        <th scope="col">Reason</th>
        ${valued ? html`<th scope="col">Value</th>` : nothing}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr class=${r.outcome}>
            <th scope="row">${r.label}</th>
            <td class="outcome">${OUTCOME_WORDS[r.outcome]}</td>
            <td class="reason">${r.reason ?? ''}</td>
            ${valued ? html`<td>${r.value === undefined || r.value === null ? '' : r.value.toFixed(2)}</td>` : nothing}
          </tr>`,
      )}
    </tbody>
  </table>`;
}
