import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * What a browser test says when a page did not get where it should: a screenshot, the headings,
 * alerts and status lines on screen (through the components' shadow roots), and the last console
 * lines. A timeout alone ("waiting for navigation") does not say which step the user was stuck on.
 */
export class PageDiagnosis {
  private readonly lines: string[] = [];

  constructor(private readonly page: Page) {
    page.on('console', (m) => this.keep(`console.${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => this.keep(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => this.keep(`request failed: ${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText ?? ''}`));
    // The face model runs in a worker: whether it started, and whether it ended, says where a selfie stalled.
    page.on('worker', (w) => {
      this.keep(`worker started: ${w.url().slice(0, 120)}`);
      w.on('close', () => this.keep(`worker closed: ${w.url().slice(0, 120)}`));
    });
  }

  private keep(line: string): void {
    this.lines.push(line.slice(0, 300));
    if (this.lines.length > 40) this.lines.shift();
  }

  /**
   * Runs `step`; if it throws, throws again with what the page showed (and saves a screenshot in
   * `dir`), and what `serverSide` says (the server's record of the same moment), when given.
   */
  async around<T>(what: string, dir: string, step: () => Promise<T>, serverSide?: () => Promise<string>): Promise<T> {
    try {
      return await step();
    } catch (error: unknown) {
      const shot = join(dir, `${what.replace(/\W+/g, '-')}-failure.png`);
      await this.page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
      const onScreen = await this.page
        .locator('h1, h2, h3, [role=alert], [role=status], button')
        .allInnerTexts()
        .catch((e: unknown) => [`(page unreadable: ${String(e)})`]);
      const shown = onScreen.map((t) => t.trim()).filter(Boolean);
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      const server = serverSide ? await serverSide().catch((e: unknown) => `(unreadable: ${String(e)})`) : '';
      throw new Error(
        `${what}: ${message}\nat ${this.page.url()}\non screen: ${JSON.stringify(shown)}\nscreenshot: ${shot}\nserver: ${server}\nlast page events:\n${this.lines.join('\n')}`,
        { cause: error },
      );
    }
  }
}
