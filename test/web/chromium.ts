import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

export { CHROMIUM };
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors (CSP refusals among them) and uncaught exceptions of the page. */
  problems: string[];
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile, 1000×700, nothing fetched from the network by the browser itself. */
export async function launch(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'kairos-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1000, height: 700 },
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (m) => {
    // The browser logs every 4xx answer too: the expected ones (a used sign-in link, no session
    // yet) are the page's to show, and the tests check what it shows.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is (WCAG 2 A and AA rules). */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate(`axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] }).then((r) => r.violations)`)) as {
    id: string;
    impact: string;
    help: string;
    nodes: { target: string[] }[];
  }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
