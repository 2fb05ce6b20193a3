/**
 * A markdown-it rule for pages that are files of the repository: their relative links are written for the
 * repository (they work on GitHub and in a checkout), so each is resolved against the file's own folder and
 * becomes the route of the page it points at, or the repository's web view of a file that is no page. A link
 * to a file that does not exist fails the build, naming the page and the link.
 */
import type { MarkdownRenderer } from "vitepress";
import { relative } from "node:path";
import { REPO, siteLinkOf } from "./site-map.mjs";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** What VitePress puts into the render env of a page: `realPath` is the file it was read from. */
interface PageEnv {
  realPath?: string;
  path?: string;
}

export function repoLinks(md: MarkdownRenderer, broken: string[]): void {
  md.core.ruler.push("cloudcost_repo_links", (state) => {
    const env = state.env as PageEnv;
    const file = env.realPath ?? env.path;
    if (!file) return;
    const from = relative(REPO, file).replace(/\\/g, "/");
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== "link_open") continue;
        const href = token.attrGet("href");
        if (!href || href.startsWith("#") || href.startsWith("/") || SCHEME.test(href)) continue;
        const site = siteLinkOf(from, href);
        if (site === undefined) broken.push(`${from}: ${href}`);
        else token.attrSet("href", site);
      }
    }
  });
}
