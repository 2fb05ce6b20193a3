import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

/**
 * The packed packages next to Pulumi SDKs one release below the floors their ranges claim: loading
 * stops at once with an error naming the version needed (an older SDK would run and silently lose
 * drift on refresh, or remediations). The floors themselves are proven by the node22-floor cell of
 * .ci/run, which runs the engine-facing suites on exactly those versions.
 */

const run = promisify(execFile);
const REPO = resolve(__dirname, "..", "..");
const manifest = (pkg: string) =>
  JSON.parse(readFileSync(join(REPO, pkg, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
    dependencies: Record<string, string>;
  };
const PULUMI_RANGE = manifest("provider").peerDependencies["@pulumi/pulumi"]!;
const POLICY_RANGE = manifest("policies").dependencies["@pulumi/policy"]!;
/** The newest releases in the registry below the floors (3.216.0 and 1.20.0). */
const BELOW = { pulumi: "3.215.0", policy: "1.15.0" };
const installed = (pkg: string) =>
  (JSON.parse(readFileSync(join(REPO, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version.replace(/^v/, "");

let project: string;

async function install(deps: Record<string, string>): Promise<void> {
  const packs = JSON.parse(
    (
      await run("npm", ["pack", "-w", "api", "-w", "provider", "-w", "policies", "--pack-destination", project, "--json"], {
        cwd: REPO,
        timeout: START_TIMEOUT_MS,
      })
    ).stdout,
  ) as { name: string; filename: string }[];
  const local = Object.fromEntries(packs.map((p) => [p.name, `file:${join(project, p.filename)}`]));
  // The SDK versions are forced with overrides too: @pulumi/policy depends on @pulumi/pulumi itself.
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify(
      { name: "cloudcost-sdk-floor-check", private: true, dependencies: { ...local, ...deps }, overrides: { ...local, ...deps } },
      null,
      2,
    ),
  );
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
    cwd: project,
    timeout: START_TIMEOUT_MS,
  });
}

/** `require(spec)` in a fresh Node inside the project, as a Pulumi program (or the policy-pack host) would. */
async function load(spec: string): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ["-e", `require(${JSON.stringify(spec)})`], { cwd: project, timeout: START_TIMEOUT_MS });
    return { code: 0, stderr: "" };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    return { code: e.code ?? 1, stderr: e.stderr ?? "" };
  }
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "cloudcost-sdk-floor-"));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("Pulumi SDKs below the supported floor", () => {
  it("the versions used here are really one release below the floors the packages claim", () => {
    expect(PULUMI_RANGE).toBe("^3.216.0");
    expect(POLICY_RANGE).toBe("^1.20.0");
    expect(manifest("policies").peerDependencies["@pulumi/pulumi"]).toBe(PULUMI_RANGE);
  });

  it("an older @pulumi/pulumi: importing @cloudcost/pulumi fails, naming the version needed, without a stack trace", async () => {
    await install({ "@pulumi/pulumi": BELOW.pulumi, "@pulumi/policy": installed("@pulumi/policy") });
    const result = await load("@cloudcost/pulumi");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `@cloudcost/pulumi needs @pulumi/pulumi ^3.216.0 (3.216.0 or a newer 3.x), but @pulumi/pulumi ${BELOW.pulumi} is installed: run \`npm install @pulumi/pulumi@^3.216.0\`.`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("an older @pulumi/policy: the policy pack refuses to start, naming the version needed", async () => {
    await install({ "@pulumi/pulumi": installed("@pulumi/pulumi"), "@pulumi/policy": BELOW.policy });
    const result = await load("@cloudcost/policies");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `@cloudcost/policies needs @pulumi/policy ^1.20.0 (1.20.0 or a newer 1.x), but @pulumi/policy ${BELOW.policy} is installed: run \`npm install @pulumi/policy@^1.20.0\`.`,
    );
  });
});
