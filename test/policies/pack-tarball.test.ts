/**
 * Issue 13 item 6: what `pulumi policy publish` uploads is `npm pack` of policies/, and every machine that
 * enforces the pack unpacks it into an empty folder and runs a plain `npm install` there. This packs the
 * workspace, unpacks the tarball alone into an empty folder outside the repository (no workspace link can
 * help), installs it the way an enforcing machine does — a plain `npm install` from the registry npm is
 * configured with, with an empty npm cache of the test's own, so nothing a warm cache holds can stand in for
 * a missing dependency — then runs it through the real run-policy-pack process of the @pulumi/pulumi it
 * installed: GetAnalyzerInfo, Configure, Analyze.
 *
 * Issue 17: the same tarball is a library. `require("@cloudcost/policies")` gives the policy factories and
 * starts nothing, and a platform team's own pack, installed next to it like any dependency, runs through
 * the real policy-pack process with our policies tuned by the factories.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { satisfies } from "semver";
import { ModuleKind, ScriptTarget, transpileModule } from "typescript";
import { BudgetAlert } from "@cloudcost/pulumi";
import { declareResources, POLICY_PACK_DIR, START_TIMEOUT_MS, startPolicyPack, type RunningPolicyPack } from "@cloudcost/testkit";

const run = promisify(execFile);
/** A cold install: an npm cache of this test file's own, made empty in beforeAll and removed with `root`. */
const installEnv = () => ({
  ...process.env,
  npm_config_nodedir: process.env.npm_config_nodedir ?? "/usr",
  npm_config_cache: join(root, "npm-cache"),
});
const REPO = join(POLICY_PACK_DIR, "..");

