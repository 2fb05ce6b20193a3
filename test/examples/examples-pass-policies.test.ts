import { DECLARE_PROJECT, DECLARE_STACK, startPolicyPack, type RunningPolicyPack } from "@cloudcost/testkit";
import { previewDiagnostics, stackConfigOf } from "./example-program";

/**
 * Users copy the examples, so every example but policy-violations must pass the policy pack with its
 * default configuration, as `pulumi preview --policy-pack policies` checks them.
 */
const EXAMPLES: [string, Record<string, string>][] = [
  ["quickstart", {}],
  ["platform-teams", stackConfigOf("platform-teams", DECLARE_STACK, DECLARE_PROJECT)],
  ["forecast-budgets", {}],
  ["scoped-budgets", {}],
  ["adopt-existing", { [`${DECLARE_PROJECT}:groupId`]: "grp_0123456789abcdef" }],
];

let pack: RunningPolicyPack;

beforeAll(async () => {
  pack = await startPolicyPack();
  await pack.configure({});
});
afterAll(() => pack?.stop());

describe("the examples under the policy pack's defaults", () => {
  it.each(EXAMPLES)("%s has no violation", async (example, config) => {
    const { resources, diagnostics } = await previewDiagnostics(pack, example, config);
    expect(resources.length).toBeGreaterThanOrEqual(2);
    expect(diagnostics.map((x) => `${x.urn.split("::").pop()}: ${x.policyName}: ${x.message}`)).toEqual([]);
  });
});
