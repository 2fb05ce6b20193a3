/**
 * Moving a stack from the dynamic resources to the native plugin's, as README "Moving a stack to the native
 * provider" says: retain, then adopt with `import`. The real CLI runs each step of fixtures/migrate against
 * a sandbox; no object is created, changed or deleted on the way, and the stack ends on the native types
 * with a quiet preview.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, REPO, TYPES, organizationIds, useEngineFixture } from "./support";

const fx = useEngineFixture();

test("retainOnDelete, then the native resources with `import`: the same objects, untouched, now under the native plugin", async () => {
  const stack = await fx.stack(join(FIXTURES, "migrate"), "dev", [{ key: "phase", value: "dynamic" }]);
  appendFileSync(
    join(stack.cwd, "Pulumi.yaml"),
    `plugins:\n  providers:\n    - name: cloudcost\n      path: ${join(REPO, "native", "bin")}\n`,
  );
  expect((await stack.up()).code).toBe(0);
  const { groupId, alertId } = (await stack.outputs()) as { groupId: string; alertId: string };
  const before = { ids: await organizationIds(fx.api), group: await fx.api.getGroup(groupId), alert: await fx.api.getAlert(alertId) };

  await stack.setConfig({ key: "phase", value: "retain" });
  expect((await stack.up()).code).toBe(0);

  await stack.setConfig({ key: "phase", value: "native" });
  await stack.setConfigObject("imported", { groupId, alertId });
  const moved = await stack.up();
  expect([moved.code, moved.stdout]).toEqual([0, expect.stringMatching(/2 imported/)]);
  expect(moved.stdout).toMatch(/2 deleted/); // the retained dynamic resources, forgotten in state only

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
  expect(types).not.toContain(TYPES.group);
  expect(types).not.toContain(TYPES.alert);

  const preview = await stack.run(["preview", "--expect-no-changes"]);
  expect([preview.code, preview.stderr]).toEqual([0, expect.not.stringContaining("error")]);
});
