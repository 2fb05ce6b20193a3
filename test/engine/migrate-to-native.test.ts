/**
 * Moving a stack from the dynamic resources to the native plugin's, the two ways README "Moving a stack to
 * the native provider" says: aliases (one `up`), or retain then `import`. The real CLI runs each step of
 * fixtures/migrate against a sandbox; no object is created, changed or deleted on the way, and the stack
 * ends on the native types with a quiet preview.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { PulumiStack } from "@cloudcost/testkit";
import { FIXTURES, REPO, TYPES, organizationIds, useEngineFixture } from "./support";

const fx = useEngineFixture();

/** The fixture deployed on the dynamic resources, with what the API says about its objects. */
async function dynamicStack(name: string) {
  const stack = await fx.stack(join(FIXTURES, "migrate"), name, [{ key: "phase", value: "dynamic" }]);
  appendFileSync(
    join(stack.cwd, "Pulumi.yaml"),
    `plugins:\n  providers:\n    - name: cloudcost\n      path: ${join(REPO, "native", "bin")}\n`,
  );
  expect((await stack.up()).code).toBe(0);
  const { groupId, alertId } = (await stack.outputs()) as { groupId: string; alertId: string };
  const before = { ids: await organizationIds(fx.api), group: await fx.api.getGroup(groupId), alert: await fx.api.getAlert(alertId) };
  return { stack, groupId, alertId, before };
}

/** Nothing was created, changed or deleted; the stack is on the native types only and has nothing left to do. */
async function movedUntouched({ stack, groupId, alertId, before }: Awaited<ReturnType<typeof dynamicStack>>): Promise<void> {
  expect(await organizationIds(fx.api)).toEqual(before.ids);
  expect(await fx.api.getGroup(groupId)).toEqual(before.group);
  expect(await fx.api.getAlert(alertId)).toEqual({
    ...before.alert,
    currentSpend: expect.any(Number),
    forecastedSpend: expect.any(Number),
  });
  expect(await stack.outputs()).toEqual({ groupId, alertId });
  const types = ((await stack.exportState()).deployment.resources ?? []).map((r) => r.type);
  expect(types).toEqual(expect.arrayContaining(["cloudcost:index:CloudGroup", "cloudcost:index:BudgetAlert"]));
  expect(types.filter((t) => t.startsWith("pulumi-nodejs:") || t === TYPES.group || t === TYPES.alert)).toEqual([]);
  await expectQuiet(stack);
}

async function expectQuiet(stack: PulumiStack): Promise<void> {
  const preview = await stack.run(["preview", "--expect-no-changes"]);
  expect([preview.code, preview.stdout]).toEqual([0, expect.stringContaining("unchanged")]);
}

test("aliases: the native resources with an alias to their dynamic type take over in one up, every object untouched", async () => {
  const moving = await dynamicStack("aliased");
  await moving.stack.setConfig({ key: "phase", value: "aliased" });
  const up = await moving.stack.up();
  expect([up.code, up.stdout]).toEqual([0, expect.stringMatching(/3 unchanged/)]);
  await movedUntouched(moving);
});

test("retainOnDelete, then the native resources with `import`: the same objects, untouched, now under the native plugin", async () => {
  const moving = await dynamicStack("imported");
  await moving.stack.setConfig({ key: "phase", value: "retain" });
  expect((await moving.stack.up()).code).toBe(0);
  await moving.stack.setConfig({ key: "phase", value: "native" });
  await moving.stack.setConfigObject("imported", { groupId: moving.groupId, alertId: moving.alertId });
  const up = await moving.stack.up();
  expect([up.code, up.stdout]).toEqual([0, expect.stringMatching(/2 imported/)]);
  expect(up.stdout).toMatch(/2 deleted/); // the retained dynamic resources, forgotten in state only
  await movedUntouched(moving);
});
