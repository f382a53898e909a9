import { AdminApi } from '../../../src/admin/api.js';

/** One call the component made. */
export interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

/**
 * An {@link AdminApi} over a scripted fetch: `routes` maps `METHOD /path` (path without the query)
 * to an answer; every call is recorded. Unknown routes answer 404 like the server.
 */
export function fakeApi(routes: Record<string, unknown | Handler>): { api: AdminApi; calls: Call[] } {
  const calls: Call[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input), location.origin);
    const method = init?.method ?? 'GET';
    const raw = init?.body;
    const body = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : (raw ?? undefined);
    const call: Call = { method, path: url.pathname + url.search, body };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    const answer = typeof route === 'function' ? (route as Handler)(call) : route === undefined ? undefined : { body: route };
    if (!answer) return new Response(JSON.stringify({ error_type: 'api_resource_error', error_message: 'Resource Not Found' }), { status: 404 });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  };
  return { api: new AdminApi(fetchImpl), calls };
}

/** Waits until `check` holds (components load asynchronously). */
export async function until(check: () => boolean, what = 'condition', ms = 3000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An element in an element's shadow root. */
export function $<T extends Element = HTMLElement>(host: Element, selector: string): T | null {
  return host.shadowRoot!.querySelector<T>(selector);
}

export function $$<T extends Element = HTMLElement>(host: Element, selector: string): T[] {
  return [...host.shadowRoot!.querySelectorAll<T>(selector)];
}

export const USER = {
  id: 7,
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada@example.com',
  email: 'ada@example.com',
  phone: '+14155550123',
  status: 'Active',
  created_at: '2026-05-10 12:00:00',
  email_verified_at: null,
  verifications: [{ id: 1, name: 'Email', status: { value: 0, friendly: 'Pending' } }],
};

export const TEMPLATES = {
  data: [{ id: 1, name: 'tmpl_email', label: 'Email only', methods: [{ id: 1, key: 'email', name: 'Email' }], workflows: [], users: 3 }],
  workflows: [{ id: 'flow_id_document', name: 'Government ID', document_types: ['passport'] }],
  methods: [
    { id: 1, key: 'email', name: 'Email', in_flow: true },
    { id: 2, key: 'phone', name: 'Phone / SMS', in_flow: true },
    { id: 11, key: 'bank', name: 'Bank', in_flow: false },
  ],
  default_template: 'tmpl_email',
  reverification_template: null,
};
