/**
 * Issue 40: one verdict, every format, both doors — `cloudcost-policies check-plan` on the plan the real
 * `tofu show -json` printed for examples/policy-violations-terraform (fixtures/policy-violations.tofu-plan.json)
 * and `check-preview` on what the real `pulumi preview --json --show-sames` (v3.274.1) printed for
 * examples/policy-violations against a sandbox on 2026-11-27 (fixtures/policy-violations.preview.json, its
 * `config` — the sandbox's URL and the secret marker — removed; test/engine/policy-reports.test.ts runs the same
 * on a fresh preview). Each format is read back the way its
 * consumer reads it: SARIF against the official SARIF 2.1.0 schema, JUnit XML with a JUnit parser, GitHub's
 * workflow commands by their grammar. Then waivers (valid, expired, unmatched, refused) and the budget a plan
 * adds, changes and removes, with its cap.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse as parseJunit } from "junit2json";
import "./sarif-matcher";
import { defaultPolicies, planVerdict, type Verdict } from "@cloudcost/policies";
import { POLICY_PACK_DIR, START_TIMEOUT_MS } from "@cloudcost/testkit";

const run = promisify(execFile);
const REPO = join(POLICY_PACK_DIR, "..");
const BIN = join(POLICY_PACK_DIR, "bin", "cloudcost-policies.js");
const TF_DIR = join(REPO, "examples", "policy-violations-terraform");
const PULUMI_DIR = join(REPO, "examples", "policy-violations");
const TOFU_PLAN = join(__dirname, "fixtures", "policy-violations.tofu-plan.json");
const PREVIEW = join(__dirname, "fixtures", "policy-violations.preview.json");
const FORMATS = ["text", "json", "sarif", "junit", "github", "markdown"] as const;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cloudcost-reports-"));
  execFileSync(process.execPath, [join(POLICY_PACK_DIR, "scripts", "bundle.mjs")], { stdio: "pipe", timeout: START_TIMEOUT_MS });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `cloudcost-policies ARGS` in CWD; never throws on a non-zero exit. */
async function cli(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      cwd,
      timeout: START_TIMEOUT_MS,
      env: { ...process.env, CLOUDCOST_API_URL: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

/** The 1-based line of each `resource "TYPE" "NAME"` (Terraform) or `new Kind("name"` (Pulumi) in FILE: the oracle for physical locations. */
function declarationLines(file: string, pattern: RegExp): Map<string, number> {
  const out = new Map<string, number>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const m = pattern.exec(line);
      if (m) out.set(m[1]!, i + 1);
    });
  return out;
}

interface Reports {
  code: number;
  stderr: string;
  out: Record<(typeof FORMATS)[number], string>;
}

/** One run writing every format to its file, as the CI examples do; github's goes to standard output. */
async function reports(cwd: string, command: string, input: string, source: string, extra: string[] = []): Promise<Reports> {
  const files = Object.fromEntries(FORMATS.filter((f) => f !== "github").map((f) => [f, join(dir, `${command}-${f}.out`)]));
  const summary = join(dir, `${command}-summary.md`);
  writeFileSync(summary, "");
  const args = [command, input, "--config", "policy-config.json", "--source", source, ...extra, "--format", "github"];
  for (const [format, file] of Object.entries(files)) args.push("--format", `${format}=${file}`);
  const r = await cliWithSummary(cwd, summary, ...args);
  const out = Object.fromEntries(Object.entries(files).map(([f, file]) => [f, readFileSync(file, "utf8")])) as Reports["out"];
  out.github = r.stdout;
  // The job summary GitHub shows is the Markdown report.
  expect(readFileSync(summary, "utf8")).toBe(out.markdown);
  return { code: r.code, stderr: r.stderr, out };
}

