/** One-time codes are sealed by the crypto module (server/crypto/seal.ts); kept for its importers. */
export { sealNotifyCode as seal, openNotifyCode as unseal } from '../crypto/seal.js';
