/**
 * What each published tarball holds must stand on its own: a source map either carries its sources
 * (`sourcesContent`, from `inlineSources`) or points at files the tarball ships, and every relative link
 * in a shipped Markdown file (READMEs, docs) resolves to a shipped file. `npm pack --dry-run` lists exactly
 * what `npm publish` would upload.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

const run = promisify(execFile);
const REPO = resolve(__dirname, "..", "..");
const PUBLISHED = ["api", "sandbox", "provider", "policies"];

interface Packed {
  name: string;
  files: { path: string }[];
}

let packed: Map<string, Set<string>>;

beforeAll(async () => {
  for (const pkg of PUBLISHED) {
    if (!existsSync(join(REPO, pkg, "dist"))) throw new Error(`${pkg}/dist is missing: run \`npm run build\` first`);
  }
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", ...PUBLISHED.flatMap((p) => ["-w", p])], {
    cwd: REPO,
    timeout: START_TIMEOUT_MS,
  });
  const list = JSON.parse(stdout) as Packed[];
  packed = new Map(list.map((p, i) => [PUBLISHED[i]!, new Set(p.files.map((f) => normalize(f.path)))]));
});

/** Relative link targets of a Markdown text: `[text](target)`, without `#anchor`, `?query` or a scheme. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!.split("#")[0]!.split("?")[0]!)
    .filter((target) => target !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe.each(PUBLISHED)("the %s tarball", (pkg) => {
  it("ships source maps that carry their sources or point at shipped files", () => {
    const files = packed.get(pkg)!;
    const maps = [...files].filter((f) => f.endsWith(".js.map"));
    const unresolved = maps.flatMap((map) => {
      const content = JSON.parse(readFileSync(join(REPO, pkg, map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      return content.sources
        .filter((source, i) => typeof content.sourcesContent?.[i] !== "string")
        .filter((source) => !files.has(normalize(join(dirname(map), source))))
        .map((source) => `${map} → ${source}`);
    });
    expect(unresolved).toEqual([]);
  });

  it("ships Markdown whose relative links all resolve inside the tarball", () => {
    const files = packed.get(pkg)!;
    const broken = [...files]
      .filter((f) => f.endsWith(".md"))
      .flatMap((md) =>
        relativeLinks(readFileSync(join(REPO, pkg, md), "utf8"))
          .filter((target) => !files.has(normalize(join(dirname(md), decodeURIComponent(target)))))
          .map((target) => `${md} → ${target}`),
      );
    expect(broken).toEqual([]);
  });
});
