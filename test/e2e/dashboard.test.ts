/**
 * End to end through the dashboard (issue 7): Debian's Chromium, driven by playwright-core, signs
 * an admin in at /admin, creates an API key and uses it against the API, adds a webhook endpoint,
 * sends a test payload that fails (410), re-enables the endpoint and retries it, creates a
 * template, adds a user and opens the user's link in a second browser context, completes the flow
 * there, sees the result and the webhook deliveries in the dashboard, revokes the key and sees the
 * API refuse it; then self-signup from /signup to Verified.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerity, type Verity } from '../../server/app.js';
import { hashPassword } from '../../server/auth/passwords.js';
import { loadConfig } from '../../server/config.js';
import { listOutbox } from '../../server/notify/outbox.js';
import { createUser } from '../../server/services/users.js';
import { readSettings } from '../../server/store/repos/settings-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';

const root = resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'ops@example.com', password: 'a very long admin passphrase' };

function run(args: string[]): void {
  const result = spawnSync('npx', args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`npx ${args.join(' ')} failed`);
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createNetServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => ok(port));
    });
  });
}

/** A webhook receiver on loopback: answers 410 to the first request, 200 after; keeps every body. */
function receiver(): Promise<{ server: Server; url: string; bodies: { type: string }[] }> {
  const bodies: { type: string }[] = [];
  let first = true;
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      if (first) {
        first = false;
        res.writeHead(410).end();
        return;
      }
      bodies.push(JSON.parse(text) as { type: string });
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies })),
  );
}

async function latestCode(dataDir: string, to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const [m] = await listOutbox(dataDir, { to });
    const code = /\b(\d{6})\b/.exec(m?.text ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code for ${to}`);
}

let browser: Browser;
let verity: Verity;
let base: string;
let dataDir: string;
let hooks: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  run(['vite', 'build', '--mode', 'dashboard']);
  if (!existsSync(join(root, 'dist/web/hosted/index.html'))) run(['vite', 'build', '--mode', 'hosted']);
  dataDir = await mkdtemp(join(tmpdir(), 'verity-e2e-dashboard-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    VERITY_DATA_DIR: dataDir,
    PORT: String(port),
    VERITY_BASE_URL: base,
    VERITY_SECRET: 'e2e-secret-'.padEnd(48, 'y'),
    VERITY_ALLOW_PRIVATE_WEBHOOKS: 'true',
    VERITY_LOG_LEVEL: 'silent',
  });
  verity = await buildVerity({ config, logger: false });
  await verity.app.listen({ port, host: '127.0.0.1' });
  await verity.startWorkers();
  await verity.ctx.db
    .insertInto('admins')
    .values({ email: ADMIN.email, password_hash: await hashPassword(ADMIN.password), created_at: new Date().toISOString() })
    .execute();
  hooks = await receiver();
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: chromiumArgs(),
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => hooks?.server.close(ok));
  await verity?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${base}/admin`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

async function nav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: name === 'Activity and admins' ? 'Activity and admins' : name }).waitFor();
}

