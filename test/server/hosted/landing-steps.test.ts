/**
 * Issue 24: the landing page says what this user's template needs. The hosted app gets the
 * user's steps in its page data (the flow's intro lists them and what to have at hand); the
 * customer's e-mail-only user is no longer told to have an ID document ready.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

async function pageSteps(template: string): Promise<unknown> {
  const created = await server.api('/api/users', { body: { email: `${template}@example.test`, template_id: template } });
  const link = new URL(String(created.body.magic_link ?? created.body.data?.magic_link));
  const html = await (await fetch(`${server.url}${link.pathname}${link.search}`)).text();
  const block = /<script type="application\/json" id="verity-page" nonce="[^"]+">(.*?)<\/script>/.exec(html);
  expect(block, 'the hosted app build (dist/web/hosted) is served with its page data').not.toBeNull();
  return (JSON.parse(block![1]!) as { steps?: unknown }).steps;
}

describe('the landing page knows the user’s steps', () => {
  it('lists the steps of the template, in order, and nothing it does not hold', async () => {
    expect(await pageSteps('tmpl_email')).toEqual(['email']);
    expect(await pageSteps('tmpl_id_selfie')).toEqual(['document_id', 'selfie']);
  });
});
