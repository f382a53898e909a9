/**
 * How every browser test and bench launches Debian's Chromium: never a downloaded browser, headless,
 * nothing phoning home, and optionally a fake camera playing a y4m file.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium's command-line flags; with `camera`, getUserMedia is granted and plays that y4m file. */
export function chromiumArgs(camera?: string): string[] {
  if (!camera) return [...QUIET_FLAGS];
  return [...QUIET_FLAGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${camera}`];
}