async function cliWithSummary(cwd: string, summary: string, ...args: string[]) {
  const prior = process.env.GITHUB_STEP_SUMMARY;
  process.env.GITHUB_STEP_SUMMARY = summary;
  try {
    return await cli(cwd, ...args);
  } finally {
    if (prior === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    else process.env.GITHUB_STEP_SUMMARY = prior;
  }
}

interface SarifLog {
  runs: {
    tool: {
      driver: { rules: { id: string; shortDescription: { text: string }; fullDescription: { text: string }; help: { text: string } }[] };
    };
    results: {
      ruleId: string;
      level: string;
      message: { text: string };
      suppressions?: { status: string; justification: string }[];
      locations: {
        physicalLocation?: { artifactLocation: { uri: string }; region: { startLine: number } };
        logicalLocations: { fullyQualifiedName: string }[];
      }[];
    }[];
  }[];
}

/** Every format of one verdict, checked by its consumer's rules; returns the JSON verdict. */
async function expectEveryFormat(r: Reports, door: "terraform" | "pulumi"): Promise<Verdict> {
  expect([r.code, r.stderr]).toEqual([1, ""]);
  const verdict = JSON.parse(r.out.json) as Verdict;
  expect(verdict.door).toBe(door);
  const findings = [...verdict.violations, ...verdict.waived];

  // SARIF: valid against the OASIS schema; one rule per policy, with description and help; one result per finding.
  const log = JSON.parse(r.out.sarif) as SarifLog;
  expect(log).toBeValidSarifLog();
  const [sarifRun] = log.runs;
  expect(sarifRun!.tool.driver.rules.map((rule) => rule.id).sort()).toEqual(verdict.policies.map((p) => p.name).sort());
  for (const rule of sarifRun!.tool.driver.rules) {
    expect(rule.fullDescription.text.length).toBeGreaterThan(10);
    expect(rule.help.text).toContain(rule.fullDescription.text);
  }
  expect(sarifRun!.results).toHaveLength(findings.length);
  for (const [i, result] of sarifRun!.results.entries()) {
    const f = findings[i]!;
    expect([result.ruleId, result.locations[0]!.logicalLocations[0]!.fullyQualifiedName]).toEqual([f.policy, f.address]);
    expect(result.level).toBe(f.enforcementLevel === "advisory" ? "warning" : "error");
    expect(result.locations[0]!.physicalLocation?.region.startLine).toBe(f.location?.line);
  }

  // JUnit: read back by a JUnit parser; one case per resource × policy, a failure per violated pair.
  const junit = await parseJunit(r.out.junit);
  const suite = (
    junit as { testsuite: { testcase: { classname: string; name: string; failure?: { type?: string }[]; skipped?: unknown[] }[] }[] }
  ).testsuite[0]!;
  const cases = suite.testcase.map((c) => `${c.classname} ${c.name}`);
  expect(new Set(cases).size).toBe(cases.length);
  expect(cases.length).toBe(verdict.judged.length);
  const failed = suite.testcase.filter((c) => c.failure?.length).map((c) => `${c.classname} ${c.name}`);
  expect(failed.sort()).toEqual([...new Set(verdict.violations.map((f) => `${f.address} ${f.policy}`))].sort());

  // GitHub: one workflow command per finding, on its file and line where known, then the summary line.
  const commands = r.out.github.split("\n").filter((l) => l.startsWith("::"));
  for (const f of verdict.violations) {
    const at = f.location ? `file=${f.location.file},line=${f.location.line},` : "";
    const command = f.enforcementLevel === "advisory" ? "warning" : "error";
    expect(commands.filter((c) => c.startsWith(`::${command} ${at}`) && c.includes(`title=${f.policy} (`))).not.toHaveLength(0);
  }
  expect(r.out.github.trimEnd().split("\n").at(-1)).toMatch(/^\d+ cloudcost resource\(s\) judged: /);

  // Markdown: leads with the budget, then the violations, one row each.
  const md = r.out.markdown;
  expect(md.indexOf("### Budget this change adds")).toBeLessThan(md.indexOf("### Violations"));
  expect(md.split("\n").filter((l) => /^\| (mandatory|advisory|waivable) \|/.test(l))).toHaveLength(verdict.violations.length);

  // Text: one line per violation, the budget, the count.
  expect(r.out.text.split("\n").filter((l) => /^(mandatory|advisory|waivable): /.test(l))).toHaveLength(verdict.violations.length);
  expect(r.out.text).toMatch(/^budget: \+/m);
  return verdict;
}

describe("check-plan", () => {
  it("gives the plan's verdict in every format, at the line of each resource block", async () => {
    const r = await reports(TF_DIR, "check-plan", TOFU_PLAN, ".");
    const verdict = await expectEveryFormat(r, "terraform");
    expect(verdict.violations).toHaveLength(13);
    const lines = declarationLines(join(TF_DIR, "main.tf"), /^resource "(\w+" "\w+)"/);
    for (const f of verdict.violations) {
      const [type, name] = f.address.split(".");
      expect(f.location).toEqual({ file: "main.tf", line: lines.get(`${type}" "${name}`), column: 1 });
    }
    // Issue 37: the fix is said in HCL, in every format.
    expect(r.out.sarif).toContain('add e.g. { percent = 100, basis = \\"forecast\\" } to thresholds');
    expect(r.out.markdown).toContain("group_id = cloudcost_cloud_group.unwatched.id");
    expect(r.out.github).not.toMatch(/group_id: cloudcost|\{ percent: /);
  });
});

describe("check-preview", () => {
  it("gives the preview's verdict in every format: the same policies and findings, in the program's names and lines", async () => {
    const r = await reports(PULUMI_DIR, "check-preview", PREVIEW, ".");
    const verdict = await expectEveryFormat(r, "pulumi");
    const plan = JSON.parse((await reports(TF_DIR, "check-plan", TOFU_PLAN, ".")).out.json) as Verdict;
    // One verdict: the same policy on the same resource (named `huge-budget` here, `huge_budget` there).
    const key = (f: { address: string; policy: string; enforcementLevel: string }) =>
      `${f.enforcementLevel} ${f.address
        .replace(/^urn:.*::/, "")
        .replace(/^cloudcost_\w+\./, "")
        .replace(/_/g, "-")} ${f.policy}`;
    expect(verdict.violations.map(key).sort()).toEqual(plan.violations.map(key).sort());
    expect(verdict.budget.total).toEqual(plan.budget.total);
    for (const f of verdict.violations) expect(f.address).toMatch(/^urn:pulumi:/);
    // The program's syntax: the Pulumi door says it as the policies wrote it.
    expect(r.out.text).toContain('add e.g. { percent: 100, basis: "forecast" } to thresholds');
    expect(r.out.text).toContain("(e.g. groupId: group.id)");
    // Where the engine gave a source position, the finding is at the `new …("name"` line of index.ts.
    const lines = declarationLines(join(PULUMI_DIR, "index.ts"), /new \w+\("([\w-]+)"/);
    const located = verdict.violations.filter((f) => f.location);
    for (const f of located) expect(f.location).toMatchObject({ file: "index.ts", line: lines.get(f.address.replace(/^urn:.*::/, "")) });
  });
});

describe("waivers", () => {
  const waiver = (over: Record<string, unknown>) => ({
    resource: "cloudcost_budget_alert.huge_budget",
    policy: "budget-alert-max-amount",
    reason: "Launch month, agreed with FinOps",
    owner: "finops@example.com",
    expires: "2999-12-31",
    ...over,
  });
  const config = (waivable: boolean) => {
    const base = JSON.parse(readFileSync(join(TF_DIR, "policy-config.json"), "utf8")) as Record<string, unknown>;
    return write(`config-${waivable}.json`, { ...base, "budget-alert-max-amount": { enforcementLevel: "mandatory", waivable } });
  };
  const judge = async (waivers: unknown[], waivable = true) =>
    cli(TF_DIR, "check-plan", TOFU_PLAN, "--config", config(waivable), "--waivers", write("waivers.json", { waivers }), "--json");

  it("a valid waiver on a waivable policy lists the finding as waived, not as a violation; the same file serves the URN", async () => {
    const urnWaiver = waiver({ resource: "urn:pulumi:*::huge-budget" });
    const r = await judge([waiver({}), urnWaiver]);
    const verdict = JSON.parse(r.stdout) as Verdict;
    expect(verdict.waived.map((f) => [f.address, f.policy, f.waived?.owner])).toEqual([
      ["cloudcost_budget_alert.huge_budget", "budget-alert-max-amount", "finops@example.com"],
    ]);
    expect(verdict.violations.map((f) => f.policy)).not.toContain("budget-alert-max-amount");
    // The URN waiver matches nothing in a plan: reported.
    expect(verdict.waivers.unmatched).toEqual([urnWaiver]);
    const preview = JSON.parse(
      (await cli(PULUMI_DIR, "check-preview", PREVIEW, "--config", config(true), "--waivers", join(dir, "waivers.json"), "--json")).stdout,
    ) as Verdict;
    expect(preview.waived.map((f) => f.address)).toEqual([expect.stringMatching(/::huge-budget$/)]);
    expect(preview.waivers.unmatched.map((w) => w.resource)).toEqual(["cloudcost_budget_alert.huge_budget"]);
  });

  it("an expired waiver waives nothing and says it expired; on a mandatory (not waivable) policy a waiver is refused", async () => {
    const expired = JSON.parse((await judge([waiver({ expires: "2020-01-31" })])).stdout) as Verdict;
    const finding = expired.violations.find((f) => f.policy === "budget-alert-max-amount")!;
    expect(finding.waiverRefused?.why).toBe("the waiver expired on 2020-01-31");
    expect(expired.waivers.expired.map((w) => w.expires)).toEqual(["2020-01-31"]);
    expect(expired.waived).toEqual([]);
    const text = await cli(TF_DIR, "check-plan", TOFU_PLAN, "--config", config(true), "--waivers", join(dir, "waivers.json"));
    expect(text.stdout).toContain("warning: waiver for cloudcost_budget_alert.huge_budget (budget-alert-max-amount) expired on 2020-01-31");

    const hard = JSON.parse((await judge([waiver({})], false)).stdout) as Verdict;
    expect(hard.waived).toEqual([]);
    expect(hard.violations.find((f) => f.policy === "budget-alert-max-amount")!.waiverRefused?.why).toMatch(/^the policy is mandatory/);
  });

  it("a waiver without a reason, owner or expiry, or naming no policy, is refused: exit 2, naming the field", async () => {
    const { reason: _r, ...noReason } = waiver({});
    const refused = await judge([waiver({}), noReason]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/waivers\.json: refused: waivers\.1\.reason: a waiver needs a reason/);
    const blank = await judge([waiver({ reason: "  " })]);
    expect(blank.stderr).toContain("waivers.0.reason: a waiver needs a reason");
    const typo = await judge([waiver({ policy: "budget-alert-max-amout" })]);
    expect([typo.code, typo.stderr]).toEqual([
      2,
      expect.stringContaining('waivers.0.policy: no policy is called "budget-alert-max-amout"'),
    ]);
  });
});

describe("the budget a change adds", () => {
  /** A plan that adds, changes and removes alerts, in `tofu show -json`'s shape (before/after per change). */
  function changePlan() {
    const plan = JSON.parse(readFileSync(TOFU_PLAN, "utf8")) as {
      resource_changes: {
        address: string;
        type: string;
        change: { actions: string[]; before: unknown; after: Record<string, unknown> | null };
      }[];
      configuration: unknown;
    };
    const alert = (address: string) => plan.resource_changes.find((c) => c.address === address)!;
    const keep = [
      "cloudcost_cloud_group.checkout",
      "cloudcost_budget_alert.checkout_budget",
      "cloudcost_budget_alert.late_budget",
      "cloudcost_budget_alert.euro_budget",
    ];
    // The group exists (its id known); the new alert references it, the changed one names its id.
    const group = alert("cloudcost_cloud_group.checkout");
    group.change = { actions: ["no-op"], before: { ...group.change.after, id: "grp_1" }, after: { ...group.change.after!, id: "grp_1" } };
    const created = alert("cloudcost_budget_alert.checkout_budget"); // + 3,000 USD
    const updated = alert("cloudcost_budget_alert.late_budget");
    // With the thresholds of the budget that passes every policy: this plan breaks none.
    const after = { ...updated.change.after!, group_id: "grp_1", thresholds: created.change.after!.thresholds };
    updated.change = { actions: ["update"], before: { ...after, amount: 1000 }, after: { ...after, amount: 1500 } }; // + 500 USD
    const removed = alert("cloudcost_budget_alert.euro_budget");
    removed.change = {
      actions: ["delete"],
      before: { ...removed.change.after, group_id: "grp_1", currency: "USD", period: "quarterly", amount: 6000 },
      after: null,
    }; // − 2,000 USD a month
    return { ...plan, resource_changes: plan.resource_changes.filter((c) => keep.includes(c.address)) };
  }

  it("sums created, changed and removed monthly amounts per group, account and in total", async () => {
    const verdict = await planVerdict(changePlan(), defaultPolicies(), { today: "2026-11-27" });
    expect(verdict.budget.total).toEqual([{ key: "total", currency: "USD", created: 3000, changed: 500, removed: 2000, net: 1500 }]);
    expect(verdict.budget.byGroup).toEqual([
      { key: "cloudcost_cloud_group.checkout", currency: "USD", created: 3000, changed: 500, removed: 2000, net: 1500 },
    ]);
    expect(verdict.budget.byAccount).toEqual([
      { key: "111122223333", currency: "USD", created: 3000, changed: 500, removed: 2000, net: 1500 },
    ]);
    expect(verdict.budget.alerts.map((a) => [a.address, a.action, a.before, a.after])).toEqual([
      ["cloudcost_budget_alert.checkout_budget", "create", undefined, 3000],
      ["cloudcost_budget_alert.euro_budget", "delete", 2000, undefined],
      ["cloudcost_budget_alert.late_budget", "update", 1000, 1500],
    ]);
  });

  it("is in every format, and the optional budget-increase-cap policy stops a change that adds more than its cap", async () => {
    const plan = write("change.json", changePlan());
    const capped = write("capped.json", { "budget-increase-cap": { enforcementLevel: "mandatory", maxMonthlyIncrease: { USD: 1000 } } });
    write("policy-config.json", {});
    const r = await reports(dir, "check-plan", plan, ".");
    expect(r.code).toBe(0);
    const line = "+1,500 USD/month (created 3,000 USD, changed +500 USD, removed 2,000 USD)";
    expect(r.out.text).toContain(`budget: ${line}`);
    expect(r.out.github).toContain(`::notice title=cloudcost budget change::${line}`);
    expect(r.out.markdown).toContain("| Total (USD) | 3,000 USD | +500 USD | 2,000 USD | **+1,500 USD** |");
    expect((JSON.parse(r.out.json) as Verdict).budget.total[0]!.net).toBe(1500);
    expect(r.out.junit).toContain(`<property name="budget" value="${line}"/>`);
    expect(JSON.parse(r.out.sarif).runs[0].properties.budget).toBe(line);

    const over = await cli(dir, "check-plan", plan, "--config", capped);
    expect(over.code).toBe(1);
    expect(over.stdout).toContain(
      "mandatory: cloudcost_budget_alert.checkout_budget: amount: this change adds 1,500 USD of monthly budget (created 3,000 USD, changed 500 USD, removed 2,000 USD), over the cap of 1,000 USD per change",
    );
    const under = await cli(
      dir,
      "check-plan",
      plan,
      "--config",
      write("roomy.json", { "budget-increase-cap": { enforcementLevel: "mandatory", maxMonthlyIncrease: { USD: 1500 } } }),
    );
    expect(under.code).toBe(0);
  });
});
