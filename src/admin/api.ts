/**
 * The dashboard's client for the admin JSON routes (`/admin/api/*`). Same-origin, cookie
 * authenticated; every non-2xx answer becomes an {@link AdminApiError} with the server's
 * `error_type`, `error_message` and field `errors`.
 */

/** A non-2xx answer of an admin route, or a network failure (`status` 0). */
export class AdminApiError extends Error {
  override readonly name = 'AdminApiError';
  constructor(
    readonly status: number,
    readonly error_type: string,
    readonly error_message: string,
    readonly errors: Record<string, string[]> = {},
    options?: { cause?: unknown },
  ) {
    super(error_message, options);
  }

  /** The first message for a field, else the error message. */
  messageFor(field?: string): string {
    const list = field ? this.errors[field] : undefined;
    if (list?.[0]) return list[0];
    const first = Object.entries(this.errors)[0];
    return first ? `${first[0]}: ${first[1][0] ?? ''}` : this.error_message;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export class AdminApi {
  readonly #fetch: typeof fetch;
  /** Called when a route answers 401 (the session ended): the app shows the sign-in form. */
  onUnauthenticated: (() => void) | undefined;

  constructor(
    fetchImpl?: typeof fetch,
    readonly base = '',
  ) {
    this.#fetch = fetchImpl ?? ((input, init) => fetch(input, init));
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json', ...headers } };
    if (body instanceof Blob) {
      init.body = body;
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    let res: Response;
    try {
      res = await this.#fetch(this.base + path, init);
    } catch (cause: unknown) {
      throw new AdminApiError(0, 'network_error', 'The server could not be reached.', {}, { cause });
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      if (res.status === 401 && !path.startsWith('/admin/api/session')) this.onUnauthenticated?.();
      const b = isRecord(json) ? json : {};
      throw new AdminApiError(
        res.status,
        typeof b.error_type === 'string' ? b.error_type : 'unknown_error',
        typeof b.error_message === 'string' ? b.error_message : `The server answered ${res.status}.`,
        isRecord(b.errors) ? (b.errors as Record<string, string[]>) : {},
      );
    }
    return json as T;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body ?? {});
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }
  put<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }
  del<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, body);
  }
}

/** A query string from defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
