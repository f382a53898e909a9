/**
 * A small customer site for trying Verity end to end (`npm run demo`):
 * - its backend creates a user through Verity's API with an API key (never sent to the browser);
 * - its page embeds `<verify-button>` in each mode (redirect, modal, popup) and `<verify-flow>`
 *   inline, by script tag from Verity;
 * - it receives Verity's webhooks, checks each `Signature` (HMAC-SHA256 of the raw body with the
 *   endpoint's signing secret, compared in constant time) and shows them, verified or not.
 *
 * Environment:
 *   VERITY_URL            Verity's base URL (default http://localhost:8080)
 *   VERITY_API_KEY        an API key (`npm run verity -- keys create --name demo`)
 *   VERITY_WEBHOOK_SECRET the signing secret of a webhook endpoint pointing at DEMO_URL/webhooks
 *                         (`npm run verity -- webhooks create --url http://localhost:3000/webhooks`)
 *   VERITY_TEMPLATE       optional template for new users (e.g. tmpl_id_selfie)
 *   DEMO_PORT             default 3000; DEMO_URL defaults to http://localhost:DEMO_PORT
 * For the modal embed and the inline flow, add DEMO_URL to the account's allowed origins
 * (dashboard settings) so Verity lets this page frame it and call the session API.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const VERITY_URL = (process.env.VERITY_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
const API_KEY = process.env.VERITY_API_KEY ?? '';
const WEBHOOK_SECRET = process.env.VERITY_WEBHOOK_SECRET ?? '';
const TEMPLATE = process.env.VERITY_TEMPLATE ?? '';
const PORT = Number(process.env.DEMO_PORT ?? 3000);
const DEMO_URL = (process.env.DEMO_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, '');

/** A webhook as shown on the page (no payload bodies kept: they carry personal data). */
interface ReceivedEvent {
  received_at: string;
  verified: boolean;
  type: string;
  reference_id: string | null;
  user_status: string | null;
  verification_name: string | null;
}

const events: ReceivedEvent[] = [];
let counter = 0;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

