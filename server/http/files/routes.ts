import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { checkBlobUrl, FILES_PATH } from '../../blobs/signed-url.js';
import { assertSafeKey } from '../../blobs/blob-store.js';
import { errors } from '../../errors.js';

/**
 * `/files/<key>?expires=…&signature=…`: stored images behind short-lived signed URLs (spec 2.7
 * `content.url`, dashboard image views). Answers 404 for anything not exactly right, so a probe
 * learns nothing about which keys exist.
 */
export function fileRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(`${FILES_PATH}*`, { schema: { hide: true } }, async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      try {
        assertSafeKey(key);
      } catch {
        throw errors.notFound('File Not Found');
      }
      if (!checkBlobUrl(ctx.config.secret, key, req.query as Record<string, unknown>, ctx.clock.now())) {
        throw errors.notFound('File Not Found');
      }
      if (ctx.blobs.signedUrl) {
        // An object store serves the bytes itself: hand over a presigned URL that ends with ours.
        const left = Number((req.query as { expires: string }).expires) - Math.floor(ctx.clock.now().getTime() / 1000);
        return reply
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(await ctx.blobs.signedUrl(key, Math.max(1, left)), 302);
      }
      const blob = await ctx.blobs.get(key);
      if (!blob) throw errors.notFound('File Not Found');
      return reply
        .type(blob.contentType)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .send(blob.bytes);
    });
  };
}
