import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ApiError, errors, type FieldErrors } from '../errors.js';
import { refuseWithoutKey, type ApiAuthenticator } from './api-auth.js';
import { aimsAtCustomerApi } from './canonical-path.js';
import { DEFAULT_RATE_PER_MINUTE, DEFAULT_RATE_PER_SECOND } from '../store/repos/api-keys-repo.js';
import type { ApiRateLimiter } from './rate-limit.js';

/** Fastify's own client errors, answered in the spec's shape with their status kept. */
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Invalid or No Data Provided for Update',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length.',
};

function fieldErrorsFrom(error: FastifyError): FieldErrors {
  const out: FieldErrors = {};
  for (const v of error.validation ?? []) {
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = path || (error.validationContext === 'body' ? 'body' : String(error.validationContext ?? 'request'));
    (out[field] ??= []).push(v.message ?? 'Invalid value.');
  }
  return out;
}

/** PostgreSQL's "character not in repertoire" / "untranslatable character" (NUL in text). */
function isUnstorableText(error: FastifyError): boolean {
  return 'severity' in error && (error.code === '22021' || error.code === '22P05');
}

/**
 * Errors Fastify meets before routing (the `frameworkErrors` option): a path that does not decode
 * (`/api/users/%zz`) or a path parameter over the router's limit. Answered in the spec's shape
 * like every other error, and a missing User-Agent still comes first (spec 5). No hook runs for
 * these, so on the customer API the client address's budget is charged here, as for any request
 * without a valid key, and the answer carries its rate-limit headers (spec 8: every response).
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply, limiter: ApiRateLimiter | undefined): void {
  const apiError = !req.headers['user-agent']?.trim()
    ? errors.missingUserAgent()
    : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? errors.protocol('The request URL is too long.', 414)
      : errors.invalidData('The request URL is malformed.');
  const send = (e: ApiError) => void reply.code(e.statusCode).headers(e.headers).send(e.toBody());
  if (!limiter || !aimsAtCustomerApi(req.url)) return send(apiError);
  // Always rejects: with apiError, or with a 429 once the address's budget is spent. A limiter
  // that fails (Redis away) leaves the answer without headers rather than without an answer.
  refuseWithoutKey(limiter, req, reply, apiError).catch((refusal: unknown) => send(refusal instanceof ApiError ? refusal : apiError));
}

/**
 * Errors of the HTTP parser, before there is a request (the `clientErrorHandler` option): a body
 * shorter than its Content-Length, headers over Node's limit, a request that timed out. The
 * connection cannot be reused, so the answer is written to the socket, which is then closed.
 *
 * Spec 8 wants the rate-limit headers on every response, so these carry the client address's
 * budget too (issue 18: a 431 had none). With the peer as the client (no trusted proxy) the answer
 * is charged to it like any request without a valid key, and becomes a 429 once the budget is
 * spent; behind a trusted proxy the peer is the proxy, whose headers were never read, so the
 * budget is only reported, never charged to everyone behind it. A limiter that fails (Redis away)
 * leaves the answer without headers rather than without an answer.
 */
export function clientErrorAnswerer(limiter: () => ApiRateLimiter | undefined, charge: boolean): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'The request headers are too large.']
          : [400, 'The request is not valid HTTP.'];
    const answer = errors.protocol(message, status);
    const limits = limiter();
    const address = socket.remoteAddress;
    if (!limits || !address) return writeAndClose(socket, error, answer, {});
    // Held paused while the budget is asked (a Redis round trip in scale-out): a client that sent
    // its request and half-closed would otherwise have the socket ended under the answer.
    socket.pause();
    const decision = charge
      ? limits.consumeAddress(address, DEFAULT_RATE_PER_SECOND, DEFAULT_RATE_PER_MINUTE)
      : limits.peekAddress(address, DEFAULT_RATE_PER_MINUTE).then((peeked) => ({ ...peeked, allowed: true }));
    decision.then(
      (d) => {
        const headers = { 'X-RateLimit-Limit': String(d.limit), 'X-RateLimit-Remaining': String(d.remaining), 'X-RateLimit-Reset': String(d.reset) };
        if (d.allowed) return writeAndClose(socket, error, answer, headers);
        const refusal = errors.rateLimited(d.retryAfterSeconds);
        writeAndClose(socket, error, refusal, { ...headers, 'Retry-After': String(d.retryAfterSeconds) });
      },
      () => writeAndClose(socket, error, answer, {}),
    );
  };
}

function writeAndClose(socket: Socket, error: Error, answer: ApiError, headers: Record<string, string>): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(answer.toBody());
  if (socket.writable) {
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const status = answer.statusCode;
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * The one error handler: every error leaves as the spec's body; 5xx details go to the log only.
 * `authenticate`: the customer API's check, run before a 404 for a URL aimed at the customer API
 * that matched no route (`/API/users`, `//api/users`), so such a URL is refused in the API's order
 * (403, 401, 429) with its rate-limit headers before it learns that nothing is there.
 */
export function registerErrorHandler(app: FastifyInstance, authenticate?: ApiAuthenticator): void {
  // Many HTTP clients send `Content-Type: application/json` on every request, also on a DELETE or
  // a POST without a body. Fastify refuses such an empty body; here it is simply no body, and a
  // route that needs one says so (below).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    parseJson(req, text, done);
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (hasZodFastifySchemaValidationErrors(error) && error.validationContext === 'body' && req.body === undefined) {
      // A route that needs a body got none (spec 7: "Malformed or missing data").
      apiError = errors.invalidData();
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      apiError = errors.validation(fieldErrorsFrom(error));
    } else if (isResponseSerializationError(error)) {
      req.log.error({ err: { message: error.message, issues: error.cause.issues } }, 'response did not match its schema');
      apiError = errors.internal();
    } else if (isUnstorableText(error)) {
      // PostgreSQL refuses some text SQLite takes (a NUL byte, e.g. `/api/users/ref/%00`): the
      // request is at fault, not the server.
      apiError = errors.invalidData('The request contains a character that cannot be stored.');
    } else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      const message = CLIENT_ERROR_MESSAGES[error.code] ?? 'Invalid or No Data Provided for Update';
      apiError = errors.protocol(message, error.statusCode);
    } else {
      req.log.error({ err: error }, 'unexpected error');
      apiError = errors.internal();
    }
    void reply.code(apiError.statusCode).headers(apiError.headers).send(apiError.toBody());
  });

  app.setNotFoundHandler(async (req, reply) => {
    if (authenticate && aimsAtCustomerApi(req.url)) await authenticate(req, reply);
    const e = errors.notFound(`No route for ${req.method} ${req.url.split('?')[0]}`);
    return reply.code(404).send(e.toBody());
  });
}