let root: string;
let packDir: string;
let manifest: {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
let pack: RunningPolicyPack | undefined;
let tarball: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "cloudcost-policy-tarball-"));
  // `npm pack` runs the prepack bundle step, as `pulumi policy publish` would.
  const { stdout } = await run("npm", ["pack", "-w", "policies", "--pack-destination", root, "--json"], {
    cwd: REPO,
    timeout: START_TIMEOUT_MS,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  packDir = join(root, "pack");
  await run("mkdir", ["-p", packDir]);
  tarball = join(root, packed!.filename);
  await run("tar", ["-xzf", tarball, "-C", packDir, "--strip-components=1"]);
  manifest = JSON.parse(readFileSync(join(packDir, "package.json"), "utf8")) as typeof manifest;
  await run("npm", ["install", "--no-audit", "--no-fund"], {
    cwd: packDir,
    timeout: START_TIMEOUT_MS,
    env: installEnv(),
  });
  pack = await startPolicyPack({ dir: packDir, env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
});

afterAll(async () => {
  await pack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs `script` with plain Node in `cwd`; a process that does not exit by itself fails on the timeout. */
async function node(cwd: string, script: string): Promise<string> {
  return (await run(process.execPath, ["-e", script], { cwd, timeout: START_TIMEOUT_MS })).stdout;
}

/**
 * A platform team's own pack: `examples/custom-policy-pack/index.ts` (the program policies/README.md shows),
 * compiled to JavaScript as its team would before `pulumi policy publish`.
 */
function customPack(): string {
  const source = readFileSync(join(REPO, "examples", "custom-policy-pack", "index.ts"), "utf8");
  return transpileModule(source, { compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 } }).outputText;
}

describe("the policy pack tarball as a library", () => {
  it("require() gives the policy factories and the default set, starts no server and lets the process exit", async () => {
    // Self-reference by name resolves through package.json `exports`, as `require("@cloudcost/policies")` does for a user.
    const out = await node(
      packDir,
      `const p = require("@cloudcost/policies"); const l = require("@cloudcost/policies/library");
       console.log(JSON.stringify({ same: p === l, name: p.PACK_NAME, names: p.defaultPolicies().map((x) => x.name), tuned: p.budgetTotalCap({ enforcementLevel: "advisory" }).enforcementLevel }))`,
    );
    const { same, name, names, tuned } = JSON.parse(out) as { same: boolean; name: string; names: string[]; tuned: string };
    expect(same).toBe(true);
    expect(name).toBe("cloudcost-budgets");
    expect(names).toHaveLength(15);
    expect(names).toContain("budget-alert-max-amount");
    expect(tuned).toBe("advisory");
  });

  it("a factory refuses a misspelt default when the custom pack is built, naming the policy and the field", async () => {
    await expect(
      node(packDir, `require("@cloudcost/policies").budgetAlertCurrency({ defaults: { allowedCurrency: ["EUR"] } })`),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('defaults of policy "budget-alert-currency" are invalid') as unknown,
    });
  });

  it("ships one declaration file that names no workspace package", () => {
    const types = readFileSync(join(packDir, "dist", "library.bundle.d.ts"), "utf8");
    expect(types).toContain("declare const budgetAlertCurrency: PolicyFactory<");
    expect(types).not.toMatch(/@cloudcost\//);
  });

  it("the README's custom pack (examples/custom-policy-pack), installed next to the tarball, runs through the real policy-pack process", async () => {
    const custom = join(root, "acme-budgets");
    await run("mkdir", ["-p", custom]);
    writeFileSync(join(custom, "PulumiPolicy.yaml"), "runtime: nodejs\n");
    writeFileSync(join(custom, "index.js"), customPack());
    writeFileSync(
      join(custom, "package.json"),
      JSON.stringify({
        name: "acme-budgets",
        version: "1.0.0",
        private: true,
        main: "index.js",
        dependencies: { "@cloudcost/policies": `file:${tarball}`, "@pulumi/policy": manifest.dependencies!["@pulumi/policy"] },
      }),
    );
    await run("npm", ["install", "--no-audit", "--no-fund"], { cwd: custom, timeout: START_TIMEOUT_MS, env: installEnv() });
    const acme = await startPolicyPack({ dir: custom, env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
    try {
      const info = await acme.info();
      expect(info.name).toBe("acme-budgets");
      expect(info.policies).toHaveLength(15);
      expect(info.policies.find((p) => p.name === "budget-total-cap")?.enforcementLevel).toBe("advisory");
      expect(
        info.policies.find((p) => p.name === "budget-alert-currency")?.configSchema?.properties["allowedCurrencies"]?.["default"],
      ).toEqual(["EUR"]);
      // The team's defaults apply with no --policy-pack-config: a 30 000 EUR budget is over its 20 000 EUR cap.
      await acme.configure({});
      const [alert] = await declareResources(() => [
        new BudgetAlert("eur", { name: "Euro", amount: 30_000, currency: "EUR", recipients: ["finops@example.com"] }),
      ]);
      const verdicts = (await acme.analyze(alert!)).diagnostics.map((d) => d.policyName);
      expect(verdicts).toContain("budget-alert-max-amount");
      expect(verdicts).not.toContain("budget-alert-currency");
    } finally {
      await acme.stop();
    }
  });
});

describe("the policy pack tarball, installed alone", () => {
  it("depends only on packages published on the registry (no workspace names a stranger could register)", () => {
    const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
    // Issue 40: the reports' HCL parser (tree-sitter's grammar as WebAssembly) and JUnit writer, from the registry too.
    expect(Object.keys(all).sort()).toEqual([
      "@pulumi/policy",
      "@pulumi/pulumi",
      "@tree-sitter-grammars/tree-sitter-hcl",
      "junit-report-builder",
      "web-tree-sitter",
    ]);
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
    expect(info.policies.length).toBe(15);
  });

  it("carries the cloudcost-policies command: check-plan judges a Terraform plan and exits 1 on a mandatory violation", async () => {
    const manifestBin = (JSON.parse(readFileSync(join(packDir, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin;
    expect(manifestBin).toEqual({ "cloudcost-policies": "bin/cloudcost-policies.js" });
    const plan = join(REPO, "test", "policies", "fixtures", "policy-violations.plan.json");
    const failed = await run(process.execPath, [join(packDir, manifestBin!["cloudcost-policies"]!), "check-plan", plan], {
      cwd: packDir,
      timeout: START_TIMEOUT_MS,
    }).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('mandatory: cloudcost_budget_alert.euro_budget: currency: currency "EUR" is not allowed');
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
