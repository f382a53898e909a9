/**
 * The analysis pool as the server runs it, in a process of its own (so the in-process engines of
 * bench/analysis.ts are not counted in its memory): jobs per minute through the worker pool, the
 * process's peak resident memory (the kernel's high-water mark, pool threads included), and an
 * HTTP endpoint's p99 latency on the main thread while the pool is saturated, next to idle.
 * Targets (issues 6 and 20): peak memory ≤ 1.5 GB, p99 under load ≤ 2× idle.
 *
 * The busy p99 is printed two ways: over the whole time the pool is saturated, and over the first
 * 300 requests after the jobs are queued (what this bench printed until 2026-11-29: it holds the
 * jobs' hand-off to the pool). Nothing here asserts a time.
 *
 * Run: `npm run bench -- analysis-pool` (or `node --import tsx bench/analysis-pool.ts`).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { AnalysisPool } from '../server/analysis/pool.js';
import { benchInputs } from './analysis-inputs.js';

const mb = (b: number): string => `${Math.round(b / 1024 / 1024)} MB`;
/** The kernel's peak resident set of this process (Linux), else the current one. */
const peakRss = (): number => {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss;
};
const p99Of = (times: number[]): number => [...times].sort((a, b) => a - b)[Math.floor(0.99 * (times.length - 1))]!;

const { front12, back12, passportPdf } = await benchInputs();
const inputs = [front12, back12, passportPdf];
process.stdout.write(
  `machine: ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);

const server = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ ok: true, at: Date.now() }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
/** Request after request (2 ms apart) until `until()` holds or `count` are made; their latencies. */
async function latencies(until: () => boolean, count = Infinity): Promise<number[]> {
  const times: number[] = [];
  while (!until() && times.length < count) {
    const t = performance.now();
    await (await fetch(url)).json();
    times.push(performance.now() - t);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return times;
}

const pool = new AnalysisPool();
await pool.warmup();
await latencies(() => false, 50); // warm the HTTP path
const idle = await latencies(() => false, 2000);

const JOBS = 6;
let done = false;
const poolStart = performance.now();
const jobs = Promise.all(Array.from({ length: JOBS }, (_, i) => pool.analyseDocument({ bytes: inputs[i % inputs.length]! }))).then(() => {
  done = true;
});
const busy = await latencies(() => done);
await jobs;
const poolSeconds = (performance.now() - poolStart) / 1000;
await pool.close();
server.close();

const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
process.stdout.write(`pool: ${JOBS} jobs in ${poolSeconds.toFixed(1)} s = ${((JOBS / poolSeconds) * 60).toFixed(1)} jobs/min\n`);
process.stdout.write(
  `API p99 idle ${p99Of(idle).toFixed(2)} ms (${idle.length} requests); with the pool saturated ${p99Of(busy).toFixed(2)} ms over ${busy.length} requests: ratio ${ratio(p99Of(busy), p99Of(idle))} (target ≤ 2x); first 300 requests after the jobs were queued ${p99Of(busy.slice(0, 300)).toFixed(2)} ms: ${ratio(p99Of(busy.slice(0, 300)), p99Of(idle))}\n`,
);
process.stdout.write(`peak RSS of this process, pool thread included: ${mb(peakRss())} (target ≤ 1.5 GB)\n`);
