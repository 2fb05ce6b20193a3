/**
 * Issue 41: the docs site as a reader gets it. `npm run docs` builds it from the Markdown as it is now (VitePress
 * over the repository's own files, the Redoc page from api/openapi.json); then linkinator checks every link and
 * anchor of the built site offline, and Debian's Chromium opens every page at desktop and phone widths: no console
 * error, no failed or outside request, no page wider than the phone, and the local search finds a page.
 * Screenshots of the main pages go to test-artifacts/docs/.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";
import { browserSuiteRunnable, launchChromium, type LocalBrowser } from "../support/chromium";

const REPO = resolve(__dirname, "..", "..");
const SITE = join(REPO, "docs", ".vitepress", "dist");
const ARTIFACTS = join(REPO, "test-artifacts", "docs");
/** Redoc 3's attribution logo, which it always loads from Redocly's CDN (see the route below). */
const REDOC_LOGO = /^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/;
/** A request that leaves the site: http(s) to any host but 127.0.0.1. */
const OUTSIDE = /^https?:\/\/(?!127\.0\.0\.1[:/])/;
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
/** Pages whose screenshots people look at: the front page, one of each section, the generated references. */
const SHOWN = [
  "index.html",
  "guide/getting-started.html",
  "guide/pulumi-python.html",
  "guide/terraform.html",
  "concepts/budgets-compared.html",
  "recipes/ci-alert-test.html",
  "reference/api.html",
  "reference/pulumi/budget-alert.html",
  "reference/terraform/resources/budget_alert.html",
  "packages/provider.html",
  "api/reference.html",
];
const runnable = browserSuiteRunnable("docs site test");

const run = promisify(execFile);

/** Every HTML page of the built site, relative to it. */
function pagesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".html"))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The file a site path names: a folder (no extension) is its index.html. */
function fileOf(path: string): string {
  if (/\.[a-z0-9]+$/i.test(path)) return path;
  return path === "" ? "index.html" : `${path.replace(/\/$/, "")}/index.html`;
}

/** The tags of the document's operations: Redoc's sections. */
function tagsOf(document: { paths: Record<string, Record<string, { tags?: string[] }>> }): string[] {
  return [...new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])))];
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on("error", fail);
  });
}

/** `vitepress preview` on 127.0.0.1: the built site served as a static host would. */
async function preview(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(REPO, "node_modules", "vitepress", "bin", "vitepress.js"), "preview", "docs", "--port", String(port), "--host", "127.0.0.1"],
    {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  await new Promise<void>((ready, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`vitepress preview did not start: ${out}`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes(`:${port}`)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("exit", (code) => fail(new Error(`vitepress preview exited ${code}: ${out}`)));
  });
  return child;
}

