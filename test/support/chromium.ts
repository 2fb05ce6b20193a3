/**
 * Debian's Chromium for the browser suites (the docs site, the portal): one headless browser per test file, a
 * throwaway profile, and no way out of 127.0.0.1.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** A running browser: its one context and the page it opened with. */
export interface LocalBrowser {
  context: BrowserContext;
  page: Page;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
}

/**
 * Whether a browser suite runs here: without Debian's chromium a developer machine skips it (saying so, with the
 * install command); CI (`CI` set) installs chromium and must run it, so there a missing browser fails instead.
 */
export function browserSuiteRunnable(suite: string): boolean {
  const runnable = existsSync(CHROMIUM) || process.env.CI !== undefined;
  if (!runnable) console.warn(`${suite} SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium); CI runs it.`);
  return runnable;
}

/**
 * Starts headless Chromium with a fresh profile. Every host name but 127.0.0.1 (IP literals included) resolves to
 * nothing, so a request that leaves the machine fails at once (`net::ERR_NAME_NOT_RESOLVED`, a `requestfailed` and a
 * console error the suites report) instead of hanging on the network. This blocks without Playwright's request
 * routing, which turns the HTTP cache off: with it, every page load fetched and compiled every script again.
 * Downloads are accepted (Playwright's default), so a suite can save what a link downloads.
 */
export async function launchChromium(): Promise<LocalBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "cloudcost-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
