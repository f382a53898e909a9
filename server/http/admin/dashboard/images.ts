import sharp from 'sharp';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkImageSignature } from '../../../admin/image-links.js';
import type { AppContext } from '../../../context.js';
import { errors } from '../../../errors.js';
import { findDocumentJobImage } from '../../../methods/document_id/repo.js';
import { findUploadBlob } from '../../../session/uploads-repo.js';

interface Box {
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}

/** The document portrait's box as the analysis recorded it (`Portrait Position`), if any. */
export function portraitBox(documentData: string | null): Box | undefined {
  if (!documentData) return undefined;
  const content = (JSON.parse(documentData) as { content?: { document_processor?: Record<string, { value?: unknown }> } }).content;
  const v = content?.document_processor?.['Portrait Position']?.value as Partial<Box> | undefined;
  if (!v || ![v.x1, v.x2, v.y1, v.y2].every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  return v as Box;
}

/** The box grown by a quarter on each side (a face crop shows head and hair), kept inside the image. */
function cropRegion(box: Box, width: number, height: number): { left: number; top: number; width: number; height: number } | undefined {
  const mx = (box.x2 - box.x1) * 0.25;
  const my = (box.y2 - box.y1) * 0.25;
  const left = Math.max(0, Math.floor(box.x1 - mx));
  const top = Math.max(0, Math.floor(box.y1 - my));
  const right = Math.min(width, Math.ceil(box.x2 + mx));
  const bottom = Math.min(height, Math.ceil(box.y2 + my));
  return right - left >= 8 && bottom - top >= 8 ? { left, top, width: right - left, height: bottom - top } : undefined;
}

/**
 * Captured images for the dashboard, behind short-lived signed paths: `doc:<doc_id>` (a document
 * job's stored image), `portrait:<doc_id>` (the portrait the analysis found on it, cropped here
 * from the upright image the analysis read), else a session upload id. Always re-encoded to
 * JPEG without metadata.
 */
export function dashboardImageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/api/images/:id',
      {
        schema: {
          hide: true,
          params: z.object({ id: z.string().max(100) }),
          querystring: z.object({ expires: z.coerce.number().int().positive(), sig: z.string().regex(/^[0-9a-f]{64}$/) }),
        },
      },
      async (req, reply) => {
        const id = req.params.id;
        const check = checkImageSignature(ctx.config.secret, id, req.query.expires, req.query.sig, ctx.clock.now());
        if (check === 'invalid') throw errors.forbidden('Invalid image link.');
        if (check === 'expired') throw errors.gone('This image link has expired; reload the page.');
        const jobId = id.startsWith('doc:') ? id.slice(4) : id.startsWith('portrait:') ? id.slice(9) : undefined;
        const upload = jobId !== undefined ? await findDocumentJobImage(ctx.db, jobId) : await findUploadBlob(ctx.db, id);
        // A job's stored blob is always an image (PDFs are rendered to one); an upload may be a PDF, not shown.
        const isImage = jobId !== undefined || upload?.media_type.startsWith('image/') === true;
        const box = id.startsWith('portrait:') && upload && 'document_data' in upload ? portraitBox(upload.document_data as string | null) : undefined;
        if (id.startsWith('portrait:') && !box) throw errors.notFound('No portrait was found on this document.');
        const blob = upload && isImage ? await ctx.blobs.get(upload.blob_key) : undefined;
        if (!blob) throw errors.notFound('Image not found');
        let jpeg: Buffer;
        try {
          // Re-encoded without metadata (sharp drops EXIF, GPS and ICC unless asked to keep them), upright.
          const upright = sharp(blob.bytes, { limitInputPixels: 100_000_000 }).rotate();
          if (box) {
            const { data, info } = await upright.raw().toBuffer({ resolveWithObject: true });
            const region = cropRegion(box, info.width, info.height);
            if (!region) throw new Error('portrait box outside the image');
            jpeg = await sharp(data, { raw: info }).extract(region).jpeg({ quality: 90 }).toBuffer();
          } else {
            jpeg = await upright.jpeg({ quality: 90 }).toBuffer();
          }
        } catch {
          throw errors.notFound('Image not available');
        }
        return reply
          .headers({
            'content-type': 'image/jpeg',
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'",
          })
          .send(jpeg);
      },
    );
  };
}
