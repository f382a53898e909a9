import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../../server/webhooks/address-guard.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, attempts, createUser, deliveries, moveEmail, settle } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('webhooks to private addresses', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeEach(async () => {
    server = await startTestServer({ env: { VERITY_ALLOW_PRIVATE_WEBHOOKS: 'false' } });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await server.close();
    await receiver.close();
  });

  it('are refused for a literal loopback address and for a name that resolves to one', async () => {
    await addEndpoint(server, { url: receiver.url, events: ['verification.completed'] });
    await addEndpoint(server, { url: `http://localhost:${receiver.port}/hooks`, events: ['verification.completed'] });
    const userId = await createUser(server);
    await moveEmail(server, userId, 'complete');
    await settle(server);
    const rows = await deliveries(server);
    expect(rows).toHaveLength(2);
    for (const d of rows) {
      const [a] = await attempts(server, d.id);
      expect(a!.response_status).toBeNull();
      expect(a!.error).toMatch(/^refused: .*VERITY_ALLOW_PRIVATE_WEBHOOKS=true/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});
