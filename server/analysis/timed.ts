/** Times a step of a job into its `timings` (milliseconds, under the step's name), even when it throws. */
export async function timed<T>(timings: Record<string, number>, name: string, fn: () => Promise<T> | T): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    timings[name] = Math.round(performance.now() - t);
  }
}
