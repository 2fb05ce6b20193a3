import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * scripts/ensure-deps.js (`pretest`, `predemo`) in a scratch checkout whose `npm` is a stand-in that
 * records how it was called: it installs only when node_modules is missing or older than the lockfile.
 */
const SCRIPT = join(__dirname, "..", "..", "scripts", "ensure-deps.js");
let root: string;

function scratchCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-ensure-deps-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "bin"));
  copyFileSync(SCRIPT, join(dir, "scripts", "ensure-deps.js"));
  writeFileSync(join(dir, "package-lock.json"), "{}");
  // The stand-in npm writes its arguments and the nodedir it saw, then "installs" like npm install does.
  const fakeNpm = `#!/bin/sh\necho "$* nodedir=$npm_config_nodedir" >> "${dir}/npm-calls"\nmkdir -p "${dir}/node_modules" && echo {} > "${dir}/node_modules/.package-lock.json"\n`;
  writeFileSync(join(dir, "bin", "npm"), fakeNpm);
  chmodSync(join(dir, "bin", "npm"), 0o755);
  return dir;
}

function ensureDeps(env: Record<string, string> = {}): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const { npm_config_nodedir: _dropped, ...inherited } = process.env;
    execFile(process.execPath, [join(root, "scripts", "ensure-deps.js")], { env: { ...inherited, PATH: `${join(root, "bin")}:${process.env.PATH}`, ...env }, timeout: 30_000 }, (err, stdout) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout }),
    );
  });
}

const calls = (): string[] => (existsSync(join(root, "npm-calls")) ? readFileSync(join(root, "npm-calls"), "utf8").trim().split("\n") : []);

beforeEach(() => {
  root = scratchCheckout();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("scripts/ensure-deps.js", () => {
  it("installs the locked dependencies on a fresh clone (no node_modules)", async () => {
    const result = await ensureDeps();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Installing dependencies (npm install, locked versions)");
    const nodedir = existsSync("/usr/include/node/node.h") ? "/usr" : "";
    expect(calls()).toEqual([`install --no-audit --no-fund nodedir=${nodedir}`]);
  });

  it("does nothing when node_modules is newer than the lockfile", async () => {
    await ensureDeps();
    const second = await ensureDeps();
    expect(second).toEqual({ code: 0, stdout: "" });
    expect(calls()).toHaveLength(1);
  });

  it("installs again when the lockfile changed after the last install", async () => {
    await ensureDeps();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "package-lock.json"), later, later);
    await ensureDeps();
    expect(calls()).toHaveLength(2);
  });

  it("keeps an npm_config_nodedir the caller set", async () => {
    await ensureDeps({ npm_config_nodedir: "/opt/node" });
    expect(calls()).toEqual(["install --no-audit --no-fund nodedir=/opt/node"]);
  });
});
