import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpOpenBankingProvider, OpenBankingUnavailable } from '../../../../server/methods/bank/open-banking.js';
import { startTestServer } from '../../../helpers/server.js';
import { signedInAdmin } from '../../http/admin/admin-client.js';
import { bankUser, IBAN, pendingAmounts } from './fixtures.js';
import { CONTRACT_HOLDERS, CONTRACT_IBAN, openBankingContract, type ContractBank } from './open-banking-contract.js';

const TOKEN = 'bank-token-0123456789';

/** A small bank on loopback speaking the account-holder protocol: the contract's peer, not product code. */
class FakeBank implements ContractBank {
  readonly holders = CONTRACT_HOLDERS;
  readonly requests: { url: string; body: string; authorization: string | undefined }[] = [];
  #failing = false;
  #server: Server | undefined;
  url = '';

  failing(on: boolean): void {
    this.#failing = on;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      void readBody(req).then((body) => {
        this.requests.push({ url: req.url ?? '', body, authorization: req.headers.authorization });
        const send = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        if (this.#failing) return send(500, { error: 'down' });
        if (req.method !== 'POST' || req.url !== '/account-holder') return send(404, {});
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, {});
        const q = JSON.parse(body) as { iban?: string; routing_number?: string; account_number?: string };
        const name = this.holders.get(q.iban ?? `${q.routing_number}:${q.account_number}`);
        return name ? send(200, { name }) : send(404, { error: 'no such account' });
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const bank = new FakeBank();
beforeAll(() => bank.start());
afterAll(() => bank.stop());

describe('open banking: the HTTP provider passes the provider contract', () => {
  openBankingContract(() => ({ provider: new HttpOpenBankingProvider({ url: bank.url, token: TOKEN }), bank }));
});

describe('open banking: the HTTP provider', () => {
  it('sends the account number in the body with the token, never in the URL', async () => {
    bank.requests.length = 0;
    await new HttpOpenBankingProvider({ url: bank.url, token: TOKEN }).checkAccountHolder(CONTRACT_IBAN, { firstName: 'Jane', lastName: 'Doe' });
    expect(bank.requests).toEqual([{ url: '/account-holder', body: JSON.stringify({ country: 'DE', iban: IBAN }), authorization: `Bearer ${TOKEN}` }]);
  });

  it('treats refused credentials and an unreachable bank as unavailable', async () => {
    const wrongToken = new HttpOpenBankingProvider({ url: bank.url, token: 'wrong' });
    await expect(wrongToken.checkAccountHolder(CONTRACT_IBAN, { firstName: 'Jane', lastName: 'Doe' })).rejects.toBeInstanceOf(OpenBankingUnavailable);
    const nobody = new HttpOpenBankingProvider({ url: 'http://127.0.0.1:9', token: TOKEN }, 2000);
    await expect(nobody.checkAccountHolder(CONTRACT_IBAN, { firstName: 'Jane', lastName: 'Doe' })).rejects.toBeInstanceOf(OpenBankingUnavailable);
  });

  it('checks the holder at account entry when configured, and the attributes say the bank’s record was compared', async () => {
    const server = await startTestServer({ env: { VERITY_OPEN_BANKING_URL: bank.url, VERITY_OPEN_BANKING_TOKEN: TOKEN } });
    try {
      // The user typed a name that is not theirs; the bank's record is what counts.
      const { session, userId } = await bankUser(server);
      await signedInAdmin(server);
      await session.submitBankAccount({ kind: 'iban', holder_name: 'Someone Else', iban: IBAN });
      const done = await session.verifyBankDeposits({ amounts: await pendingAmounts(server, userId) });
      expect(done.method.status).toBe('complete');
      const res = await server.api(`/api/users/${userId}/verifications/bank`);
      expect(res.body.attributes).toMatchObject({ account_holder_name_match: 'full', account_holder_checked_by: 'open_banking' });
    } finally {
      await server.close();
    }
  });
});
