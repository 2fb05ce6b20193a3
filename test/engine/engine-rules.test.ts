/**
 * What README "How the provider behaves under refresh, ignoreChanges, get, replace" promises, judged by the
 * real Pulumi CLI: `get` of a missing id, `adoptId`, `--target-replace` on a group that an alert uses, and
 * another organization's credentials on refresh and destroy, and which settings those use: the ones stored at the
 * last `up`, not the stack's current config (`ignoreChanges` on every input: ignore-changes.test.ts). One program (fixtures/declared) declares what the stack config lists.
 */
import type { PulumiStack } from "@cloudcost/testkit";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, TYPES, changes, useEngineFixture, type Declared } from "./support";

const f = useEngineFixture();

let serial = 0;
async function stackOf(resources: Declared[]): Promise<PulumiStack> {
  const stack = await f.stack(DECLARED_PROGRAM, `rules-${++serial}`);
  await stack.setConfigObject(DECLARED_RESOURCES, resources);
  return stack;
}

describe("get", () => {
  it("of a missing id fails `pulumi up` with a message naming the id, and records nothing", async () => {
    const missing = "grp_0000000000000000000000";
    const stack = await stackOf([{ kind: "CloudGroup", name: "looked-up", get: missing }]);
    const up = await stack.up();
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toContain(`CloudGroup ${missing} does not exist`);
    expect(await stack.resourcesOfType(TYPES.group)).toEqual([]);
  });

  it("of an existing id reads it without managing it: destroy leaves it", async () => {
    const existing = await f.api.createGroup({ name: "Looked up, not managed" });
    const stack = await stackOf([{ kind: "CloudGroup", name: "looked-up", get: existing.id }]);
    expect((await stack.up()).code).toBe(0);
    expect((await stack.outputs()).ids).toEqual({ "looked-up": existing.id });
    expect((await stack.destroy()).code).toBe(0);
    await expect(f.api.getGroup(existing.id)).resolves.toMatchObject({ name: "Looked up, not managed" });
  });
});

describe("adoptId", () => {
  it("takes over an object made outside Pulumi instead of creating a second one, then manages it", async () => {
    const portal = await f.api.createGroup({ name: "Made in the portal", description: "before" });
    const stack = await stackOf([
      { kind: "CloudGroup", name: "adopted", inputs: { adoptId: portal.id, name: "Made in the portal", description: "adopted by Pulumi" } },
    ]);
    expect((await stack.up()).code).toBe(0);
    const [adopted] = await stack.resourcesOfType(TYPES.group);
    expect(adopted!.id).toBe(portal.id);
    await expect(f.api.getGroup(portal.id)).resolves.toMatchObject({ description: "adopted by Pulumi" });
    const { digest } = await stack.previewJson(["--refresh"]);
    expect(changes(digest)).toEqual([]);
    expect((await stack.destroy()).code).toBe(0);
    await expect(f.api.getGroup(portal.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("--target-replace on a group that an alert uses", () => {
  let stack: PulumiStack;
  beforeAll(async () => {
    stack = await stackOf([
      { kind: "CloudGroup", name: "shared", inputs: { name: "Shared scope" } },
      { kind: "BudgetAlert", name: "on-shared", groupOf: "shared", inputs: { name: "On shared", amount: 300 } },
    ]);
    expect((await stack.up()).code).toBe(0);
  });
  afterAll(() => stack?.destroy());

  // The engine replaces a group delete-first (its name is unique) and deletes it before anything that uses it
  // moves; even with the alert targeted too (its replacement is create-before-delete). README "Replace" says
  // how to do it in two steps.
  it("fails with the service's 409 naming the alert, shows no stack trace, and changes nothing", async () => {
    const [group] = await stack.resourcesOfType(TYPES.group);
    const [alert] = await stack.resourcesOfType(TYPES.alert);
    const replaced = await stack.up(["--target-replace", group!.urn]);
    expect(replaced.code).not.toBe(0);
    expect(replaced.stdout).toContain(`Cloud Group ${group!.id} is used by alert ${alert!.id}`);
    expect(replaced.stdout + replaced.stderr).not.toMatch(/\bat \S+ \(\/.+:\d+:\d+\)/);
    expect((await stack.resourcesOfType(TYPES.group)).map((r) => r.id)).toEqual([group!.id]);
    await expect(f.api.getAlert(alert!.id!)).resolves.toMatchObject({ groupId: group!.id });
  });
});

describe("another organization's credentials", () => {
  it("on refresh and destroy: the command fails naming both organizations, and nothing leaves state or the service", async () => {
    await f.sandbox.cli(["org", "create", "elsewhere"]);
    const elsewhere = (await f.sandbox.cli(["token", "create", "--org", "elsewhere", "--scopes", "read,write"])).stdout.trim();
    const stack = await stackOf([{ kind: "CloudGroup", name: "owned", inputs: { name: "Owned by demo" } }]);
    // The credentials come from the shell, as in CI: the stack config holds only the URL.
    await stack.must(["config", "rm", "cloudcost:apiToken"]);
    const own = { CLOUDCOST_API_TOKEN: f.token };
    const other = { CLOUDCOST_API_TOKEN: elsewhere };
    expect((await stack.up([], { env: own })).code).toBe(0);
    const [group] = await stack.resourcesOfType(TYPES.group);

    for (const command of [() => stack.refresh([], { env: other }), () => stack.destroy([], { env: other })]) {
      const result = await command();
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toMatch(/org_\w+[\s\S]*org_\w+/);
      expect((await stack.resourcesOfType(TYPES.group)).map((r) => r.id)).toEqual([group!.id]);
      await expect(f.api.getGroup(group!.id!)).resolves.toMatchObject({ name: "Owned by demo" });
    }
    expect((await stack.destroy([], { env: own })).code).toBe(0);
    await expect(f.api.getGroup(group!.id!)).rejects.toMatchObject({ status: 404 });
  });
});

describe("refresh and destroy use the configuration stored at the last `up`", () => {
  it("with another organization's token set in the stack config but no `up` since, both run with the old token", async () => {
    await f.sandbox.cli(["org", "create", "elsewhere-config"]);
    const elsewhere = (await f.sandbox.cli(["token", "create", "--org", "elsewhere-config", "--scopes", "read,write"])).stdout.trim();
    const stack = await stackOf([{ kind: "CloudGroup", name: "kept", inputs: { name: "Deployed with demo's token" } }]);
    expect((await stack.up()).code).toBe(0);
    const [group] = await stack.resourcesOfType(TYPES.group);
    await stack.setConfig({ key: "cloudcost:apiToken", value: elsewhere, secret: true });

    // With the new token either would fail naming both organizations (the test above); with the stored one they pass.
    const refreshed = await stack.refresh();
    expect([refreshed.code, refreshed.stderr]).toEqual([0, ""]);
    expect((await stack.resourcesOfType(TYPES.group)).map((r) => r.id)).toEqual([group!.id]);
    const destroyed = await stack.destroy();
    expect([destroyed.code, destroyed.stderr]).toEqual([0, ""]);
    await expect(f.api.getGroup(group!.id!)).rejects.toMatchObject({ status: 404 });
  });
});
