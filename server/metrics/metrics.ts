import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of this process, served at `/metrics`. One registry per process (several
 * Verity instances in one process, as in tests, add to the same series). Other modules record
 * through the small functions below and never touch prom-client directly.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'verity_' });

const httpRequests = new Counter({
  name: 'verity_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'verity_http_request_duration_seconds',
  help: 'Time from request to response, by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const jobsFinished = new Counter({
  name: 'verity_jobs_total',
  help: 'Job runs by queue and outcome (completed, retry, failed).',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

const jobDuration = new Histogram({
  name: 'verity_job_duration_seconds',
  help: 'Time a job handler ran, by queue.',
  labelNames: ['queue'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [registry],
});

const deliveries = new Counter({
  name: 'verity_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (e.g. success, retry, failed, gone, timeout).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const analysisDuration = new Histogram({
  name: 'verity_analysis_duration_seconds',
  help: 'Time an analysis (or one of its stages) took, by stage and outcome.',
  labelNames: ['stage', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80],
  registers: [registry],
});

/** Where a queue's depth comes from: each running Verity registers one and removes it on close. */
export type QueueDepthSource = () => Promise<Record<string, { waiting: number; active: number; delayed: number }>>;
const depthSources = new Set<QueueDepthSource>();

new Gauge({
  name: 'verity_queue_jobs',
  help: 'Jobs in each queue by state (waiting, active, delayed), as seen by this process.',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const source of depthSources) {
      let depths: Awaited<ReturnType<QueueDepthSource>>;
      try {
        depths = await source();
      } catch {
        continue; // A store that is down shows as missing series; /readyz says why.
      }
      for (const [queue, d] of Object.entries(depths)) {
        this.inc({ queue, state: 'waiting' }, d.waiting);
        this.inc({ queue, state: 'active' }, d.active);
        this.inc({ queue, state: 'delayed' }, d.delayed);
      }
    }
  },
});

export function addQueueDepthSource(source: QueueDepthSource): () => void {
  depthSources.add(source);
  return () => depthSources.delete(source);
}

export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, seconds);
}

export function recordJob(queue: string, outcome: 'completed' | 'retry' | 'failed', seconds: number): void {
  jobsFinished.inc({ queue, outcome });
  jobDuration.observe({ queue }, seconds);
}

/** For the webhook worker: one call per delivery attempt. */
export function recordWebhookDelivery(outcome: string): void {
  deliveries.inc({ outcome });
}

/** For the analysis pipeline: one call per analysis (stage `total`) or per stage. */
export function recordAnalysisDuration(stage: string, outcome: string, seconds: number): void {
  analysisDuration.observe({ stage, outcome }, seconds);
}

/** Times an async piece of analysis and records it whatever the outcome. */
export async function timeAnalysis<T>(stage: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await work();
    recordAnalysisDuration(stage, 'ok', (performance.now() - started) / 1000);
    return result;
  } catch (error: unknown) {
    recordAnalysisDuration(stage, 'error', (performance.now() - started) / 1000);
    throw error;
  }
}
