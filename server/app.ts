import { EventEmitter } from 'node:events';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { openAdapters } from './adapters.js';
import type { BlobStore } from './blobs/blob-store.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { apiAuthenticator } from './http/api-auth.js';
import { customerApi } from './http/customer-api.js';
import { coalesceSends } from './http/coalesced-sends.js';
import { drainOnClose } from './http/shutdown.js';
import { answerFrameworkError, clientErrorAnswerer, registerErrorHandler } from './http/error-handler.js';
import { fastSerializerCompiler } from './http/serializer.js';
import { fastifyTrustProxy } from './http/trust-proxy.js';
import { docsSecurityHeaders } from './http/hosted/security-headers.js';
import { buildOpsApp, recordRequestMetrics, registerLiveness, type ReadinessCheck } from './http/health/routes.js';
import type { LimiterFactory } from './http/limiter-factory.js';
import { ApiRateLimiter } from './http/rate-limit.js';
import { credentialRoutes } from './http/credentials/routes.js';
import { documentRoutes } from './http/documents/routes.js';
import { fileRoutes } from './http/files/routes.js';
import { hostedRoutes } from './http/hosted/routes.js';
import { sessionRoutes } from './http/session/routes.js';
import { SessionLimits } from './session/limits.js';
import { sessionKit } from './session/actions.js';
import { methodPublicRoutes, registerMethodWorkers } from './methods/registry.js';
import { settingsRoutes } from './http/settings/routes.js';
import { statsRoutes } from './http/stats/routes.js';
import { userRoutes } from './http/users/routes.js';
import { avatarRoutes } from './http/users/avatar-routes.js';
import { verificationRoutes } from './http/verifications/routes.js';
import { requestLogSerializer } from './links/log-redaction.js';
import { registerNotifyWorker } from './notify/worker.js';
import { AnalysisPool } from './analysis/pool.js';
import type { AnalysisEngine } from './services/analysis-engine.js';
import { registerAnalysisWorker } from './services/analysis-runner.js';
import { registerDeaWorker } from './services/dea-registry.js';
import { sendersFromConfig } from './notify/senders.js';
import { OnlyQueues } from './queue/only-queues.js';
import { TableQueue } from './queue/table-queue.js';
import { adminRoutes } from './http/admin/routes.js';
import { logoRoute, pageRoutes } from './http/admin/dashboard/index.js';
import { CONFIRMS_PER_IP, SIGNUPS_PER_IP_PER_HOUR, signupRoutes } from './http/signup/routes.js';
import { LoginThrottle } from './http/admin/login-throttle.js';
import { WebhookService } from './webhooks/service.js';
import type { Queue } from './queue/queue.js';
import { migrateToLatest, withStartupLock, type Db } from './store/database.js';
import { seedDefaults } from './store/seed.js';
import { UserSearchIndexer } from './store/sqlite/user-search-index.js';
import { WalCheckpointer } from './store/sqlite/wal-checkpointer.js';
import { UserSearchThreads } from './store/sqlite/user-search-threads.js';
import { connectReadCaches } from './store/read-cache.js';
import { connectApiKeyCaches } from './store/api-key-cache.js';
import { connectProgress } from './session/progress.js';
import { methodsDescription } from './methods/api-docs.js';

export interface BuildOptions {
  config: Config;
  clock?: Clock;
  /** Adapters chosen by the caller (scale-out, tests); embedded defaults otherwise. */
  db?: Db;
  queue?: Queue;
  blobs?: BlobStore;
  limiterFactory?: LimiterFactory;
  logger?: FastifyServerOptions['logger'];
  /** Where log lines go when `logger` is not given (default stdout). */
  logStream?: { write(line: string): void };
  /** The analysis engine behind the analysis queue; default a worker-thread pool; false: no consumer. */
  analysis?: AnalysisEngine | false;
  /** Work only on these queues (`verity worker --queues`); all when undefined. */
  queues?: readonly string[] | undefined;
}

