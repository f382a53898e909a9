/** The test marker of architecture.md: the product's upper-case name followed by `_WEBHOOK_TESTING`. */
export const TEST_MARKER = 'VERITY_WEBHOOK_TESTING';

/**
 * Test identities (spec 6.1): username starts with the marker, or e-mail contains it. Compared
 * without regard to case, as e-mail addresses are.
 */
export function isTestIdentity(user: { username: string | null; email: string | null }): boolean {
  const marker = TEST_MARKER.toLowerCase();
  return (user.username ?? '').toLowerCase().startsWith(marker) || (user.email ?? '').toLowerCase().includes(marker);
}
