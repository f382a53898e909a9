import type { BrowserContext, Page } from 'playwright-core';

/**
 * A platform authenticator with user verification in the page's browser: Chromium's virtual one
 * (DevTools protocol), standing for a phone's fingerprint or a laptop's screen lock. Answers a
 * function that counts the passkeys it holds.
 */
export async function addPlatformAuthenticator(context: BrowserContext, page: Page): Promise<() => Promise<number>> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length;
}
