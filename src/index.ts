/**
 * Verity's web components: `<verify-button>` and `<verify-flow>`, plus their public types.
 * Importing this module registers both elements.
 */
export { VerifyButton } from './components/verify-button/verify-button.js';
export { VerifyFlow } from './components/verify-flow/verify-flow.js';
export * from './events/events.js';
export { ApiError, SessionClient } from './api/session-client.js';
export type * from './api/contract.js';
