import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startPolicyPack, type Diagnostic, type PolicyPackConfigFile, type RunningPolicyPack } from "@cloudcost/testkit";
import { EXAMPLES, previewDiagnostics } from "./example-program";

/**
 * examples/policy-violations through the real policy pack process, as `pulumi preview --policy-pack
 * ../../policies --policy-pack-config policy-config.json` would send it: every message its README
 * shows, and no other.
 */
const DIR = join(EXAMPLES, "policy-violations");
const readme = readFileSync(join(DIR, "README.md"), "utf8");

interface Reported {
  resource: string;
  policy: string;
  level: string;
  /** The violation itself: the pack puts the policy's description on the first line. */
  message: string;
}

const reported = (d: Diagnostic): Reported => ({
  resource: d.urn.split("::").pop()!,
  policy: d.policyName,
  level: d.enforcementLevel,
  message: d.message.split("\n").pop()!,
});

/** The `| resource | policy | level |` rows of the README's table (prettier pads the cells). */
function readmeTable(): { resource: string; policy: string; level: string }[] {
  return [...readme.matchAll(/^\|\s*`([\w-]+)`\s*\|\s*`([\w-]+)`\s*\|\s*(\w+)\s*\|$/gm)].map((m) => ({
    resource: m[1]!,
    policy: m[2]!,
    level: m[3]!,
  }));
}

let pack: RunningPolicyPack;
let diagnostics: Reported[];

beforeAll(async () => {
  pack = await startPolicyPack();
  await pack.configure(JSON.parse(readFileSync(join(DIR, "policy-config.json"), "utf8")) as PolicyPackConfigFile);
  diagnostics = (await previewDiagnostics(pack, "policy-violations")).diagnostics.map(reported);
});

afterAll(async () => {
  await pack?.stop();
});

describe("examples/policy-violations under the policy pack", () => {
  it("breaks every policy of the pack (but the live forecast check) exactly as its README's table says", async () => {
    const byKey = (a: { resource: string; policy: string }, b: { resource: string; policy: string }) =>
      `${a.resource} ${a.policy}`.localeCompare(`${b.resource} ${b.policy}`);
    const found = diagnostics.map(({ resource, policy, level }) => ({ resource, policy, level })).sort(byKey);
    expect(found).toEqual(readmeTable().sort(byKey));
    // budget-alert-forecast compares with the live service's forecast, and budget-alert-adjusted-amount judges
    // the amount the service sets from history (an output of `up`): nothing to show in a static preview.
    const policies = (await pack.info()).policies
      .map((p) => p.name)
      .filter((name) => name !== "budget-alert-forecast" && name !== "budget-alert-adjusted-amount")
      .sort();
    expect([...new Set(found.map((f) => f.policy))].sort()).toEqual(policies);
  });

  it("shows each message verbatim in the README", () => {
    for (const d of diagnostics) expect(readme).toContain(`${d.resource} — ${d.policy} (${d.level})\n  ${d.message}\n`);
  });

  it("would block the deployment: mandatory violations are among them", () => {
    expect(diagnostics.filter((d) => d.level === "mandatory").length).toBeGreaterThan(0);
  });
});
