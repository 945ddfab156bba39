import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ROOT, runCli, useDaemon } from '../helpers/daemon.js';
import { accessibilityProblems, type Browser, CHROMIUM, HAVE_CHROMIUM, launch } from './chromium.js';

if (!HAVE_CHROMIUM) console.log(`test/web/page.test.ts: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set KAIROS_CHROMIUM)`);

/** The view from its top, as docs/web.md shows it. */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ROOT, 'docs', 'img', `web-${name}.png`) });
}

describe.skipIf(!HAVE_CHROMIUM)('the page in Chromium, on the real daemon', () => {
  const d = useDaemon();
  let b: Browser;
  let page: Page;

  const openLink = async () => {
    const r = await runCli(['open', '--print-url'], { env: cliEnv(d) });
    expect(r.code, r.stderr).toBe(0);
    const url = r.stdout.trim();
    expect(url).toMatch(new RegExp(`^${d.base}/app/#code=`));
    return url;
  };
  const view = async (key: string, heading: string) => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(key);
    await page.getByRole('heading', { level: 2, name: new RegExp(`^${heading}`) }).waitFor();
  };

  beforeAll(async () => {
    b = await launch();
    page = b.page;
  });
  afterAll(async () => {
    await b?.close();
  });

  it('signs in through the kairos open link, takes the code out of the address bar, and the link works once', async () => {
    const url = await openLink();
    await page.goto(url);
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    expect(page.url()).not.toContain('code=');
    // Signed out, the same link is refused: the page says so and offers the password form.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    await page.goto(url);
    await page.getByText(/no longer works/).waitFor();
    await page.getByLabel('Password').waitFor();
    await page.goto(await openLink());
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
  });

  it("shows an agent key's proposal live in the queue, approves it with a, and the event is in the week", async () => {
    const bot = await d.api('POST', '/auth/keys', { body: { name: 'calendar-bot', agent_id: 'calendar-bot', scopes: ['agent:plan'] } });
    expect(bot.status).toBe(201);
    await view('2', 'Queue');
    await page.getByText('live', { exact: true }).waitFor();
    // The start of this minute: always today, whatever the profile's zone.
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    const plan = await d.api('POST', '/agent/plan', {
      key: bot.json.key,
      body: {
        task_id: 'dentist',
        reasoning: 'You asked for a check-up today.',
        actions: [{ kind: 'add_event', title: 'Dentist check-up', scheduled_for: start, duration_minutes: 30, reasoning: 'first free slot' }],
      },
    });
    expect(plan.status, plan.text).toBe(201);
    const card = page.locator(`[data-plan="${plan.json.plan_id}"]`);
    await card.getByText('why: first free slot').waitFor();
    await card.getByText('by calendar-bot').waitFor();
    await shot(page, 'queue');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.keyboard.press('j');
    await expect.poll(() => card.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('a');
    await card.waitFor({ state: 'detached' });
    expect((await d.api('GET', `/agent/plans/${plan.json.plan_id}`)).json.status).toBe('executed');
    await view('3', 'Calendar');
    await page
      .locator('.day.today')
      .getByRole('button', { name: /Dentist check-up/ })
      .waitFor();
  });

  it('chat proposes a plan with the why of each action, and rejects it in place with a reason', async () => {
    await view('1', 'Chat');
    await page.getByLabel('Ask kairos').fill('plan my week: gym monday and thursday at 7am');
    await page.keyboard.press('Enter');
    const card = page.locator('[data-plan]').last();
    await card
      .getByText(/^why: /)
      .first()
      .waitFor();
    expect(await card.locator('.action').count()).toBe(2);
    await shot(page, 'chat');
    expect(await accessibilityProblems(page)).toEqual([]);
    await card.getByRole('button', { name: /Reject/ }).click();
    await card.getByLabel(/Why reject it/).fill('I go on Tuesdays now');
    await card.getByRole('button', { name: 'Reject', exact: true }).click();
    await card.getByText('rejected: I go on Tuesdays now').waitFor();
    const planId = await card.getAttribute('data-plan');
    const stored = (await d.api('GET', `/agent/plans/${planId}`)).json;
    expect([stored.status, stored.reason]).toEqual(['rejected', 'I go on Tuesdays now']);
  });

  it('calendar: adds a weekly event, edits one occurrence, and marks conflicts and free time', async () => {
    await view('3', 'Calendar');
    const today = page.locator('.day.today');
    await today.getByRole('button', { name: /^Add an event/ }).click();
    await page.getByLabel('Title').fill('Standup');
    await page.getByLabel('Repeats (RRULE, optional)').fill('FREQ=DAILY;COUNT=3');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await today.getByRole('button', { name: /Standup/ }).waitFor();
    await today.getByRole('button', { name: /Standup/ }).click();
    await page.getByLabel('this occurrence').check();
    await page.getByLabel('Title').fill('Standup (moved room)');
    await page.getByRole('button', { name: 'Save' }).click();
    await today.getByRole('button', { name: /Standup \(moved room\)/ }).waitFor();
    const series = (await d.api('GET', '/calendar/events?expand=false')).json.events.find((e: { title: string }) => e.title === 'Standup');
    expect(series.overrides).toHaveLength(1);
    expect(series.overrides[0].title).toBe('Standup (moved room)');
    await expect.poll(() => page.locator('.free').count()).toBeGreaterThan(0);
    await shot(page, 'calendar');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('memory: / searches, the hits are marked, and an edit of the trace shows in its history', async () => {
    const pushed = await d.api('POST', '/memory/push', {
      body: { traces: [{ type: 'observation', task_id: 'health', content: 'The dentist said flossing every evening matters more than brushing harder.' }] },
    });
    expect(pushed.status).toBe(201);
    const uid = pushed.json.saved[0].uid;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search');
    await page.keyboard.type('flossing');
    await page.keyboard.press('Enter');
    await page
      .locator('mark', { hasText: /^flossing$/i })
      .first()
      .waitFor();
    await page
      .getByRole('button', { name: /flossing/ })
      .first()
      .click();
    await page.getByLabel('Content').fill('The dentist said flossing every evening matters most.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.diff ins', { hasText: 'matters most.' }).waitFor();
    const history = (await d.api('GET', `/memory/history?uid=${uid}`)).json;
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    await shot(page, 'memory');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByLabel('Note', { exact: true }).fill('Buy dental floss');
    await page.getByRole('button', { name: 'Push' }).click();
    await page.getByText(/^Saved tr_/).waitFor();
  });

  it('export: a preview with its token count, copied to the clipboard', async () => {
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.base });
    await view('5', 'Export');
    await page.getByRole('button', { name: 'Preview' }).click();
    const tokens = await page.locator('[data-tokens]').textContent();
    expect(Number(tokens?.match(/\d+/)?.[0])).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('flossing');
    await shot(page, 'export');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('fits a 375 px wide screen in every view, in the dark scheme too', async () => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [key, heading] of [
      ['1', 'Chat'],
      ['2', 'Queue'],
      ['3', 'Calendar'],
      ['4', 'Memory'],
      ['5', 'Export'],
    ] as const) {
      await view(key, heading);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), heading).toBeLessThanOrEqual(375);
      expect(await accessibilityProblems(page), heading).toEqual([]);
    }
    await view('3', 'Calendar');
    await shot(page, 'calendar-375-dark');
  });

  it('ran under the strict CSP without a refusal or an uncaught error', async () => {
    const res = await fetch(`${d.base}/app/`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(b.problems).toEqual([]);
  });
});
