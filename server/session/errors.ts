/** The session API's errors live in the one catalogue (server/errors.ts); kept for its importers. */
export { SessionApiError, sessionErrors, type SessionErrorDetails } from '../errors.js';
