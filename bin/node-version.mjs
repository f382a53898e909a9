// Fastify and two of its plugins load ES-module-only packages (`cookie`, `content-disposition`)
// with require(), which Node does without a flag from 20.19, 22.12 and 23 on (not 21). On an older Node the
// server would die on its first import with ERR_REQUIRE_ESM; say what to do instead.

/** @param {string} version e.g. "20.18.1" @returns {string | null} why this Node cannot run Verity */
export function unsupportedNode(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major >= 23 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
  return supported ? null : `Verity needs Node 20.19 or newer (22.12 or newer on Node 22); this is Node ${version}.`;
}
