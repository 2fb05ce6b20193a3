/**
 * What `cloudcost-pulumi pending` makes of a stack's state (provider/src/cli/pending.ts), against a real
 * sandbox: each pending create is found by its create key, recognised as already taken back by an `up`,
 * known never to have been made, or left to a person; objects the stack made that no state holds are listed;
 * the found creates are written into the state as the engine records a create's success (create-before-delete and
 * delete-before-replace replacements included: issue 33), the refresh after settles the rest (never clearing
 * another provider's pending create), and the state read back after it is
 * checked, naming what is not done and how to finish it. The full story through the real CLI is
 * test/engine/interruption and test/engine/interrupted-replace.
 */
import { CloudCostClient } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { finishCreates } from "../../provider/src/cli/finish-creates";
import { blockedByForeignCreates, emptyRecovery, findRecovery, refreshArgs, type Recovery } from "../../provider/src/cli/pending";
import { unrepaired } from "../../provider/src/cli/repair-check";
import type { StackExport, StateResource } from "../../provider/src/cli/stack-state";
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
        {
          type: "creating",
          resource: { urn: "urn:pulumi:dev::teams::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket", custom: true, inputs: {} },
        },
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
    // Another provider's create: never looked up, never cleared.
    expect(recovery.foreignCreates).toEqual([{ urn: "urn:pulumi:dev::teams::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket" }]);
    expect(recovery.unmanaged.map((u) => u.id)).toEqual([made.stray]);
    // A create of unknown outcome waits for a person: no command is offered that could orphan it.
    expect(refreshArgs(recovery)).toBeUndefined();
  });

  it("offers the refresh that clears the creates left once every create is accounted for (found ones go into the state first)", async () => {
    const s = state(new Date());
    s.deployment.pending_operations = s.deployment.pending_operations!.filter(
      (op) => op.resource.inputs?.name !== "no key" && !op.resource.type.startsWith("aws:"),
    );
    const recovery = await findRecovery(s, client);
    expect(refreshArgs(recovery)).toEqual(["refresh", "--yes", "--clear-pending-creates"]);
    // The found create is written into the state, after what it refers to, with nothing left pending.
    const finished = finishCreates(s, recovery).state.deployment;
    expect(finished.pending_operations).toEqual([]);
    expect(finished.resources!.map((r) => [r.urn, r.id])).toEqual([
      [STACK_URN, undefined],
      [urn("CloudGroup", "held"), made.held],
      [urn("BudgetAlert", "taken-back"), made.takenBack],
      [urn("CloudGroup", "g"), made.pendingGroup],
    ]);
  });

  it("never forgets another provider's pending create: ours wait for it, and the refresh offered keeps it", async () => {
    const s = state(new Date());
    s.deployment.pending_operations = s.deployment.pending_operations!.filter((op) => op.resource.inputs?.name !== "no key");
    // An interrupted destroy also leaves the stack's own delete and its provider's: the refresh settles those.
    s.deployment.pending_operations.push({ type: "deleting", resource: { urn: STACK_URN, type: "pulumi:pulumi:Stack" } });
    const recovery = await findRecovery(s, client);
    expect(recovery.others.map((o) => o.urn).sort()).toEqual([STACK_URN, urn("CloudGroup", "going")].sort());
    // Writing the state (pulumi stack import) or --clear-pending-creates would forget the bucket's create.
    expect(blockedByForeignCreates(recovery)).toBe(true);
    expect(refreshArgs(recovery)).toBeUndefined();
    // A provider reference's create has nothing outside the state: cleared with ours, never blocking them.
    const provider = { urn: "urn:pulumi:dev::teams::pulumi:providers:aws::default", type: "pulumi:providers:aws", custom: true };
    const withProvider = await findRecovery(
      { deployment: { ...s.deployment, pending_operations: [{ type: "creating", resource: provider }] } },
      client,
    );
    expect(withProvider.stateOnlyCreates.map((c) => c.urn)).toEqual([provider.urn]);
    expect(refreshArgs(withProvider)).toEqual(["refresh", "--yes", "--clear-pending-creates"]);
    // With none of ours pending, the refresh without the flag settles the deletes and keeps the bucket's create.
    s.deployment.pending_operations = s.deployment.pending_operations.filter(
      (op) => op.type !== "creating" || op.resource.type.startsWith("aws:"),
    );
    const theirsOnly = await findRecovery(s, client);
    expect(blockedByForeignCreates(theirsOnly)).toBe(false);
    expect(refreshArgs(theirsOnly)).toEqual(["refresh", "--yes"]);
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

const PROVIDER = "urn:pulumi:dev::teams::pulumi:providers:pulumi-nodejs::default";
const ALERT = "pulumi-nodejs:dynamic/cloudcost:BudgetAlert";
const resource = (name: string, id: string | undefined, extra: Partial<StateResource> = {}): StateResource => ({
  urn: urn("BudgetAlert", name),
  type: ALERT,
  custom: true,
  ...(id === undefined ? {} : { id }),
  parent: STACK_URN,
  provider: `${PROVIDER}::prov-id`,
  inputs: { name, __createKey: `${PREFIX}${name}` },
  ...extra,
});
const deployment = (resources: StateResource[], creating: StateResource[]): StackExport => ({
  deployment: {
    resources: [
      { urn: STACK_URN, type: "pulumi:pulumi:Stack" },
      { urn: PROVIDER, type: "pulumi:providers:pulumi-nodejs", id: "prov-id" },
      ...resources,
    ],
    pending_operations: creating.map((r) => ({ type: "creating", resource: r })),
  },
});
const recoveryOf = (found: { name: string; id: string }[]): Recovery => ({
  ...emptyRecovery(),
  found: found.map(({ name, id }) => ({ urn: urn("BudgetAlert", name), type: ALERT, id })),
});
const rows = (s: StackExport) => s.deployment.resources!.slice(2).map((r) => [r.urn.split("::").pop(), r.id, r.delete === true]);

describe("cloudcost-pulumi pending: writing found creates into the state (issue 33)", () => {
  it("finishes a create-before-delete replacement as the engine would: the old object marked for deletion, the new one after it", () => {
    const s = deployment([resource("a", "alr_old"), resource("b", "alr_b")], [resource("a", undefined, { inputs: { name: "a v2" } })]);
    const { state: out, replaced } = finishCreates(s, recoveryOf([{ name: "a", id: "alr_new" }]));
    expect(rows(out)).toEqual([
      ["a", "alr_old", true],
      ["a", "alr_new", false],
      ["b", "alr_b", false],
    ]);
    expect(replaced).toEqual([{ urn: urn("BudgetAlert", "a"), id: "alr_old" }]);
    // The refresh's Read gets what it needs from the outputs: the provider and the create key; and the mark of
    // the resource that holds the object now (its delete goes ahead: runtime/given-back.ts).
    expect(out.deployment.resources![3]!.outputs).toEqual({ name: "a v2", __givenBack: true });
  });

  it("finishes a delete-before-replace replacement: the new object takes the place of the deleted one", () => {
    const s = deployment([resource("a", "alr_old", { pendingReplacement: true }), resource("b", "alr_b")], [resource("a", undefined)]);
    const { state: out, replaced } = finishCreates(s, recoveryOf([{ name: "a", id: "alr_new" }]));
    expect(rows(out)).toEqual([
      ["a", "alr_new", false],
      ["b", "alr_b", false],
    ]);
    expect(replaced).toEqual([]);
  });

  it("puts a plain create after every resource it depends on, and leaves the creates it did not find out of the state", () => {
    const s = deployment(
      [resource("b", "alr_b"), resource("c", "alr_c")],
      [resource("a", undefined, { dependencies: [urn("BudgetAlert", "c")] }), resource("z", undefined)],
    );
    const { state: out } = finishCreates(s, recoveryOf([{ name: "a", id: "alr_a" }]));
    expect(rows(out)).toEqual([
      ["b", "alr_b", false],
      ["c", "alr_c", false],
      ["a", "alr_a", false],
    ]);
  });
});

describe("cloudcost-pulumi pending: the state read back after the repair (issue 33)", () => {
  let sandbox: RunningSandbox;
  let client: CloudCostClient;
  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: await sandbox.token("read,write") } });
  });
  afterAll(() => sandbox.dispose());

  it("accepts a repair that left every found object in the state under its URN, and nothing pending", async () => {
    const id = (await client.createAlert(alert("Imported", 1))).id;
    expect(await unrepaired(recoveryOf([{ name: "a", id }]), deployment([resource("a", id)], []), client, "")).toEqual([]);
  });

  it("names an object the refresh did not import, with the command that finishes it: adoptId (dynamic), pulumi import (native)", async () => {
    const id = (await client.createAlert(alert("Not imported", 2))).id;
    const dropped = deployment([resource("a", "alr_old")], []);
    expect(await unrepaired(recoveryOf([{ name: "a", id }]), dropped, client, " --stack dev")).toEqual([
      {
        urn: urn("BudgetAlert", "a"),
        type: ALERT,
        id,
        problem: `${id} was not imported: the state holds alr_old for it`,
        fix: `set adoptId: "${id}" on a in the program, then run pulumi up --stack dev`,
      },
    ]);
    const native: Recovery = {
      ...recoveryOf([]),
      found: [{ urn: "urn:pulumi:dev::teams::cloudcost:index:BudgetAlert::n", type: "cloudcost:index:BudgetAlert", id }],
    };
    expect((await unrepaired(native, deployment([], []), client, ""))[0]).toEqual(
      expect.objectContaining({
        problem: `${id} was not imported: the state does not hold it`,
        fix: `pulumi import cloudcost:index:BudgetAlert n ${id}`,
      }),
    );
  });

  it("tells `pulumi up` for an object deleted meanwhile, and names an operation still pending", async () => {
    const id = (await client.createAlert(alert("Deleted meanwhile", 3))).id;
    await client.deleteAlert(id);
    const after = deployment([], [resource("z", undefined)]);
    expect(await unrepaired(recoveryOf([{ name: "a", id }]), after, client, "")).toEqual([
      expect.objectContaining({ id, problem: expect.stringContaining("no longer exists"), fix: "pulumi up" }),
      expect.objectContaining({
        urn: urn("BudgetAlert", "z"),
        problem: "still pending (creating) after the refresh",
        fix: "npx --package @cloudcost/pulumi cloudcost-pulumi pending --apply",
      }),
    ]);
  });
});
