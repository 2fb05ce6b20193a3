/**
 * Issue 37 §4: a kill can leave an empty `<checkpoint>.attrs` sidecar beside a whole checkpoint in a file
 * backend, and then every `pulumi` command fails to load the stack. `cloudcost-pulumi pending` without
 * `--apply` (look before you act) still reads the checkpoint — from a copy without the empty file — prints
 * what it found and names the file `--apply` would remove, changing nothing; `--apply` removes it.
 */
import { statSync, writeFileSync } from "node:fs";
import { checkpointOf, pending } from "./interruption-support";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, expectSuccess, useEngineFixture } from "./support";

const f = useEngineFixture();

describe("cloudcost-pulumi pending with an empty attribute file beside the checkpoint", () => {
  it("prints what it found and the file it would clear (--json), changes nothing; --apply clears it", async () => {
    const stack = await f.stack(DECLARED_PROGRAM, "sidecar");
    await stack.setConfigObject(DECLARED_RESOURCES, [{ kind: "CloudGroup", name: "g", inputs: { name: "Sidecar group" } }]);
    expectSuccess(await stack.up());
    const sidecar = `${checkpointOf(f.workspace.backendDir, "sidecar")}.attrs`;
    writeFileSync(sidecar, "");
    // What the user sees: the CLI cannot load the stack.
    const broken = await stack.run(["stack", "export"]);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/checkpoint|EOF/i);

    const look = await pending(stack, ["--json"]);
    expect(look.code).toBe(1);
    const findings = JSON.parse(look.stdout) as { emptySidecars: string[]; found: unknown[]; others: unknown[]; unmanaged: unknown[] };
    expect(findings).toMatchObject({ emptySidecars: [sidecar], found: [], others: [], unmanaged: [] });
    expect(look.stderr).toContain(`rm ${sidecar}`);
    expect(statSync(sidecar).size).toBe(0); // looked, changed nothing

    const text = await pending(stack, []);
    expect([text.code, text.stdout, text.stderr]).toEqual([
      1,
      expect.stringContaining("No pending operations."),
      expect.stringContaining(sidecar),
    ]);

    const apply = await pending(stack, ["--apply", "--json"]);
    expect([apply.code, (JSON.parse(apply.stdout) as { emptySidecars: string[] }).emptySidecars]).toEqual([0, []]);
    expect((await stack.run(["stack", "export"])).code).toBe(0);
    expectSuccess(await stack.destroy());
  });
});
