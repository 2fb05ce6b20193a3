/**
 * Issue 13 item 6: what `pulumi policy publish` uploads is `npm pack` of policies/, and every machine that
 * enforces the pack unpacks it into an empty folder and runs a plain `npm install` there. This packs the
 * workspace, unpacks the tarball alone into an empty folder, installs it with npm from its cache only
 * (`--offline`: nothing may come from anywhere else, and no workspace link can help), then runs it through
 * the real run-policy-pack process of the @pulumi/pulumi it installed: GetAnalyzerInfo, Configure, Analyze.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { satisfies } from "semver";
import { BudgetAlert } from "@cloudcost/pulumi";
import { POLICY_PACK_DIR, declareResources, startPolicyPack, type RunningPolicyPack } from "@cloudcost/testkit";

const run = promisify(execFile);
const REPO = join(POLICY_PACK_DIR, "..");

let root: string;
let packDir: string;
let manifest: {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
let pack: RunningPolicyPack | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cloudcost-policy-tarball-"));
  // `npm pack` runs the prepack bundle step, as `pulumi policy publish` would.
  const { stdout } = await run("npm", ["pack", "-w", "policies", "--pack-destination", root, "--json"], { cwd: REPO, timeout: 60_000 });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  packDir = join(root, "pack");
  await run("mkdir", ["-p", packDir]);
  await run("tar", ["-xzf", join(root, packed!.filename), "-C", packDir, "--strip-components=1"]);
  manifest = JSON.parse(readFileSync(join(packDir, "package.json"), "utf8")) as typeof manifest;
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund"], {
    cwd: packDir,
    timeout: 180_000,
    env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? "/usr" },
  });
  pack = await startPolicyPack({ dir: packDir, env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
}, 240_000);

afterAll(async () => {
  await pack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the policy pack tarball, installed alone", () => {
  it("depends only on packages published on the registry (no workspace names a stranger could register)", () => {
    const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
    expect(Object.keys(all).sort()).toEqual(["@pulumi/policy", "@pulumi/pulumi"]);
  });

  it("takes @pulumi/pulumi as a peer whose range covers the version the workspace tests it with, and installs one in it", () => {
    const versionIn = (dir: string) =>
      (JSON.parse(readFileSync(join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
    const range = manifest.peerDependencies?.["@pulumi/pulumi"];
    expect(range).toBeDefined();
    expect(satisfies(versionIn(REPO), range!)).toBe(true);
    expect(satisfies(versionIn(packDir), range!)).toBe(true);
  });

  it("answers GetAnalyzerInfo with every policy", async () => {
    const info = await pack!.info();
    expect(info.name).toBe("cloudcost-budgets");
    expect(info.policies.map((p) => p.name)).toContain("cloud-group-budget-coverage");
    expect(info.policies.length).toBe(12);
  });

  it("takes a Configure and reports an Analyze violation", async () => {
    await pack!.configure({ "budget-alert-max-amount": { maxMonthlyAmount: { USD: 1000 } } });
    const [alert] = await declareResources(() => [
      new BudgetAlert("huge", { name: "Huge", amount: 5000, recipients: ["finops@example.com"] }),
    ]);
    const result = await pack!.analyze(alert!);
    expect(result.diagnostics.map((d) => d.policyName)).toContain("budget-alert-max-amount");
  });
});