async function readBody(req: IncomingMessage, limit = 1_000_000): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Checks a `Signature` header against the raw body (spec 6.4), in constant time. */
export function signatureValid(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 52rem; padding: 0 1rem; color: #14171f; }
  section { border: 1px solid #d5d9e0; border-radius: 8px; padding: 1rem 1.25rem; margin-block: 1rem; }
  label { display: block; margin-block: 0.5rem; }
  input { font: inherit; padding: 0.4rem; }
  table { border-collapse: collapse; width: 100%; }
  td, th { text-align: start; padding: 0.3rem 0.5rem; border-block-end: 1px solid #eee; }
  .ok { color: #1b7a3d; } .bad { color: #b3261e; }
  verify-button { --verify-primary: #0a7d43; }
</style>
</head>
<body>
<h1>Demo shop</h1>
${body}
<section aria-labelledby="events-title">
  <h2 id="events-title">Webhook events received</h2>
  <table><thead><tr><th>time</th><th>signature</th><th>type</th><th>method</th><th>user status</th><th>reference</th></tr></thead>
  <tbody id="events"></tbody></table>
</section>
<script>
  async function refresh() {
    const rows = await (await fetch('/events')).json();
    document.getElementById('events').replaceChildren(...rows.map((e) => {
      const tr = document.createElement('tr');
      for (const [text, cls] of [[e.received_at, ''], [e.verified ? 'verified' : 'NOT verified', e.verified ? 'ok' : 'bad'], [e.type, ''], [e.verification_name ?? '', ''], [e.user_status ?? '', ''], [e.reference_id ?? '', '']]) {
        const td = document.createElement('td'); td.textContent = text; if (cls) td.className = cls; tr.append(td);
      }
      return tr;
    }));
  }
  refresh(); setInterval(refresh, 3000);
</script>
</body>
</html>`;
}

function home(): string {
  return page(
    'Demo shop',
    `<section aria-labelledby="start-title">
  <h2 id="start-title">Verify a customer</h2>
  <p>Our backend creates the user in Verity (${escapeHtml(VERITY_URL)}) with its API key and hands this page the magic link.</p>
  <form method="post" action="/verify">
    <label>E-mail <input name="email" type="email" required autocomplete="email" /></label>
    <label>Phone (E.164, optional) <input name="phone" type="tel" placeholder="+33612345678" autocomplete="tel" /></label>
    <button type="submit">Create user and get a link</button>
  </form>
  ${API_KEY ? '' : '<p class="bad">VERITY_API_KEY is not set.</p>'}
  ${WEBHOOK_SECRET ? '' : '<p class="bad">VERITY_WEBHOOK_SECRET is not set: webhooks will show as not verified.</p>'}
</section>`,
  );
}

function embeds(link: string, reference: string): string {
  const l = escapeHtml(link);
  return page(
    'Verify',
    `<section aria-labelledby="embed-title">
  <h2 id="embed-title">Verify customer ${escapeHtml(reference)}</h2>
  <p>The same link, four ways:</p>
  <p><verify-button link="${l}" mode="redirect">Verify (redirect)</verify-button></p>
  <p><verify-button link="${l}" mode="modal">Verify (modal)</verify-button></p>
  <p><verify-button link="${l}" mode="popup">Verify (popup)</verify-button></p>
  <h3>Inline</h3>
  <verify-flow link="${l}"></verify-flow>
  <p id="outcome" role="status"></p>
</section>
<script src="${escapeHtml(VERITY_URL)}/web/verity.js"></script>
<script>
  for (const el of document.querySelectorAll('verify-button, verify-flow')) {
    el.addEventListener('verify-complete', (e) => {
      document.getElementById('outcome').textContent = 'Completed: reference ' + e.detail.reference_id + ', status ' + e.detail.status;
    });
    el.addEventListener('verify-error', (e) => {
      document.getElementById('outcome').textContent = 'Error: ' + e.detail.code;
    });
  }
</script>`,
  );
}

async function createUser(form: URLSearchParams): Promise<{ link: string; reference: string }> {
  const reference = `demo-${Date.now().toString(36)}-${++counter}`;
  const body: Record<string, string> = {
    email: form.get('email') ?? '',
    reference_id: reference,
    completion_url: `${DEMO_URL}/done`,
  };
  const phone = form.get('phone');
  if (phone) body.phone = phone;
  if (TEMPLATE) body.template_id = TEMPLATE;
  const response = await fetch(`${VERITY_URL}/api/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'User-Agent': 'verity-demo/1.0', 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { magic_link?: string; error_type?: string; error_message?: string };
  if (!response.ok || !answer.magic_link) throw new Error(`Verity answered ${response.status} ${answer.error_type ?? ''} ${answer.error_message ?? ''}`);
  return { link: answer.magic_link, reference };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type }).end(body);
}

const server = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', DEMO_URL);
    try {
      if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', home());
      if (req.method === 'POST' && url.pathname === '/verify') {
        const form = new URLSearchParams((await readBody(req)).toString('utf8'));
        const { link, reference } = await createUser(form);
        return send(res, 200, 'text/html; charset=utf-8', embeds(link, reference));
      }
      if (req.method === 'GET' && url.pathname === '/done') {
        const ref = url.searchParams.get('reference_id') ?? '';
        const status = url.searchParams.get('status') ?? '';
        return send(
          res,
          200,
          'text/html; charset=utf-8',
          page(
            'Done',
            `<section><h2>Back from Verity</h2><p>reference_id: <b>${escapeHtml(ref)}</b>, status: <b>${escapeHtml(status)}</b></p><p><a href="/">Start again</a></p></section>`,
          ),
        );
      }
      if (req.method === 'POST' && url.pathname === '/webhooks') {
        const raw = await readBody(req);
        const header = req.headers.signature ?? req.headers['http-signature'];
        const verified = signatureValid(raw, Array.isArray(header) ? header[0] : header, WEBHOOK_SECRET);
        let parsed: { type?: string; data?: { reference_id?: string; user_status?: string; verification_name?: string } } = {};
        try {
          parsed = JSON.parse(raw.toString('utf8')) as typeof parsed;
        } catch {
          return send(res, 400, 'text/plain', 'unreadable body');
        }
        events.unshift({
          received_at: new Date().toISOString(),
          verified,
          type: String(parsed.type ?? ''),
          reference_id: parsed.data?.reference_id ?? null,
          user_status: parsed.data?.user_status ?? null,
          verification_name: parsed.data?.verification_name ?? null,
        });
        events.length = Math.min(events.length, 100);
        // Like the reference handlers: a bad signature is refused (and so retried by Verity).
        return send(res, verified ? 200 : 403, 'text/plain', verified ? 'ok' : 'bad signature');
      }
      if (req.method === 'GET' && url.pathname === '/events') return send(res, 200, 'application/json', JSON.stringify(events));
      return send(res, 404, 'text/plain', 'not found');
    } catch (error: unknown) {
      return send(
        res,
        502,
        'text/html; charset=utf-8',
        page('Error', `<section><p class="bad">${escapeHtml(error instanceof Error ? error.message : 'error')}</p><p><a href="/">Back</a></p></section>`),
      );
    }
  })();
});

server.listen(PORT, () => {
  process.stdout.write(`Demo shop on ${DEMO_URL} (Verity at ${VERITY_URL})\n`);
});
