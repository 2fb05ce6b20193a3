/**
 * Every example through the real Pulumi CLI against a sandbox, the way a user meets it: `pulumi up`; an
 * alert changed behind Pulumi's back; `pulumi preview --refresh` shows exactly that change; `pulumi up` puts it
 * back; `pulumi refresh` twice changes nothing; `pulumi destroy` leaves the organization as it was.
 *
 * Each example is its own program, so its own stack; the state exported after the restoring `up` serves the
 * refresh case too (issue 39: a second `stack export` of an unchanged state shows nothing new).
 */
import { join } from "node:path";
import type { PulumiStack, StateResource } from "@cloudcost/testkit";
import {
  EXAMPLES,
  TYPES,
  changeAlertAmount,
  changedInputs,
  changes,
  comparable,
  nameOf,
  organizationIds,
  useEngineFixture,
} from "./support";

const f = useEngineFixture();

/** The group the sandbox seeds in the demo organization ("Production"), which adopt-existing adopts. */
async function portalGroupId(): Promise<string> {
  for await (const group of f.api.listGroups()) if (group.name === "Production") return group.id;
  throw new Error("the sandbox's demo organization has no Production group");
}

/** The stack name and extra config each example needs; `dev` picks up platform-teams' Pulumi.dev.yaml. */
const EXAMPLE_STACKS: { example: string; stack: string; config?: () => Promise<{ key: string; value: string }[]> }[] = [
  { example: "quickstart", stack: "quickstart" },
  { example: "platform-teams", stack: "dev" },
  { example: "forecast-budgets", stack: "forecast" },
  { example: "alert-fires", stack: "alert-fires" },
  { example: "scoped-budgets", stack: "scoped" },
  {
    example: "adopt-existing",
    stack: "adopt",
    config: async () => [{ key: "cloudcost-adopt-existing:groupId", value: await portalGroupId() }],
  },
];

describe.each(EXAMPLE_STACKS)("examples/$example through the real CLI", ({ example, stack: stackName, config }) => {
  let stack: PulumiStack;
  let before: Awaited<ReturnType<typeof organizationIds>>;
  /** The stack's resources as exported after the restoring `up`, with secrets shown. */
  let exported: StateResource[] = [];
  const alertsOf = (resources: StateResource[]) => resources.filter((r) => r.type === TYPES.alert);

  beforeAll(async () => {
    before = await organizationIds(f.api);
    stack = await f.stack(join(EXAMPLES, example), stackName, (await config?.()) ?? []);
  });

  it("deploys with `pulumi up`", async () => {
    const up = await stack.up();
    expect(up.code).toBe(0);
    const alerts = await stack.resourcesOfType(TYPES.alert);
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) expect((await f.api.getAlert(alert.id!)).id).toBe(alert.id);
  });

  it("shows a change made behind Pulumi's back in `pulumi preview --refresh`, and only that", async () => {
    const drift = await changeAlertAmount(f.api, stack, TYPES.alert);
    const { code, digest } = await stack.previewJson(["--refresh"]);
    expect(code).toBe(0);
    const planned = changes(digest);
    expect(planned.map((s) => [s.op, nameOf(s.urn)])).toEqual([["update", drift.name]]);
    expect(changedInputs(planned[0]!)).toEqual(["amount"]);
    expect(planned[0]!.oldState?.inputs?.amount).toBe(drift.drifted);
    expect(planned[0]!.newState?.inputs?.amount).toBe(drift.declared);
  });

  it("puts it back with `pulumi up`", async () => {
    expect((await stack.up(["--refresh"])).code).toBe(0);
    // With secrets shown: the next case compares refreshed states with this one.
    exported = (await stack.exportState({ showSecrets: true })).deployment.resources ?? [];
    const [alert] = alertsOf(exported);
    expect((await f.api.getAlert(alert!.id!)).amount).toBe(alert!.inputs!.amount);
  });

  it("changes nothing on `pulumi refresh`, twice, and previews no change afterwards", async () => {
    const settled = comparable(exported);
    expect((await stack.refresh()).code).toBe(0);
    expect(comparable((await stack.exportState({ showSecrets: true })).deployment.resources ?? [])).toEqual(settled);
    expect((await stack.refresh()).code).toBe(0);
    expect(comparable((await stack.exportState({ showSecrets: true })).deployment.resources ?? [])).toEqual(settled);
    const { digest } = await stack.previewJson();
    expect(changes(digest)).toEqual([]);
  });

  it("leaves the organization as it was after `pulumi destroy`", async () => {
    expect((await stack.destroy()).code).toBe(0);
    expect(await organizationIds(f.api)).toEqual(before);
    expect((await stack.remove()).code).toBe(0);
  });
});
