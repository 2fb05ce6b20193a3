/**
 * Which Markdown files of the repository are pages of the docs site, and under which route. The site is built
 * from the files where they are (srcDir is the repository root): the per-resource pages, the package READMEs
 * and the examples' READMEs are edited in their packages and picked up at every build, never copied.
 */
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is docs/.vitepress/site-map.mts). */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Where a repository file that is not a page is shown: the repository's web view. */
export const REPO_WEB = "https://github.com/cloudcost/cloudcost-pulumi";

/** Repository path → site path (both with `.md`), first match wins. */
const ROUTES: readonly [RegExp, (...groups: string[]) => string][] = [
  [/^docs\/(.+\.md)$/, (page) => page],
  [/^provider\/docs\/([\w-]+\.md)$/, (page) => `reference/pulumi/${page}`],
  [/^terraform-provider-cloudcost\/docs\/(.+\.md)$/, (page) => `reference/terraform/${page}`],
  [/^(api|provider|native|policies|sandbox|terraform-provider-cloudcost|testkit|bench)\/README\.md$/, (pkg) => `packages/${pkg}.md`],
  [/^sandbox\/OAUTH\.md$/, () => "packages/sandbox-oauth.md"],
  [/^examples\/([\w-]+)\/README\.md$/, (example) => `examples/${example}.md`],
  [/^(CONTRIBUTING|ARCHITECTURE|RELEASING)\.md$/, (name) => `${name.toLowerCase()}.md`],
];

/** The site path of a repository Markdown file, or undefined when it is not a page. */
export function routeOf(repoPath: string): string | undefined {
  for (const [from, to] of ROUTES) {
    const m = from.exec(repoPath);
    if (m) return to(...m.slice(1));
  }
  return undefined;
}

/** The repository's Markdown files git knows of (committed, staged or new), repository-relative. */
export function markdownFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: REPO, encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "" && existsSync(join(REPO, f)));
}

/** VitePress's `rewrites`: every published file to its route. */
export function rewrites(): Record<string, string> {
  return Object.fromEntries(markdownFiles().flatMap((f) => (routeOf(f) ? [[f, routeOf(f)!]] : [])));
}

/**
 * Globs for VitePress's `srcExclude`: everything but the pages. The repository holds Markdown that is no page
 * (changelogs, fixtures, generated SDKs, virtualenvs of the Python examples), so whole trees are left out first.
 */
export function nonPages(): string[] {
  const trees = ["**/.*/**", "**/venv/**", "sdk/**", "test/**", "scripts/**"];
  return [...trees, ...markdownFiles().filter((f) => routeOf(f) === undefined)];
}

/**
 * Where a relative link written in the repository file FROM to TARGET (`../README.md#x`, `../../examples/quickstart`)
 * points on the site: the route of a page, `/api/…` for the published contract, or the repository's web view.
 * Undefined when the target does not exist in the repository (a broken link).
 */
export function siteLinkOf(from: string, target: string): string | undefined {
  const [pathPart, ...hash] = target.split("#");
  const fragment = hash.length > 0 ? `#${hash.join("#")}` : "";
  const path = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(pathPart!))).replace(/\/$/, "");
  if (path === "" || path === ".") return `${REPO_WEB}${fragment}`;
  if (path.startsWith("..") || !existsSync(join(REPO, path))) return undefined;
  if (path === "api/openapi.json") return `/api/openapi.json${fragment}`;
  const isDirectory = statSync(join(REPO, path)).isDirectory();
  const readme = `${path}/README.md`;
  const page = isDirectory ? (existsSync(join(REPO, readme)) ? routeOf(readme) : undefined) : routeOf(path);
  if (page) return `/${page.replace(/(^|\/)index\.md$/, "$1").replace(/\.md$/, "")}${fragment}`;
  return `${REPO_WEB}/${isDirectory ? "tree" : "blob"}/main/${path}${fragment}`;
}
