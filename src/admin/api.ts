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

/** One page of a list, as every dashboard list route answers. */
export interface Page<T> {
  data: T[];
  meta: { page: number; per_page: number; total?: number; last_page?: number; has_more?: boolean };
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

/** A user as the admin routes show it (spec 2.1 fields the dashboard uses). */
export interface UserSummary {
  id: number;
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  phone: string | null;
  status: string;
  created_at: string;
  email_verified_at: string | null;
  verifications: { id: number; name: string; status: { value: number; friendly: string } }[];
  /** The second factor turned on through Two-Step Authentication (spec user fields), when the API view carries it. */
  two_factor_options?: { method?: string; enabled_at?: string } | null;
  two_factor_phone?: string | null;
}

/** A user's verification on the user page, with the analysis results. */
export interface VerificationDetail {
  method_id: number;
  key: string;
  name: string;
  status: { value: number; key: string; friendly: string };
  started_at: string | null;
  completed_at: string | null;
  remarks: string | null;
  /** The analysis as checks (empty until analysed, or for methods without any). */
  checks: { name: string; outcome: 'passed' | 'flagged' | 'failed' | 'not_run'; reason: string | null; value: number | null }[];
  results: Record<string, unknown>;
}

/** A second factor (`two_step`) or the passkeys (`biometric_id`) a user holds. */
export type Enrolment =
  | {
      key: 'two_step';
      details: { method: 'totp' | 'sms'; enabled_at: string; phone_ending: string | null; recovery_codes_left: number | null };
    }
  | {
      key: 'biometric_id';
      details: {
        rp_id: string;
        passkeys: { created_at: string; last_used_at: string | null; device_type: string; backed_up: boolean; aaguid: string }[];
      };
    };

export interface UserDetail {
  user: UserSummary;
  reference_id: string | null;
  template: { id: number; name: string; label: string } | null;
  ip_country: string | null;
  /** The last consent decision before biometric steps: when, which text version, from which country. */
  consent: { decision: 'given' | 'declined'; at: string; text_version: string; ip_country: string | null } | null;
  /** What the user enrolled (a second factor, passkeys): kept across resets; an operator may remove it. */
  enrolments: Enrolment[];
  verifications: VerificationDetail[];
  workflows: { id: string; status: { key: string; friendly: string }; remarks: string | null }[];
  document_jobs: {
    doc_id: string;
    status: string;
    reason: string | null;
    source: string;
    created_at: string;
    completed_at: string | null;
    document_data: unknown;
    image_url: string;
  }[];
  images: {
    id: string;
    method: string;
    document_type: string | null;
    side: string | null;
    step: string | null;
    media_type: string;
    url: string | null;
    created_at: string;
  }[];
}

export interface TemplateInfo {
  id: number;
  name: string;
  label: string;
  methods: { id: number; key: string; name: string }[];
  workflows: string[];
  users: number;
}

export interface TemplatesAnswer {
  data: TemplateInfo[];
  workflows: { id: string; name: string; document_types: string[] }[];
  /** `in_flow: false`: the end-user flow has no step for it yet; templates holding it are refused. */
  methods: { id: number; key: string; name: string; in_flow: boolean }[];
  default_template: string | null;
  reverification_template: string | null;
}

export interface LinkAnswer {
  full_url: string;
  short_url: string;
  expires_at: string;
  sent: string | null;
}

/** One row of the review queue: a user waiting for a decision and why. */
export interface ReviewRow {
  user: { id: number; email: string; first_name: string | null; last_name: string | null; status: string; reference_id: string | null };
  template: { name: string; label: string } | null;
  entered_review_at: string;
  waiting: { method: string; name: string; status: { key: string; friendly: string }; remarks: string | null }[];
  reasons: string[];
  flags: string[];
}

/** User statuses (spec 3.1). */
export const USER_STATUSES = ['Unconfirmed', 'Active', 'Verified', 'Banned', 'Review'] as const;

/** One field a document's analysis read, beside the user's record (`agrees` null: nothing to compare). */
export interface CaseField {
  name: string;
  value: string;
  confidence: number | null;
  record: string | null;
  agrees: boolean | null;
}

/** A user's case (`GET /admin/api/users/{id}/case`): documents, faces, notes and the timeline. */
export interface CaseDetail {
  documents: {
    doc_id: string;
    side: string | null;
    doc_type: string | null;
    status: string;
    reason: string | null;
    created_at: string;
    image_url: string;
    portrait_url: string | null;
    fields: CaseField[];
  }[];
  faces: { key: string; name: string; similarity: number | null; decision: string | null; captures: { kind: string; url: string }[] }[];
  notes: { id: number; author: string; body: string; created_at: string }[];
  /** The `deaNumber` sent on create with its checks (format, check digit, initial, registry); null when none was sent. */
  dea: {
    dea_number: string;
    checks: { name: string; outcome: 'passed' | 'flagged' | 'failed' | 'not_run'; reason: string | null; value: number | null }[];
  } | null;
  timeline: { at: string; kind: 'event' | 'delivery' | 'decision'; what: string; method: string | null; by: string | null; detail: string | null }[];
  /** Other users sharing one of this user's documents or faces (duplicate detection). */
  duplicates: CaseDuplicate[];
}

/** One "possible duplicate" of a case: which verification, whom it matches, and how. */
export interface CaseDuplicate {
  kind: 'document' | 'face';
  /** This user's verification, by name. */
  verification: string;
  other: { id: number; label: string };
  other_verification: string;
  /** Face similarity; null for a document number. */
  score: number | null;
  /** `this`: this user's capture found the other's; `other`: the other's later capture found this one's. */
  found_by: 'this' | 'other';
  detected_at: string;
}
