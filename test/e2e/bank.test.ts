/**
 * Bank end to end (issue 22): Debian's Chromium, driven by playwright-core, opens a user's magic
 * link on the hosted page and enters an IBAN; the page says two deposits are on their way. The
 * operator reads the amounts from the dashboard's payouts (as they would to pay them by hand) and
 * marks them paid; days later the user opens the same link again, lands on the amount entry, enters
 * the amounts and is redirected to the completion URL. Then the phone size, in Arabic.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { chromiumForFile, hostedServerEachTest } from '../helpers/e2e-setup.js';
import { openHosted, policyErrors, type CustomerSite } from '../helpers/hosted-e2e.js';
import type { ManualClock } from '../helpers/manual-clock.js';
import type { TestServer } from '../helpers/server.js';
import { operatorPaysDeposits } from '../helpers/flow-steps.js';
import { signedInAdmin } from '../server/http/admin/admin-client.js';
import { createUser, local } from '../server/session/fixtures.js';

let browser: Browser;
let server: TestServer;
let site: CustomerSite;

chromiumForFile((b) => (browser = b));

hostedServerEachTest((t) => ({ server, site } = t), {
  server: { queues: ['notify', 'bank-payouts'] },
  template: { name: 'tmpl_bank', label: 'Bank', methodIds: [11] },
  prepare: ({ server }) => writeSetting(server.verity.ctx.db, 'link_lifetime_hours', 720),
});

describe('Bank micro-deposits in Chromium', () => {
  it('hosted page: account → deposits paid by the operator → back through the same link → amounts → completion redirect', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-bank@example.com',
      first_name: 'Jane',
      last_name: 'Doe',
      template_id: 'tmpl_bank',
      reference_id: 'ref-bank',
      completion_url: `${site.url}/done`,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const { page, errors } = await openHosted(context, local(server, link));
    await page.getByLabel('Name on the account').fill('Jane Doe');
    await page.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 00');
    await page.getByRole('button', { name: 'Send the deposits' }).click();
    await page.getByText('account ending 3000').waitFor();
    await page.close();

    const [first, second] = await operatorPaysDeposits(server, await signedInAdmin(server), 'DE89370400440532013000');
    (server.clock as ManualClock).advance(2 * 86_400_000);

    const again = await context.newPage();
    await again.goto(local(server, link));
    // The flow opens at the amount entry: the step was started on the first visit.
    await again.getByLabel('First deposit (EUR)').fill(second);
    await again.getByLabel('Second deposit (EUR)').fill(first);
    await again.getByRole('button', { name: 'Confirm' }).click();
    await again.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(again.url()).searchParams.get('reference_id')).toBe('ref-bank');
    const user = (await server.api(`/api/users/${id}`)).body.data;
    expect(user.verifications).toEqual([{ id: 11, name: 'Bank', status: { value: 2, friendly: 'Complete' } }]);
    expect((await server.api(`/api/users/${id}/verifications/bank`)).body.attributes).toMatchObject({
      account_last4: '3000',
      account_holder_name_match: 'full',
    });
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);
});
