import { parseArgs } from 'node:util';
import { buildVerity, type Verity } from './app.js';
import { generatePassword, hashPassword } from './auth/passwords.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { operatorCommands } from './cli/operator.js';
import { processIo, UsageError, type CliIo } from './cli/io.js';
import { OnlyQueues } from './queue/only-queues.js';
import { migrateToLatest, openDatabase, withStartupLock } from './store/database.js';
import { anyAdminExists, insertAdminIfNew } from './admin/admins-repo.js';
import { missingAnalysisAssets } from './analysis/engines.js';

const USAGE = `Usage: verity <command>

  start                      API and in-process workers (what \`npm start\` runs)
  serve                      API only (scale-out: many of these behind a load balancer)
  worker [--queues a,b] [--probe-port N]
                             workers only, optionally only some queues; --probe-port serves
                             /healthz, /readyz and /metrics (no API) for probes and Prometheus,
                             on VERITY_METRICS_HOST (default VERITY_METRICS_PORT)
  migrate                    bring the database schema up to date
  keys create --name NAME [--rate-per-second N --rate-per-minute N] | keys list | keys revoke ID
  templates create --name tmpl_xxx --methods email,phone,document_id,... | templates list
  users create --email E [--template tmpl_x]
  webhooks create --url URL [--events a,b] | webhooks list | webhooks delete ID | webhooks help for the rest
  oidc-providers add --purpose social|payment --name NAME --issuer URL --client-id ID [--scopes S]
                             (secret from VERITY_OIDC_CLIENT_SECRET) | oidc-providers list | remove ID
  bank-payouts list [--all] | bank-payouts paid ID
                             Bank micro-deposits to pay by hand, and marking one paid`;

/** Creates the first admin on a fresh install and says, once, how to sign in. */
async function ensureFirstAdmin(verity: Verity, config: Config, io: CliIo): Promise<void> {
  const { db, clock } = verity.ctx;
  if (await anyAdminExists(db)) return;
  const password = generatePassword();
  const email = 'admin@localhost';
  // Several processes may start at once on one database: only the one whose insert lands tells.
  if (!(await insertAdminIfNew(db, { email, password_hash: await hashPassword(password), created_at: clock.now().toISOString() }))) return;
  io.out('');
  io.out('  Verity is set up. This is shown only once:');
  io.out(`    Admin sign-in:  ${config.baseUrl}/admin   e-mail ${email}   password ${password}`);
  io.out('    API key:        npm run verity -- keys create --name my-backend');
  io.out(`    API docs:       ${config.baseUrl}/docs`);
  io.out('');
}

/** Where the operations listener listens (its port may have been 0). */
function opsUrl(ops: Verity['ops']): string {
  const address = ops.server.address();
  if (!address || typeof address === 'string') return String(address);
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

async function runServer(config: Config, io: CliIo, mode: 'start' | 'serve' | 'worker', args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { queues: { type: 'string' }, 'probe-port': { type: 'string' } }, strict: true });
  if ((values.queues !== undefined || values['probe-port'] !== undefined) && mode !== 'worker') {
    throw new UsageError('--queues and --probe-port are for `verity worker`');
  }
  const probePort = values['probe-port'] === undefined ? undefined : Number(values['probe-port']);
  if (probePort !== undefined && !(Number.isInteger(probePort) && probePort >= 0 && probePort <= 65535)) {
    throw new UsageError('--probe-port must be a port number');
  }
  const queues = values.queues
    ?.split(',')
    .map((q) => q.trim())
    .filter(Boolean);
  const verity = await buildVerity({ config, queues });
  const only = verity.ctx.queue;
  if (queues && only instanceof OnlyQueues) {
    const unknown = queues.filter((q) => !only.offered.has(q));
    if (unknown.length > 0) {
      await verity.close();
      throw new UsageError(`Unknown queue: ${unknown.join(', ')} (known: ${[...only.offered].sort().join(', ')})`);
    }
  }
  await ensureFirstAdmin(verity, config, io);
  if (mode !== 'worker') await verity.app.listen({ port: config.port, host: config.host });
  if (mode !== 'serve') await verity.startWorkers();
  // Probes and metrics answer on a listener of their own, loopback unless configured, never on
  // the public one (issue 18, point 3); a worker has no API, only this listener, when asked.
  const opsPort = mode === 'worker' ? (probePort ?? config.metricsPort) : config.metricsPort;
  if (opsPort !== undefined) await verity.ops.listen({ port: opsPort, host: config.metricsHost });
  // Handlers before the "listening" line: a supervisor may send SIGTERM as soon as it reads it,
  // and a signal without a handler kills the process without the graceful close below.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  if (mode !== 'serve') for (const missing of missingAnalysisAssets()) io.err(`Warning: ${missing}`);
  io.out(`Verity ${mode === 'worker' ? 'worker running' : `listening on ${config.baseUrl}`} (data in ${config.dataDir})`);
  if (opsPort !== undefined) io.out(`Probes and metrics on ${opsUrl(verity.ops)}`);
  await stopped;
  // Graceful: stop taking work, finish what is in hand, close connections.
  await verity.close();
  return 0;
}

export async function main(argv: string[], io: CliIo = processIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (!command || command === 'help' || command === '--help') {
      io.out(USAGE);
      return command ? 0 : 1;
    }
    const config = loadConfig(env);
    if (command === 'start' || command === 'serve' || command === 'worker') return await runServer(config, io, command, args);
    if (command === 'migrate') {
      const db = await openDatabase(config);
      await withStartupLock(db, () => migrateToLatest(db, { secret: config.secret }));
      await db.destroy();
      io.out('Database is up to date.');
      return 0;
    }
    const handler = operatorCommands[command];
    if (!handler) throw new UsageError(`Unknown command: ${command}\n\n${USAGE}`);
    const verity = await buildVerity({ config, logger: false });
    try {
      await handler(verity, args, io);
    } finally {
      await verity.close();
    }
    return 0;
  } catch (error: unknown) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
}
