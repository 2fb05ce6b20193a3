/**
 * Issue 20: what a user sees of each published package on the registry and in its tarball — the licence
 * text, where the source and the issue tracker are, which Node it needs — and the internal packages that
 * must never be published.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

const run = promisify(execFile);
const REPO = join(__dirname, "..", "..");
const PUBLISHED = ["api", "provider", "policies", "sandbox"] as const;

interface Manifest {
  name: string;
  private?: boolean;
  license?: string;
  repository?: { url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  engines?: { node?: string };
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(REPO, dir, "package.json"), "utf8")) as Manifest;

describe("package metadata", () => {
  it("has the full Apache-2.0 licence at the root", () => {
    const text = readFileSync(join(REPO, "LICENSE"), "utf8");
    expect(text).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(text).toMatch(/END OF TERMS AND CONDITIONS/);
  });

  it.each(PUBLISHED)("%s names its licence, repository folder, homepage, issue tracker and Node range", (dir) => {
    const m = manifest(dir);
    expect(m.private).toBeUndefined();
    expect(m.license).toBe("Apache-2.0");
    expect(m.repository).toMatchObject({ url: expect.stringMatching(/^git\+https:\/\//), directory: dir });
    expect(m.homepage).toMatch(/^https:\/\//);
    expect(m.bugs?.url).toMatch(/^https:\/\/.*\/issues$/);
    expect(m.engines?.node).toBe(">=22");
  });

  it.each(PUBLISHED)("%s ships the licence text identical to the root's", async (dir) => {
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "-w", dir, "--ignore-scripts"], {
      cwd: REPO,
      timeout: START_TIMEOUT_MS,
    });
    const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
    expect(packed!.files.map((f) => f.path)).toContain("LICENSE");
    expect(readFileSync(join(REPO, dir, "LICENSE"), "utf8")).toBe(readFileSync(join(REPO, "LICENSE"), "utf8"));
  });

  it("keeps the repository root and the examples private", () => {
    expect(manifest(".").private).toBe(true);
    for (const example of ["adopt-existing", "forecast-budgets", "platform-teams", "policy-violations", "quickstart", "scoped-budgets"])
      expect(manifest(join("examples", example)).private).toBe(true);
  });
});
