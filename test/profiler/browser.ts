// Debian's chromium driven by playwright-core, for the graph viewer's real-browser tests. Never
// a downloaded browser: .ci/run installs chromium (scripts/ci-deps.sh); without it the tests
// skip and say how to get it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const chromiumPath = ((): string => {
  try { return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim(); } catch { return ''; }
})();
const hasPlaywright = existsSync(join(root, 'node_modules', 'playwright-core'));

/** Why the browser tests cannot run here, or '' when they can. */
export const browserMissing = !chromiumPath
  ? 'Debian chromium is not installed (`command -v chromium` found nothing; run `bash scripts/ci-deps.sh` as root, as .ci/run does)'
  : !hasPlaywright ? 'playwright-core is not installed (npm install)' : '';

export interface Page {
  goto(url: string): Promise<unknown>;
  setContent(html: string, o?: object): Promise<unknown>;
  evaluate(js: string): Promise<unknown>;
  screenshot(o: object): Promise<unknown>;
  setViewportSize(s: { width: number; height: number }): Promise<void>;
  on(ev: 'pageerror' | 'console', f: (x: { message?: string; type?: () => string; text?: () => string }) => void): void;
  mouse: { move(x: number, y: number): Promise<void>; wheel(dx: number, dy: number): Promise<void> };
}

/** Runs `f` with a fresh headless page; page errors and console errors are collected in `errors`. */
export async function withPage<T>(f: (page: Page, errors: string[]) => Promise<T>): Promise<T> {
  const pw = (await import('playwright-core' as string)) as { chromium: { launch(o: object): Promise<{ newPage(): Promise<Page>; close(): Promise<void> }> } };
  // Headless, with a fresh empty profile (playwright's defaults). The flags keep chromium off the
  // network this machine does not have (it otherwise retries Google's hosts at start-up) and out
  // of the sandbox root cannot use.
  const browser = await pw.chromium.launch({
    executablePath: chromiumPath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type?.() === 'error') errors.push(`console: ${m.text?.()}`); });
    return await f(page, errors);
  } finally {
    await browser.close();
  }
}
