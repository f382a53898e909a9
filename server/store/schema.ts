import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table shapes shared by every dialect. Timestamps are ISO 8601 UTC text (they sort as text on
 * SQLite and PostgreSQL alike); JSON is stored as text and parsed by the repositories.
 */
export interface Database {
  api_keys: ApiKeyTable;
  admins: AdminTable;
  settings: SettingTable;
  templates: TemplateTable;
  template_methods: TemplateMethodTable;
  template_workflows: TemplateWorkflowTable;
  workflows: WorkflowTable;
  users: UserTable;
  user_verifications: UserVerificationTable;
  user_workflows: UserWorkflowTable;
  short_links: ShortLinkTable;
  events: EventTable;
  jobs: JobTable;
  document_jobs: DocumentJobTable;
}

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  /** First characters of the key, shown in listings so an operator can tell keys apart. */
  prefix: string;
  /** SHA-256 hex of the whole key; keys are 256-bit random, so a fast hash is enough. */
  key_hash: string;
  rate_per_second: number;
  rate_per_minute: number;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AdminTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: string;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface TemplateTable {
  id: Generated<number>;
  /** `tmpl_<code>`: the value customers pass as `template_id`. */
  name: string;
  label: string;
  created_at: string;
}

export interface TemplateMethodTable {
  template_id: number;
  method_id: number;
  position: number;
}

export interface TemplateWorkflowTable {
  template_id: number;
  workflow_raw_id: number;
  position: number;
}

export interface WorkflowTable {
  raw_id: Generated<number>;
  /** Legacy public id, `flow_<code>`. */
  public_id: string;
  encoded_id: string;
  name: string;
  /** JSON array of document type names, e.g. ["driving_licence"]. */
  document_types: string;
  created_at: string;
}

export interface UserTable {
  id: Generated<number>;
  uuid: string;
  first_name: string | null;
  last_name: string | null;
  username: string;
  email: string;
  phone: string | null;
  avatar: string | null;
  address: string | null;
  country_id: number | null;
  role_id: number;
  status: string;
  birthday: string | null;
  last_login: string | null;
  two_factor_country_code: number | null;
  two_factor_phone: string | null;
  two_factor_options: string | null;
  email_verified_at: string | null;
  notice: string | null;
  reference_id: string | null;
  template_id: number | null;
  custom_verify_data: string | null;
  order_id: string | null;
  completion_url: string | null;
  redirect_url: string | null;
  dea_number: string | null;
  /** Random per-user key carried by magic links (never the user id). */
  link_key: string;
  ip: string | null;
  ip_country: string | null;
  last_activity: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserVerificationTable {
  user_id: number;
  method_id: number;
  status: number;
  /** JSON object of method-specific attributes (spec 6.3). */
  attributes: string;
  position: number;
  started_at: string | null;
  completed_at: string | null;
  remarks: string | null;
  updated_at: string;
}

export interface UserWorkflowTable {
  user_id: number;
  workflow_raw_id: number;
  status: number;
  remarks: string | null;
  completed_at: string | null;
  updated_at: string;
}

export interface ShortLinkTable {
  code: string;
  user_id: number;
  /** The target URL sealed (links/short-links.ts): never a usable bearer URL at rest. */
  sealed_url: string;
  expires_at: string;
  created_at: string;
}

/** The event outbox: written in the same transaction as the change that causes the event. */
export interface EventTable {
  id: string;
  type: string;
  user_id: number | null;
  occurred_at: string;
  /** The whole webhook payload (spec 6.3) as JSON, built when the event happened. */
  payload: string;
  /** Set once the relay has turned the event into deliveries. */
  dispatched_at: string | null;
}

export interface JobTable {
  id: Generated<number>;
  queue: string;
  payload: string;
  state: 'waiting' | 'active' | 'completed' | 'failed';
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type TemplateRow = Selectable<TemplateTable>;
export type WorkflowRow = Selectable<WorkflowTable>;
export type UserVerificationRow = Selectable<UserVerificationTable>;
export type UserWorkflowRow = Selectable<UserWorkflowTable>;
export type JobRow = Selectable<JobTable>;

/** A document verification job of the customer API (spec 2.6). */
export interface DocumentJobTable {
  id: Generated<number>;
  doc_id: string;
  user_id: number;
  template_id: number;
  /** `Processing`, `Success` or `Failed`. */
  status: string;
  reason: string | null;
  original_name: string;
  media_type: string;
  size: number;
  /** The stored, metadata-free image (the original upload is not kept). */
  blob_key: string;
  /** The spec 2.7 `document_data` as JSON (without the signed URL, which is made per read). */
  document_data: string | null;
  /** JSON array: face descriptor of the document portrait, the reference for later selfies. */
  portrait_embedding: string | null;
  /** JSON object: that portrait's quality (analysis `PortraitQuality`), which sets its match band; null before it was kept. */
  portrait_quality: string | null;
  /** `api` (spec 4.13) or `session` (captured on the hosted page / widget). */
  source: string;
  created_at: string;
  completed_at: string | null;
}
export type DocumentJobRow = Selectable<DocumentJobTable>;
