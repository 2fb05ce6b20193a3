/**
 * `cloudcost-pulumi pending --apply` in a stack that holds other providers' resources too, through the real CLI.
 * An interrupted `pulumi up` can leave another provider's create pending beside ours (an AWS bucket in flight
 * beside a budget alert): its object may exist, and `pulumi refresh --clear-pending-creates` would forget it, so
 * the repair settles ours and leaves that one pending, named, with exit code 1. An interrupted `destroy` can leave
 * the stack's own delete and its provider's pending after every one of ours is done: the refresh settles those,
 * and nothing is left pending (the interruption suite's flake hunt found that case: it used to exit 0 and leave
 * both).
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { PulumiStack, StackExport } from "@cloudcost/testkit";
import { checkpointOf, pending, type Findings } from "./interruption-support";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, TYPES, expectSuccess, useEngineFixture } from "./support";

const f = useEngineFixture();

type Op = NonNullable<StackExport["deployment"]["pending_operations"]>[number];

/**
 * Leaves OPS pending in the stack's checkpoint, as a killed CLI's last write holds them. Written into the file
 * backend's checkpoint itself: `pulumi stack import` drops pending operations.
 */
function withPending(stack: PulumiStack, ops: Op[]): void {
  const file = checkpointOf(f.workspace.backendDir, stack.name);
  const checkpoint = JSON.parse(readFileSync(file, "utf8")) as { checkpoint: { latest: StackExport["deployment"] } };
  checkpoint.checkpoint.latest.pending_operations = ops;
  writeFileSync(file, JSON.stringify(checkpoint));
}

const pendingOps = async (stack: PulumiStack) =>
  ((await stack.exportState()).deployment.pending_operations ?? []).map((op) => `${op.type} ${op.resource.urn}`);

describe("cloudcost-pulumi pending --apply beside other providers' resources (real CLI)", () => {
  it("settles ours, leaves another provider's pending create as it is (exit 1, named), and settles every pending delete", async () => {
    const stack = await f.stack(DECLARED_PROGRAM, "foreign");
    await stack.setConfigObject(DECLARED_RESOURCES, [{ kind: "CloudGroup", name: "g", inputs: { name: "Foreign test group" } }]);
    expectSuccess(await stack.up());
    const resources = (await stack.exportState()).deployment.resources ?? [];
    const group = resources.find((r) => r.type === TYPES.group)!;
    const stackResource = resources.find((r) => r.type === "pulumi:pulumi:Stack")!;
    // urn:pulumi:STACK::PROJECT::TYPE::NAME
    const [stackPart, project] = group.urn.split("::");
    const rename = (name: string, type = group.type) => `${stackPart}::${project}::${type}::${name}`;
    // Ours, never made (the service does not know its key); another dynamic provider's, outcome unknown; the stack's delete.
    const ours = {
      ...group,
      urn: rename("ghost"),
      id: undefined,
      inputs: { ...group.inputs, __createKey: `${String(group.inputs?.__createKey)}-never-sent` },
    };
    const theirs = {
      ...group,
      urn: rename("bucket", "pulumi-nodejs:dynamic:Resource"),
      type: "pulumi-nodejs:dynamic:Resource",
      id: undefined,
    };
    const all: Op[] = [
      { type: "creating", resource: ours },
      { type: "creating", resource: theirs },
      { type: "deleting", resource: stackResource },
    ];

    // Ours and theirs pending: ours cannot be settled without forgetting theirs, so nothing is changed.
    withPending(stack, all);
    const look = await pending(stack, []);
    expect(look.code).toBe(1);
    expect(look.stdout).toContain(`create  ${theirs.urn}\n          another provider's resource: left pending`);
    expect(look.stdout).toContain("Another provider's create is pending too");
    expect(look.stdout).not.toContain("--clear-pending-creates\n");
    const blocked = await pending(stack, ["--apply", "--json"]);
    expect({ code: blocked.code, stderr: blocked.stderr }).toEqual({
      code: 1,
      stderr: expect.stringContaining("Another provider's create is pending too"),
    });
    const found = JSON.parse(blocked.stdout) as Findings;
    expect(found.foreignCreates.map((c) => c.urn)).toEqual([theirs.urn]);
    expect(found.neverCreated.map((c) => c.urn)).toEqual([ours.urn]);
    expect(found.others.map((o) => `${o.operation} ${o.urn}`)).toEqual([`deleting ${stackResource.urn}`]);
    expect(await pendingOps(stack)).toEqual(all.map((op) => `${op.type} ${op.resource.urn}`));

    // Theirs alone beside deletes: the refresh settles the deletes and keeps their create, named, with exit 1.
    withPending(stack, all.slice(1));
    const kept = await pending(stack, ["--apply", "--json"]);
    expect({ code: kept.code, stderr: kept.stderr }).toEqual({
      code: 1,
      stderr: expect.stringContaining("Other providers' pending creates are left"),
    });
    expect(await pendingOps(stack)).toEqual([`creating ${theirs.urn}`]);

    // An interrupted destroy's leftovers that are not ours: the stack's own delete. The refresh settles it.
    withPending(stack, [{ type: "deleting", resource: stackResource }]);
    const settled = await pending(stack, ["--apply", "--json"]);
    expect({ code: settled.code, stderr: settled.stderr }).toEqual(expect.objectContaining({ code: 0 }));
    expect(await pendingOps(stack)).toEqual([]);
    expect((await stack.resourcesOfType(TYPES.group)).map((r) => r.id)).toEqual([group.id]);
    expectSuccess(await stack.destroy());
  });
});
