/** The token and hash primitives live in the crypto module (server/crypto/tokens.ts); kept for its importers. */
export { keyedHash, randomToken, safeEqual, sha256Hex } from '../crypto/tokens.js';
