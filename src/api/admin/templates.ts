/**
 * The dashboard's templates contract (`/admin/api/templates`, `/admin/api/workflows`): templates,
 * document workflows and which template new users and re-verification get.
 */
import * as z from 'zod/mini';
import { dataOf } from './common.js';

/** A template with its methods, workflows and how many users it has. */
export const TemplateInfo = z.object({
  id: z.int(),
  name: z.string(),
  label: z.string(),
  methods: z.array(z.object({ id: z.int(), key: z.string(), name: z.string() })),
  workflows: z.array(z.string()),
  users: z.int(),
  created_at: z.string(),
});
export type TemplateInfo = z.infer<typeof TemplateInfo>;

/** A document workflow: which document types fill it. */
export const WorkflowInfo = z.object({
  id: z.string(),
  encoded_id: z.string(),
  raw_id: z.int(),
  name: z.string(),
  document_types: z.array(z.string()),
});
export type WorkflowInfo = z.infer<typeof WorkflowInfo>;

export const TemplatesAnswer = z.object({
  data: z.array(TemplateInfo),
  workflows: z.array(WorkflowInfo),
  /** `in_flow: false`: the end-user flow has no step for it yet; templates holding it are refused. */
  methods: z.array(z.object({ id: z.int(), key: z.string(), name: z.string(), in_flow: z.boolean() })),
  default_template: z.nullable(z.string()),
  reverification_template: z.nullable(z.string()),
});
export type TemplatesAnswer = z.infer<typeof TemplatesAnswer>;

/** `POST /admin/api/templates`: the new template's id and name. */
export const CreatedTemplate = dataOf(z.object({ id: z.int(), name: z.string() }));
export const WorkflowAnswer = dataOf(WorkflowInfo);