(runnable ? describe : describe.skip)("the docs site", () => {
  let pages: string[];
  let server: ChildProcess | undefined;
  let origin: string;
  let browser: LocalBrowser | undefined;
  let page: Page;
  /** Console errors, uncaught exceptions and failed or outside requests, with the page they happened on. */
  const problems: string[] = [];

  beforeAll(async () => {
    await run("npm", ["run", "docs"], { cwd: REPO, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    pages = pagesOf(SITE);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = await preview(port);
    browser = await launchChromium();
    page = browser.page;
    // The Redoc page is one 2.7 MB document whose inline bundle renders before DOMContentLoaded (23 s on a loaded
    // 2-core machine): a bound against a hang, not a speed verdict.
    page.setDefaultTimeout(300_000);
    // The site is offline by design: a request anywhere but the site itself is a defect (the browser cannot
    // resolve any other host: test/support/chromium.ts), but for one: Redoc 3 always shows its "API docs by
    // Redocly" logo from Redocly's CDN (no option turns it off; offline the image hides itself), which is
    // allowed on the Redoc page and nowhere else. Watched, not routed: routing would turn the HTTP cache off.
    browser.context.on("request", (request) => {
      const url = request.url();
      if (OUTSIDE.test(url) && !(REDOC_LOGO.test(url) && page.url().endsWith("/api/reference.html")))
        problems.push(`${page.url()}: outside request ${url}`);
    });
    // Chromium asks every page's host for /favicon.ico of its own accord: the site serves one (`npm run docs`
    // copies docs/favicon.ico), so a reader's console shows no 404 for it either.
    page.on("console", (m) => {
      const source = m.location().url;
      if (m.type() === "error" && !REDOC_LOGO.test(source)) problems.push(`${page.url()}: console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`${page.url()}: uncaught: ${e.message}`));
    // ERR_ABORTED: the next page's navigation cancelled a prefetch of this one (VitePress prefetches linked pages).
    page.on("requestfailed", (r) => {
      const error = r.failure()?.errorText ?? "";
      if (!error.includes("ERR_ABORTED") && !REDOC_LOGO.test(r.url())) problems.push(`${page.url()}: request failed: ${r.url()} ${error}`);
    });
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  beforeEach(() => void problems.splice(0));

  it("has a page for every guide, recipe and reference, and for the resource pages and READMEs where they live", () => {
    for (const expected of [
      "index.html",
      "guide/pulumi-typescript.html",
      "guide/pulumi-python.html",
      "guide/pulumi-go.html",
      "guide/pulumi-yaml.html",
      "guide/terraform.html",
      "guide/cdktf.html",
      "concepts/budgets-compared.html",
      "recipes/ci-alert-test.html",
      "recipes/adoption.html",
      "recipes/interrupted-runs.html",
      "recipes/policies-in-ci.html",
      "reference/api.html",
      "api/reference.html",
      "reference/pulumi/cloud-group.html",
      "reference/terraform/resources/budget_alert.html",
      "packages/provider.html",
      "examples/quickstart.html",
    ])
      expect(pages).toContain(expected);
  });

  it("has no broken link or anchor (linkinator, offline, over the built site)", async () => {
    // Outside links are not followed (no network here); every link and #fragment inside the site is.
    const { stdout } = await run(
      process.execPath,
      [
        join(REPO, "node_modules", "linkinator", "build", "src", "cli.js"),
        SITE,
        "--recurse",
        "--check-fragments",
        // A bounded crawl that retries a connection the loaded machine dropped (status 0), never a real 404.
        "--concurrency",
        "8",
        "--retry-errors",
        "--retry-errors-count",
        "3",
        "--format",
        "json",
        "--skip",
        "^https?://(?!(localhost|127\\.0\\.0\\.1)[:/])",
      ],
      { cwd: REPO, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
    ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }));
    const report = JSON.parse(stdout) as { links: { url: string; state: string; parent?: string; status?: number }[] };
    // linkinator names what it checked by file path; the site's root is its index.html. Every page was reached:
    // the sidebar and the pages' links lead to them all.
    const reached = new Set(report.links.filter((l) => l.state === "OK").map((l) => fileOf(relative(SITE, l.url))));
    expect(pages.filter((p) => p !== "404.html" && !reached.has(p))).toEqual([]);
    // Redoc 3 routes its sections in the browser (history API: /cost, /budget-alerts … one per tag of the
    // document); those are not files, and the browser test below opens the page itself.
    const redocRoutes = new Set(
      tagsOf(JSON.parse(readFileSync(join(REPO, "api", "openapi.json"), "utf8"))).map((t) => `/${t.toLowerCase().replace(/ /g, "-")}`),
    );
    const broken = report.links
      .filter((l) => l.state === "BROKEN")
      .filter((l) => !(l.parent?.endsWith("api/reference.html") && redocRoutes.has(`/${l.url.split("/").pop()}`)));
    expect(broken.map((l) => `${l.parent} → ${l.url} (${l.status})`)).toEqual([]);
  });

  it.each(Object.entries(VIEWPORTS))("every page opens at %s width without an error and fits the screen", async (width, size) => {
    await page.setViewportSize(size);
    const overflowing: string[] = [];
    for (const path of pages) {
      // As the site links it: a folder's index.html by the folder (the router hydrates `/`, not `/index.html`).
      await page.goto(`${origin}/${path.replace(/(^|\/)index\.html$/, "$1")}`, { waitUntil: "load" });
      // The Redoc page renders client-side; VitePress pages are prerendered and hydrate at load.
      await page.waitForLoadState("networkidle");
      const wide = await page.evaluate(() => {
        // Runs in the page (this file's types have no DOM).
        const view = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
        return view.document.documentElement.scrollWidth - view.innerWidth;
      });
      if (wide > 1) overflowing.push(`${path}: ${wide}px wider than the screen`);
      if (SHOWN.includes(path))
        await page.screenshot({ path: join(ARTIFACTS, `${path.replace(/\//g, "_").replace(/\.html$/, "")}-${width}.png`) });
    }
    expect({ problems, overflowing }).toEqual({ problems: [], overflowing: [] });
  });

  it("finds a page by its words with the local search, offline", async () => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page
      .getByRole("button", { name: /search/i })
      .first()
      .click();
    await page.getByRole("searchbox").fill("idempotency key interrupted");
    const first = page.locator(".VPLocalSearchBox .result").first();
    await first.waitFor();
    expect(await page.locator(".VPLocalSearchBox .result").count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, "search-desktop.png") });
    expect(problems).toEqual([]);
  });
});