/** A route as it was declared. */
export interface DeclaredRoute {
  method: RouteOptions['method'];
  url: string;
  schema: FastifySchema | undefined;
}

export interface Verity {
  app: FastifyInstance;
  ctx: AppContext;
  /** What `/readyz` checks (the database, Redis, the blob store). */
  readiness: readonly ReadinessCheck[];
  /** Every route as declared (method, path, schema), e.g. for checking that JSON routes declare their answers. */
  routes: readonly DeclaredRoute[];
  /** The operations app (probes and metrics), not listening: the caller chooses port and host. */
  ops: FastifyInstance;
  /** Starts the in-process workers (queue consumers). */
  startWorkers(): Promise<void>;
  /** Stops workers, closes the HTTP server and the database. */
  close(): Promise<void>;
}

/**
 * The access log: one line per request, when it ends, with the request (written by
 * `requestLogSerializer`, which keeps credentials and PII out), its status and its time. Fastify's
 * default writes a second line when the request arrives; at the default level every line costs the
 * API a serialisation and a write (issue 2). Fastify's other log lines (errors) stay as they are.
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Request bodies of the JSON API are small; uploads have their own limit on their routes. */
const JSON_BODY_LIMIT = 1024 * 1024;

/** Builds a Verity from a configuration: adapters, migrations, default data, routes. */
export async function buildVerity(options: BuildOptions): Promise<Verity> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // Filled once the adapters are open; the router cannot refuse a request before the server listens.
  const limiterSlot: { limiter?: ApiRateLimiter } = {};
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: requestLogSerializer },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    logController: new AccessLog(),
    bodyLimit: JSON_BODY_LIMIT,
    // Off unless configured: then X-Forwarded-For is ignored and no client picks its address.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Ids and reference ids (up to 255 characters, percent-encoded up to three bytes each) are the
    // only path parameters; a longer one is an attack, not a request.
    routerOptions: { maxParamLength: 800 },
    frameworkErrors: (error, req, reply) => answerFrameworkError(error, req, reply, limiterSlot.limiter),
    clientErrorHandler: clientErrorAnswerer(() => limiterSlot.limiter, config.trustProxy === false),
    requestTimeout: 60_000,
    // Served as usual, with the spec's bodies; `drainOnClose` keeps shutdown prompt.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(fastSerializerCompiler);
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', (route) => {
    routes.push({ method: route.method, url: route.url, schema: route.schema });
  });

  // Embedded defaults unless the configuration (or the caller) chooses PostgreSQL, Redis, S3.
  const adapters = await openAdapters({ ...options, config, clock, log: app.log });
  const { db } = adapters;
  const queue: Queue = options.queues ? new OnlyQueues(adapters.queue, new Set(options.queues)) : adapters.queue;
  await withStartupLock(db, async () => {
    await migrateToLatest(db, { secret: config.secret });
    await seedDefaults(db, clock);
  });
  // SQLite: new users enter the search index in batches after their commit (migration 0009).
  const searchIndexer = UserSearchIndexer.for(db);
  searchIndexer?.start(50, app.log);
  const searchThreads = UserSearchThreads.attach(db, { log: app.log });
  // SQLite: the WAL is copied back into the file in a thread, not in the commits of requests.
  const walCheckpointer = WalCheckpointer.attach(db, { log: app.log });

  const ctx: AppContext = {
    config,
    db,
    queue,
    blobs: adapters.blobs,
    clock,
    log: app.log,
    signals: new EventEmitter(),
    bus: adapters.bus,
    ...(walCheckpointer ? { afterErasure: () => walCheckpointer.truncate() } : {}),
  };
  // Settings/template caches and live session progress hear of other processes' changes at once.
  const disconnectBus = [connectReadCaches(adapters.bus), connectProgress(adapters.bus), connectApiKeyCaches(adapters.bus)];

  limiterSlot.limiter = new ApiRateLimiter(adapters.limiterFactory, clock);
  const authenticate = apiAuthenticator(app, ctx, limiterSlot.limiter);
  registerErrorHandler(app, authenticate);
  coalesceSends(app);
  const drain = drainOnClose(app);
  // Only liveness on the public listener; readiness and metrics on the operations listener.
  registerLiveness(app);
  recordRequestMetrics(app);
  const ops = buildOpsApp(adapters.checks);
  const opsDrain = drainOnClose(ops);
  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Verity API',
        version: '1.0.0',
        description: `Identity verification: users, verifications, templates, documents, statistics.${methodsDescription()}`,
      },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // The documentation in a scope of its own, so its headers reach its static files too.
  await app.register(async (docs) => {
    docs.addHook('onRequest', (_req, reply, done) => {
      docsSecurityHeaders(reply);
      done();
    });
    // No badge fetched from validator.swagger.io: nothing may reach the internet, and the CSP has no room for it.
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null } });
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(
    customerApi(authenticate, [userRoutes(ctx), verificationRoutes(ctx), settingsRoutes(ctx), statsRoutes(ctx), credentialRoutes(ctx), documentRoutes(ctx)]),
  );
  await app.register(avatarRoutes(ctx));
  await app.register(fileRoutes(ctx));
  await app.register(hostedRoutes(ctx));
  const sessionLimits = new SessionLimits(adapters.limiterFactory);
  await app.register(sessionRoutes(ctx, sessionLimits));
  // Method routes a third party sends the browser back to (an OpenID Connect provider), outside the session scope.
  for (const routes of methodPublicRoutes()) await app.register(routes(sessionKit(ctx, sessionLimits)));
  registerNotifyWorker(ctx, sendersFromConfig(config, clock));
  registerMethodWorkers(ctx);
  registerDeaWorker(ctx);
  const analysisPool = options.analysis === undefined ? new AnalysisPool() : undefined;
  const analysis = options.analysis ?? analysisPool;
  if (analysis) registerAnalysisWorker(ctx, analysis);
  const webhooks = new WebhookService(ctx);
  webhooks.register();
  // Sign-in and sign-up limits through the same factory: counted in Redis across processes in scale-out.
  const limit = adapters.limiterFactory;
  await app.register(adminRoutes(ctx, { loginThrottle: new LoginThrottle(limit, clock) }));
  // Dashboard and self-signup pages, the public branding logo, the signup JSON routes (issue 7).
  await app.register(pageRoutes());
  await app.register(logoRoute(ctx));
  await app.register(
    signupRoutes(ctx, {
      startLimiter: limit(SIGNUPS_PER_IP_PER_HOUR, 3600, 'signup-start'),
      confirmLimiter: limit(CONFIRMS_PER_IP, 900, 'signup-confirm'),
    }),
  );

  let workersStarted = false;
  return {
    app,
    ctx,
    readiness: adapters.checks,
    routes,
    ops,
    async startWorkers() {
      if (workersStarted) return;
      workersStarted = true;
      // Only the single embedded process may take back `active` rows at once; processes sharing
      // PostgreSQL wait for the lease of a dead worker to run out instead.
      if (adapters.queue instanceof TableQueue && !config.databaseUrl) await adapters.queue.recoverAbandoned();
      webhooks.start();
      await queue.start();
    },
    async close() {
      drain.begin();
      await webhooks.stop();
      await queue.stop();
      webhooks.close();
      await drain.close(config.shutdownGraceSeconds * 1000);
      await opsDrain.close(config.shutdownGraceSeconds * 1000);
      await walCheckpointer?.close();
      for (const disconnect of disconnectBus) disconnect();
      await adapters.close();
      await analysisPool?.close();
      searchIndexer?.stop();
      await searchThreads?.close();
      await db.destroy();
    },
  };
}
