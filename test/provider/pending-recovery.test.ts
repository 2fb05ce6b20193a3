/**
 * What `cloudcost-pulumi pending` makes of a stack's state (provider/src/cli/pending.ts), against a real
 * sandbox: each pending create is found by its create key, recognised as already taken back by an `up`,
 * known never to have been made, or left to a person; objects the stack made that no state holds are listed;
 * and the one `pulumi refresh` that repairs the state is exactly what Pulumi's flags take
 * (pkg/cmd/pulumi/operations/refresh.go: `--import-pending-creates URN --import-pending-creates ID`, then
 * `--clear-pending-creates` for the creates left). The full story through the real CLI is test/engine/interruption.
 */
import { CloudCostClient } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { findRecovery, refreshArgs } from "../../provider/src/cli/pending";
import type { StackExport } from "../../provider/src/cli/stack-state";
import { stackKeyPrefix } from "../../provider/src/runtime/create-key";

const STACK_URN = "urn:pulumi:dev::teams::pulumi:pulumi:Stack::teams-dev";
const urn = (kind: string, name: string) => `urn:pulumi:dev::teams::pulumi-nodejs:dynamic/cloudcost:${kind}::${name}`;
const PREFIX = stackKeyPrefix(STACK_URN)!;
const alert = (name: string, amount: number) => ({
  name,
  amount,
  currency: "USD",
  period: "monthly" as const,
  thresholds: [{ percent: 100, basis: "actual" as const }],
  recipients: [],
});

describe("cloudcost-pulumi pending: reading a stack's state", () => {
  let sandbox: RunningSandbox;
  let client: CloudCostClient;
  const made: Record<string, string> = {};

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: await sandbox.token("read,write") } });
    // What an interrupted `up` left in the service: objects made with the stack's keys.
    made.pendingGroup = (await client.createGroup({ name: "Pending group" }, { idempotencyKey: `${PREFIX}pending-group` })).id;
    made.takenBack = (await client.createAlert(alert("Taken back", 5), { idempotencyKey: `${PREFIX}taken-back` })).id;
    made.held = (await client.createGroup({ name: "Held" }, { idempotencyKey: `${PREFIX}held` })).id;
    made.stray = (await client.createAlert(alert("Stray", 7), { idempotencyKey: `${PREFIX}stray` })).id;
    // Another stack's object: never this stack's business.
    const other = stackKeyPrefix(STACK_URN.replace(":dev::", ":prod::"))!;
    await client.createAlert(alert("Other stack", 9), { idempotencyKey: `${other}theirs` });
  });
  afterAll(() => sandbox.dispose());

  const state = (savedAt: Date): StackExport => ({
    deployment: {
      manifest: { time: savedAt.toISOString() },
      resources: [
        { urn: STACK_URN, type: "pulumi:pulumi:Stack" },
        { urn: urn("CloudGroup", "held"), type: "pulumi-nodejs:dynamic/cloudcost:CloudGroup", id: made.held },
        { urn: urn("BudgetAlert", "taken-back"), type: "pulumi-nodejs:dynamic/cloudcost:BudgetAlert", id: made.takenBack },
      ],
      pending_operations: [
        {
          type: "creating",
          resource: {
            urn: urn("CloudGroup", "g"),
            type: "pulumi-nodejs:dynamic/cloudcost:CloudGroup",
            inputs: { __createKey: `${PREFIX}pending-group` },
          },
        },
        {
          type: "creating",
          resource: {
            urn: urn("BudgetAlert", "taken-back"),
            type: "pulumi-nodejs:dynamic/cloudcost:BudgetAlert",
            inputs: { __createKey: `${PREFIX}taken-back` },
          },
        },
        {
          type: "creating",
          resource: {
            urn: urn("BudgetAlert", "never"),
            type: "pulumi-nodejs:dynamic/cloudcost:BudgetAlert",
            inputs: { __createKey: `${PREFIX}never-sent` },
          },
        },
        {
          type: "creating",
          resource: { urn: urn("BudgetAlert", "old"), type: "pulumi-nodejs:dynamic/cloudcost:BudgetAlert", inputs: { name: "no key" } },
        },
        {
          type: "deleting",
          resource: { urn: urn("CloudGroup", "going"), type: "pulumi-nodejs:dynamic/cloudcost:CloudGroup", id: "grp_gone" },
        },
        { type: "creating", resource: { urn: "urn:pulumi:dev::teams::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket", inputs: {} } },
      ],
    },
  });

  it("accounts for every pending operation and lists what no state holds", async () => {
    const recovery = await findRecovery(state(new Date()), client);
    expect(recovery.found).toEqual([
      { urn: urn("CloudGroup", "g"), type: "pulumi-nodejs:dynamic/cloudcost:CloudGroup", id: made.pendingGroup },
    ]);
    expect(recovery.settled.map((s) => s.id)).toEqual([made.takenBack]);
    expect(recovery.neverCreated.map((n) => n.urn)).toEqual([urn("BudgetAlert", "never")]);
    expect(recovery.unknown.map((u) => [u.urn, u.reason])).toEqual([[urn("BudgetAlert", "old"), expect.stringContaining("no create key")]]);
    expect(recovery.others).toEqual([
      { urn: urn("CloudGroup", "going"), type: "pulumi-nodejs:dynamic/cloudcost:CloudGroup", operation: "deleting" },
    ]);
    expect(recovery.unmanaged.map((u) => u.id)).toEqual([made.stray]);
    // A create of unknown outcome waits for a person: no command is offered that could orphan it.
    expect(refreshArgs(recovery)).toBeUndefined();
  });

  it("offers the exact refresh when every create is accounted for", async () => {
    const s = state(new Date());
    s.deployment.pending_operations = s.deployment.pending_operations!.filter((op) => op.resource.inputs?.name !== "no key");
    const recovery = await findRecovery(s, client);
    expect(refreshArgs(recovery)).toEqual([
      "refresh",
      "--yes",
      "--import-pending-creates",
      urn("CloudGroup", "g"),
      "--import-pending-creates",
      made.pendingGroup,
      "--clear-pending-creates",
    ]);
  });

  it("does not call a create 'never made' once its key may have expired (a state over 24 hours old)", async () => {
    const recovery = await findRecovery(state(new Date(Date.now() - 25 * 60 * 60 * 1000)), client);
    expect(recovery.neverCreated).toEqual([]);
    expect(recovery.unknown.map((u) => u.urn)).toContain(urn("BudgetAlert", "never"));
  });

  it("forgets an object deleted since: its create is then 'never made', not found", async () => {
    await client.deleteGroup(made.pendingGroup!);
    const recovery = await findRecovery(state(new Date()), client);
    expect(recovery.found).toEqual([]);
    expect(recovery.neverCreated.map((n) => n.urn)).toContain(urn("CloudGroup", "g"));
  });
});
