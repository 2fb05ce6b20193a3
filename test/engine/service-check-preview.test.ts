/**
 * Issue 38 through the real Pulumi CLI: `pulumi preview` of a program whose resources break rules only the
 * organization can judge fails at preview — each failure on the input the service names, with the service's
 * message — and writes nothing, in the dynamic provider and in the native plugin (a YAML program); a resource
 * whose input is unknown at preview (a new group's id) is not judged.
 * The matrix of every rule per kind and door is test/provider/service-check.test.ts (over gRPC, both doors).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PulumiStack } from "@cloudcost/testkit";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, REPO, useEngineFixture, type Declared } from "./support";

const f = useEngineFixture();

async function stackOf(name: string, resources: Declared[]): Promise<PulumiStack> {
  const stack = await f.stack(DECLARED_PROGRAM, name);
  await stack.setConfigObject(DECLARED_RESOURCES, resources);
  return stack;
}

async function objects(): Promise<number> {
  let n = 0;
  for await (const _ of f.api.listGroups()) n++;
  for await (const _ of f.api.listAlerts()) n++;
  for await (const _ of f.api.listReports()) n++;
  return n;
}

describe("pulumi preview meets the service's rules (issue 38)", () => {
  // One refused resource per stack: the engine stops a preview at its first error.
  it.each([
    [
      "a group member not connected",
      { kind: "CloudGroup", name: "stranger", inputs: { name: "Preview stranger", awsAccountIds: ["999999999999"] } },
      "property awsAccountIds[0]",
      "aws account 999999999999 is not connected to this organization (unknown_account: body.members.0.accountId)",
    ],
    [
      "an alert's tag key that is not a cost allocation tag",
      {
        kind: "BudgetAlert",
        name: "untagged",
        inputs: { name: "Untagged", amount: 10, filters: { tags: [{ key: "owner", values: ["x"] }] } },
      },
      "property filters.tags[0].key",
      "(unknown_tag_key: body.filters.tags.0.key)",
    ],
  ] as [string, Declared, string, string][])(
    "%s fails the preview on its input, with the service's message, writing nothing",
    async (_name, declared, property, message) => {
      const stack = await stackOf(`service-rules-${declared.name}`, [declared]);
      const before = await objects();
      const preview = await stack.run(["preview", "--non-interactive"]);
      const out = preview.stdout + preview.stderr;
      expect(preview.code).not.toBe(0);
      expect(out).toContain(property);
      expect(out).toContain(message);
      expect(await objects()).toBe(before);
    },
  );

  it("does not judge an input unknown at preview: an alert on a group not made yet previews", async () => {
    const stack = await stackOf("service-rules-unknown", [
      { kind: "CloudGroup", name: "later", inputs: { name: "Preview later" } },
      // Not connected, but its group is unknown until `up`: the whole alert waits for `up` to be judged.
      {
        kind: "BudgetAlert",
        name: "on-later",
        groupOf: "later",
        inputs: { name: "On later", amount: 10, filters: { accountIds: ["999999999999"] } },
      },
    ]);
    const before = await objects();
    const preview = await stack.run(["preview", "--non-interactive"]);
    expect(preview.code).toBe(0);
    expect(await objects()).toBe(before);
  });

  it("in the native plugin too: a YAML program's alert with an account not in its group fails the preview", async () => {
    const scope = await f.api.createGroup({ name: "Native preview scope" });
    await f.api.replaceMembers(scope.id, [{ provider: "aws", accountId: "444455556666" }]);
    const dir = mkdtempSync(join(tmpdir(), "cloudcost-native-preview-"));
    const program = [
      "name: native-preview",
      "runtime: yaml",
      "plugins:",
      "  providers:",
      "    - name: cloudcost",
      `      path: ${join(REPO, "native", "bin")}`,
      "resources:",
      "  outside:",
      "    type: cloudcost:index:BudgetAlert",
      "    properties:",
      "      name: Outside the group",
      "      amount: 10",
      `      groupId: ${scope.id}`,
      '      filters: { accountIds: ["111122223333"] }',
    ];
    writeFileSync(join(dir, "Pulumi.yaml"), program.join("\n"));
    const stack = await f.stack(dir, "dev");
    const before = await objects();
    const preview = await stack.run(["preview", "--non-interactive"]);
    const out = preview.stdout + preview.stderr;
    expect(preview.code).not.toBe(0);
    expect(out).toContain("property filters.accountIds[0]");
    expect(out).toContain(
      `aws account 111122223333 is not a member of Cloud Group ${scope.id}, so none of its spend counts (not_in_group: body.filters.accountIds.0)`,
    );
    expect(await objects()).toBe(before);
  });
});
