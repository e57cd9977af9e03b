/**
 * Debian's Chromium, headless, driven by playwright-core (no browser download): a fresh profile
 * directory per launch and the flags this closed network needs. Page errors and console errors are collected.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

export interface HeadlessPage {
  browser: BrowserContext;
  page: Page;
  pageErrors: string[];
  /** console messages of type error (a failed request, a script error), from the first load on */
  consoleErrors: string[];
  close(): Promise<void>;
}

export async function openHeadlessPage(url: string, viewport: { width: number; height: number }): Promise<HeadlessPage> {
  // a fresh --user-data-dir (playwright passes the profile directory as that flag)
  const profile = mkdtempSync(join(tmpdir(), 'teg-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
  });
  await page.goto(url);
  return {
    browser,
    page,
    pageErrors,
    consoleErrors,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
