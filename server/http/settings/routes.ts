import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { friendlyStatus, METHODS, STATUS_KEYS, VerificationStatus } from '../../domain/catalogue.js';
import { methodById } from '../../domain/catalogue.js';
import { listTemplates, listWorkflows } from '../../store/repos/templates-repo.js';
import { requireJsonAccept } from '../accept.js';
import { bearerSecurity, commonErrors, errorBody } from '../schemas.js';

const workflowSchema = z
  .object({
    id: z.string(),
    encoded_id: z.string(),
    raw_id: z.number().int(),
    name: z.string(),
    document_types: z.array(z.string()),
  })
  .meta({ id: 'Workflow' });

const templateSchema = z.object({ id: z.number(), name: z.string(), types: z.array(z.string()) }).meta({ id: 'Template' });

/** Settings: spec 4.10–4.12. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Settings'];

    app.get(
      '/api/settings/verifications',
      {
        schema: {
          tags,
          summary: 'Fetch verification mappings',
          security: bearerSecurity,
          response: {
            200: z.object({
              data: z.object({
                verifications: z.array(z.object({ id: z.number().int(), key: z.string(), name: z.string() })),
                statuses: z.array(z.object({ id: z.number().int(), key: z.string(), friendly: z.string() })),
              }),
            }),
            ...commonErrors,
          },
        },
      },
      async () => ({
        data: {
          verifications: METHODS.map((m) => ({ id: m.id, key: m.key, name: m.name })),
          statuses: STATUS_KEYS.map((key) => ({
            id: VerificationStatus[key],
            key,
            friendly: friendlyStatus(VerificationStatus[key], 'read'),
          })),
        },
      }),
    );

    app.get(
      '/api/settings/workflow',
      {
        schema: {
          tags,
          summary: 'List document workflows',
          security: bearerSecurity,
          response: { 200: z.object({ data: z.array(workflowSchema) }), ...commonErrors },
        },
      },
      async () => {
        const rows = await listWorkflows(ctx.db);
        return {
          data: rows.map((w) => ({
            id: w.public_id,
            encoded_id: w.encoded_id,
            raw_id: w.raw_id,
            name: w.name,
            document_types: JSON.parse(w.document_types) as string[],
          })),
        };
      },
    );

    app.get(
      '/api/settings/templates/verifications',
      {
        schema: {
          tags,
          summary: 'List verification templates',
          security: bearerSecurity,
          response: { 200: z.array(templateSchema), 406: errorBody, ...commonErrors },
        },
      },
      async (req) => {
        requireJsonAccept(req);
        const templates = await listTemplates(ctx.db);
        return templates.map((t) => ({
          id: t.id,
          name: t.name,
          types: t.methodIds.map((id) => methodById(id)?.name ?? String(id)),
        }));
      },
    );
  };
}
