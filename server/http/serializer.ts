import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serializer = (data: unknown) => string;
type RouteSchemaDef = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Compiled serializers by response schema (many routes share one, e.g. `errorBody`); `null` marks a
 * schema JSON Schema cannot express.
 */
const compiled = new WeakMap<object, Serializer | null>();

/**
 * Response serializer compiler: each route's zod response schema is turned into JSON Schema and
 * compiled with fast-json-stringify (what Fastify itself does for JSON Schema responses).
 *
 * Why not fastify-type-provider-zod's serializer: it re-validates every response with zod
 * (`safeEncode`) before `JSON.stringify`; on `GET /api/users/{id}` that cost about as much as a
 * whole bare-Fastify request (issue 2). The compiled serializer writes only the schema's properties
 * (unknown keys are dropped, as zod's default `strip` did) and throws on a missing required
 * property, which the error handler answers with a 500 like any other bug.
 *
 * A schema JSON Schema cannot express (a transform, a date, a custom check) keeps the zod
 * serializer, so such a response is still encoded exactly as its schema says.
 */
export const fastSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const { schema } = route;
  const zodFallback = () => zodSerializerCompiler(route as RouteSchemaDef) as Serializer;
  if (!(schema instanceof z.ZodType)) return zodFallback();
  // Compiled on first use: a server registers a few hundred route/status pairs and most are never
  // answered in a given process (or test); compiling them all at boot would only slow start-up.
  let serialize: Serializer | undefined;
  return (data: unknown) => {
    serialize ??= compileSchema(schema) ?? zodFallback();
    return serialize(data);
  };
};

function compileSchema(schema: z.ZodType): Serializer | null {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  let serializer: Serializer | null;
  try {
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw', cycles: 'throw' });
    serializer = fastJsonStringify(jsonSchema as fastJsonStringify.AnySchema) as Serializer;
  } catch {
    serializer = null;
  }
  compiled.set(schema, serializer);
  return serializer;
}
