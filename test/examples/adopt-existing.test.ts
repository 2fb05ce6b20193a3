import type { CloudGroup } from "@cloudcost/api";
import { runExample } from "./example-program";
import { idOf, startDeployment, valueOf, type Deployment } from "@cloudcost/testkit";

/** examples/adopt-existing takes over the portal-made "Production" group every fresh sandbox has. */
let d: Deployment;
let before: CloudGroup;
let groupCount: number;
let outputs: Record<string, unknown>;

async function allGroups(): Promise<CloudGroup[]> {
  const groups: CloudGroup[] = [];
  for await (const g of d.api.listGroups()) groups.push(g);
  return groups;
}

beforeAll(async () => {
  d = await startDeployment();
  const groups = await allGroups();
  before = groups.find((g) => g.name === "Production" && g.source === "portal")!;
  groupCount = groups.length;
  outputs = await runExample("adopt-existing", { [`${d.engine.project}:groupId`]: before.id });
});
afterAll(() => d?.stop());

describe("examples/adopt-existing, deployed", () => {
  it("starts from a group made in the portal", () => {
    expect(before).toMatchObject({ name: "Production", source: "portal" });
  });

  it("adopts that very group instead of creating another", async () => {
    expect(idOf(d, "production")).toBe(before.id);
    expect((await allGroups()).length).toBe(groupCount);
    expect(await valueOf(outputs.groupSource)).toBe("portal");
  });

  it("updates the adopted group to the declared description and members", async () => {
    const after = await d.api.getGroup(before.id);
    expect(after.description).toBe("Production workloads on both clouds; managed by Pulumi since adoption");
    expect(after.members).toEqual([
      { provider: "aws", accountId: "111122223333" },
      { provider: "aws", accountId: "444455556666" },
      { provider: "azure", accountId: "0b1f6471-1bf0-4dda-aec3-cb9272f09590" },
    ]);
  });

  it("hangs a budget alert on it", async () => {
    const alert = await d.api.getAlert(idOf(d, "production-monthly"));
    expect(alert).toMatchObject({ groupId: before.id, amount: 12000, recipients: ["platform@example.com"] });
  });
});
