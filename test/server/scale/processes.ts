import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** Spawns the real binary (`node bin/verity.mjs …`) for multi-process tests and the bench. */
export const ROOT = resolve(import.meta.dirname, '../../..');
export const BIN = join(ROOT, 'bin/verity.mjs');
const run = promisify(execFile);

/**
 * A port free now, for a child process to listen on later. Drawn below Linux's ephemeral range
 * (32768-60999): a port from `listen(0)` is from that range, where another fork's outgoing
 * connection or `listen(0)` could take it before the child binds (seen once: EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const candidate = 10_000 + Math.floor(Math.random() * 10_000);
    const srv = createNetServer();
    const bound = await new Promise<boolean>((r) => {
      srv.once('error', () => r(false));
      srv.listen(candidate, '127.0.0.1', () => r(true));
    });
    if (!bound) continue;
    const { port } = srv.address() as AddressInfo;
    await new Promise<void>((r) => srv.close(() => r()));
    return port;
  }
}

/** Runs a CLI command and returns its last output line. */
export async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], { env, cwd: ROOT });
  return stdout.trim().split('\n').at(-1)!;
}

export interface VerityProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `verity serve|worker|start` and resolves once it says it is up. */
export function startProcess(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 240_000): Promise<VerityProcess> {
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const proc: VerityProcess = { child, output: () => out, exited };
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${out}`)), timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (/listening on|worker running/.test(out)) {
        clearTimeout(timer);
        resolveStart(proc);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited with ${code}: ${out}`));
    });
  });
}

/** SIGTERM (graceful) or SIGKILL, and wait for the exit. */
export async function stopProcess(proc: VerityProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  return proc.exited;
}
