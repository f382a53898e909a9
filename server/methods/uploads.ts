import type { FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { InputErrorCode, isAnalysisInputError } from '../analysis/errors.js';
import { sessionErrors } from '../errors.js';
import { acceptUpload, type UploadMediaType } from '../uploads/accept-upload.js';

/** The upload door (size, type by content, image header, PDF limits), in the session API's errors. */
export async function acceptSessionUpload(bytes: Buffer, accepted: readonly UploadMediaType[]): Promise<UploadMediaType> {
  try {
    return (await acceptUpload(bytes, accepted)).mediaType;
  } catch (err: unknown) {
    if (!isAnalysisInputError(err)) throw err;
    if (err.code === InputErrorCode.TooLarge) throw sessionErrors.uploadTooLarge();
    throw sessionErrors.uploadInvalid(err.message);
  }
}

/** A multipart text field holding JSON, checked against `schema`; null when absent. */
export function parseJsonField<T>(schema: z.ZodMiniType<T>, text: string | undefined, field: string): T | null {
  if (text === undefined || text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw sessionErrors.validation({ [field]: ['Must be JSON.'] });
  }
  const result = z.safeParse(schema, parsed);
  if (!result.success) throw sessionErrors.validation({ [field]: result.error.issues.map((i) => `${i.path.join('.') || field}: ${i.message}`) });
  return result.data;
}

/** The multipart text fields of an upload, checked against `schema` (422 with the field errors otherwise). */
export function parseFields<T>(schema: z.ZodMiniType<T>, fields: Record<string, string>): T {
  const parsed = z.safeParse(schema, fields);
  if (!parsed.success) throw sessionErrors.validation(issues(parsed.error.issues));
  return parsed.data;
}

function issues(list: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of list) (out[i.path.map(String).join('.') || 'body'] ??= []).push(i.message);
  return out;
}

/** Reads a multipart body: text fields, and the one file under `fileField` (size-limited by the plugin). */
export async function readMultipart(req: FastifyRequest, fileField: string): Promise<{ fields: Record<string, string>; file: Buffer }> {
  const { fields, file } = await readMultipartParts(req, fileField);
  if (!file) throw sessionErrors.validation({ [fileField]: ['A file is required.'] });
  return { fields, file };
}

/** {@link readMultipart} where the file may be absent. */
export async function readMultipartParts(req: FastifyRequest, fileField: string): Promise<{ fields: Record<string, string>; file: Buffer | undefined }> {
  if (!req.isMultipart()) throw sessionErrors.validation({ [fileField]: ['Send multipart/form-data.'] });
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === fileField && file === undefined) file = bytes;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw sessionErrors.uploadTooLarge();
    if (typeof code === 'string' && code.startsWith('FST_')) throw sessionErrors.uploadInvalid('The upload could not be read.');
    throw error;
  }
  return { fields, file };
}
