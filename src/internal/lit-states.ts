/**
 * Lit's declaration of internal reactive state, one entry per name: `states('phase', 'busy')` is
 * `{ phase: { state: true }, busy: { state: true } }`, spread into an element's `properties`.
 */
export function states<const N extends string>(...names: readonly N[]): Record<N, { state: true }> {
  return Object.fromEntries(names.map((name) => [name, { state: true }])) as Record<N, { state: true }>;
}
