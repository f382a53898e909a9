/** Where a background component reports a failure it survives: the app's logger (pino) or a test's. */
export interface ErrorLog {
  error(obj: { err: unknown }, msg: string): void;
}
