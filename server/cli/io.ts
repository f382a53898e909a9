/** Output of CLI commands: plain lines to stdout, so scripts can read the last line. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

export class UsageError extends Error {
  override name = 'UsageError';
}