describe('dashboard end to end', () => {
  it('runs a verification from the dashboard: key, webhook, template, user, flow, result, delivery, retry, revoke', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    await signIn(page);

    // An API key, shown once, that works against the API.
    await nav(page, 'Developers');
    await page.getByLabel('Name of the new key').fill('E2E backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^vk_live_/);
    const check = await fetch(`${base}/api/verify-credentials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'user-agent': 'e2e', accept: 'application/json' },
    });
    expect(check.status).toBe(200);

    // A webhook endpoint; its test payload meets a 410, the endpoint is re-enabled and the delivery retried.
    await page.getByLabel('Endpoint URL').fill(hooks.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Signing secret of endpoint').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('table.deliveries tr[data-state=failed]').count();
        },
        { timeout: 60_000 },
      )
      .toBe(1);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: /^Retry delivery/ }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('table.deliveries tr[data-state=succeeded]').count();
        },
        { timeout: 60_000 },
      )
      .toBe(1);
    expect(hooks.bodies).toHaveLength(1);

    // A template with the Email method.
    await nav(page, 'Templates');
    const form = page.locator('form.new-template');
    await form.getByLabel('Name (tmpl_…)').fill('tmpl_e2e');
    await form.getByLabel('Label').fill('E2E e-mail check');
    await form.getByLabel('Email', { exact: true }).check();
    await form.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('rowheader', { name: /E2E e-mail check/ }).waitFor();

    // A user with that template, and the user's link.
    await nav(page, 'Users');
    const add = page.locator('form.add');
    await add.getByRole('textbox', { name: 'E-mail' }).fill('e2e.person@example.com');
    await add.getByRole('textbox', { name: 'First name' }).fill('Edna');
    await add.getByRole('combobox', { name: 'Template' }).selectOption('tmpl_e2e');
    await add.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('button', { name: 'Make link' }).click();
    const link = await page.getByLabel('Link', { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${base}/security-verify\\?`));
    await page.getByRole('img', { name: 'QR code of the short link' }).waitFor();

    // The person completes the flow in another browser.
    const person = await browser.newContext({ locale: 'en-GB' });
    const flow = await person.newPage();
    await flow.goto(link);
    await flow.getByRole('button', { name: 'Start' }).click();
    await flow.getByRole('button', { name: 'Send code' }).click();
    await flow.getByLabel('Code').waitFor();
    await flow.getByLabel('Code').fill(await latestCode(dataDir, 'e2e.person@example.com'));
    await flow.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => (await flow.textContent('body')) ?? '', { timeout: 60_000 }).toBeTruthy();

    // The result in the dashboard.
    await page.getByRole('link', { name: 'e2e.person@example.com' }).click();
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Edna' }).waitFor();
          return page.locator('dd.user-status').textContent();
        },
        { timeout: 60_000 },
      )
      .toBe('Verified');
    expect(await page.locator('tr[data-method=email] td.status').textContent()).toContain('Complete');

    // The webhook deliveries of the journey.
    await nav(page, 'Developers');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('table.deliveries tr[data-state=succeeded]').count();
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThanOrEqual(3);
    expect(hooks.bodies.map((b) => b.type)).toEqual(expect.arrayContaining(['verification.completed', 'user.status.changed']));
    await page
      .getByRole('button', { name: /^Show delivery/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /^Delivery \d+/ }).waitFor();

    // Revoke the key; the API refuses it.
    await page.getByRole('button', { name: 'Revoke E2E backend' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key "E2E backend" revoked.').waitFor();
    const refused = await fetch(`${base}/api/users`, { headers: { authorization: `Bearer ${key}`, 'user-agent': 'e2e', accept: 'application/json' } });
    expect(refused.status).toBe(401);

    // Every change is in the audit log.
    await nav(page, 'Activity and admins');
    const audit = (await page.locator('table.audit').textContent()) ?? '';
    for (const action of ['api_key.create', 'template.create', 'user.create', 'api_key.revoke']) expect(audit).toContain(action);
    await person.close();
    await context.close();
  }, 400_000);

  it('self-signup: switched on in the dashboard, a person signs up, confirms the e-mail code and ends Verified', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    await signIn(page);
    await nav(page, 'Settings');
    const form = page.locator('form[aria-labelledby=signup]');
    await form.getByLabel(/People may sign up/).check();
    await form.getByLabel('Template for people who sign up').selectOption('tmpl_email');
    await form.getByRole('button', { name: 'Save signup and retention' }).click();
    await page.getByText('Signup and retention saved.').waitFor();

    const visitor = await browser.newContext({ locale: 'en-GB' });
    const signup = await visitor.newPage();
    await signup.goto(`${base}/signup`);
    await signup.getByLabel('E-mail').fill('self.signup@example.com');
    await signup.getByLabel('First name (optional)').fill('Sid');
    await signup.getByRole('button', { name: 'Sign up' }).click();
    await signup.getByLabel('Code from the e-mail').fill(await latestCode(dataDir, 'self.signup@example.com'));
    await signup.getByRole('button', { name: 'Confirm' }).click();
    await signup.waitForURL(/\/security-verify\?/);

    await nav(page, 'Users');
    await page.getByRole('searchbox', { name: 'Search' }).fill('self.signup@example.com');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('link', { name: 'Sid' }).click();
    await expect.poll(async () => page.locator('dd.user-status').textContent(), { timeout: 10_000 }).toBe('Verified');
    await visitor.close();
    await context.close();
  }, 240_000);

  it('branding preview: the real hosted page follows unsaved edits, and starts nothing', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const sessionCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/session')) sessionCalls.push(r.url());
    });
    await signIn(page);
    await nav(page, 'Settings');
    const saved = await readSettings(verity.ctx.db);
    await page.getByLabel('Account name').fill('Preview Bank');
    // A colour picker's value, as the browser's picker sets it.
    await page.getByLabel('Primary colour').evaluate((el: HTMLInputElement) => {
      el.value = '#aa0044';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const frame = page.frameLocator('iframe[title="Preview of the hosted page"]');
    const flow = frame.locator('verify-flow');
    // The hosted app's own element (not a mock), with the draft name and colour.
    await expect
      .poll(async () => flow.evaluate((el) => el.shadowRoot?.querySelector('header')?.textContent?.trim()).catch(() => null), { timeout: 15_000 })
      .toBe('Preview Bank');
    await expect
      .poll(async () => flow.evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('.intro button')!).backgroundColor).catch(() => null), {
        timeout: 15_000,
      })
      .toBe('rgb(170, 0, 68)');
    await frame.getByRole('button', { name: 'Start' }).click();
    await frame.getByText('This is a preview: nothing is started or sent.').waitFor();
    await page.waitForTimeout(300);
    expect(sessionCalls).toEqual([]);
    expect(problems).toEqual([]);
    // Nothing was saved.
    expect((await readSettings(verity.ctx.db)).account_name).toBe(saved.account_name);
    await context.close();
  }, 240_000);

  it('every view of the built dashboard and the signup page: no axe violations, no CSP violations, usable by keyboard', async () => {
    const axeSource = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const axe = async (where: string) => {
      // The page itself ran under its CSP without a violation so far…
      await page.waitForTimeout(200);
      expect(cspErrors, `CSP violations on ${where}`).toEqual([]);
      // …then axe, evaluated through the DevTools protocol (axe's own probes trip the CSP: ignored).
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const result = await (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(
          document,
        );
        return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
      expect(violations, where).toEqual([]);
      await page.waitForTimeout(200);
      cspErrors.length = 0;
    };

    // Sign in by keyboard alone.
    await page.goto(`${base}/admin`);
    await page.getByLabel('E-mail').waitFor();
    await axe('sign-in');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await axe('overview');

    for (const [name, ready] of [
      ['Users', 'Add a user'],
      ['Templates', 'New template'],
      ['Settings', 'Knowledge questions'],
      ['Developers', 'Delivery log'],
      ['Activity and admins', 'Audit log'],
    ] as const) {
      await nav(page, name);
      await page.getByRole('heading', { name: ready }).waitFor();
      // Focus moved to the view's heading, so a screen reader announces the new page.
      expect(
        await page.evaluate(() => {
          let el: Element | null = document.activeElement;
          while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
          return el?.tagName;
        }),
      ).toBe('H1');
      await axe(name);
    }

    // A user page.
    await createUser(verity.ctx, { email: 'axe.check@example.com', first_name: 'Axel', template_id: 'tmpl_contact' });
    await nav(page, 'Users');
    await page.getByRole('link', { name: 'Axel' }).click();
    await page.getByRole('heading', { name: 'Verifications' }).waitFor();
    await axe('user page');

    // The signup page.
    await page.goto(`${base}/signup`);
    await page.getByRole('heading', { name: /Sign up/ }).waitFor();
    await axe('signup');
    await context.close();
  }, 240_000);
});
