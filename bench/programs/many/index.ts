import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";

/**
 * The engine bench's program (bench/src/engine.ts, bench/src/doors.ts): `resources` resources, one team per
 * three — a group, a budget alert on it and a daily report on it (so 100 is 34 groups, 33 alerts, 33
 * reports). With `provider: noop` it declares the same resources with the same inputs and the same
 * dependencies, but as dynamic resources whose provider does nothing (create returns the inputs, read returns
 * the state, delete returns): the baseline for the engine's, the host's and the SDK's share of each command.
 * With `provider: native` it declares them through the native plugin's Node.js SDK (sdk/nodejs compiled, at
 * the path `nativeSdk`), so the engine runs `pulumi-resource-cloudcost` instead of the dynamic-provider host.
 */
const config = new pulumi.Config();
const resources = config.requireNumber("resources");
const mode = config.get("provider") ?? "cloudcost";
if (mode !== "cloudcost" && mode !== "noop" && mode !== "native")
  throw new Error(`provider must be cloudcost, noop or native, not ${mode}`);

/** Display names start with it: doors deploying side by side into one organization need names of their own (group names are unique). */
const prefix = config.get("namePrefix") ?? "bench";

type Inputs = Record<string, pulumi.Input<unknown>>;

/** What this program uses of the generated SDK's classes (`@cloudcost/pulumi-native`). */
type NativeClass = new (name: string, args: Inputs) => pulumi.CustomResource;
interface NativeSdk {
  CloudGroup: NativeClass;
  BudgetAlert: NativeClass;
  ScheduledReport: NativeClass;
}
/**
 * Loaded by path: the SDK is compiled by the bench into a temporary folder (as its release is: tsc into
 * bin/), so it is no dependency of this program's package and the repository's type check never sees it.
 */
const native = mode === "native" ? (require(config.require("nativeSdk")) as NativeSdk) : undefined;

/** Does nothing: what any dynamic resource costs the engine, the host and the SDK. */
const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    return { id: String(inputs.name), outs: inputs };
  },
  async read(id: string, props?: Record<string, unknown>) {
    return { id, props };
  },
  async delete() {},
};

class Noop extends pulumi.dynamic.Resource {
  declare readonly id: pulumi.Output<string>;
  constructor(kind: string, name: string, inputs: Inputs, opts?: pulumi.CustomResourceOptions) {
    super(noop, name, inputs, opts, "noop", kind);
  }
}

function group(name: string, inputs: { name: string; awsAccountIds?: string[] }): pulumi.Output<string> {
  if (native) return new native.CloudGroup(name, inputs).id;
  return (mode === "noop" ? new Noop("CloudGroup", name, inputs) : new CloudGroup(name, inputs)).id;
}

function alert(name: string, inputs: { name: string; groupId: pulumi.Input<string>; amount: number; recipients: string[] }): void {
  if (native) new native.BudgetAlert(name, inputs);
  else if (mode === "noop") new Noop("BudgetAlert", name, inputs);
  else new BudgetAlert(name, inputs);
}

function report(
  name: string,
  inputs: {
    name: string;
    report: "summary";
    groupId: pulumi.Input<string>;
    schedule: { frequency: "daily"; time: string; timezone: string };
    recipients: string[];
  },
): void {
  if (native) new native.ScheduledReport(name, inputs);
  else if (mode === "noop") new Noop("ScheduledReport", name, inputs);
  else new ScheduledReport(name, inputs);
}

let groupId: pulumi.Output<string> | undefined;
for (let i = 0; i < resources; i++) {
  const team = Math.floor(i / 3);
  const name = `${prefix} team ${team}`;
  if (i % 3 === 0) {
    // Every other group has a member account (the sandbox's demo organization has 111122223333).
    groupId = group(`team-${team}-group`, { name, ...(team % 2 === 0 ? { awsAccountIds: ["111122223333"] } : {}) });
  } else if (i % 3 === 1) {
    alert(`team-${team}-budget`, { name: `${name} budget`, groupId: groupId!, amount: 100 + team, recipients: ["finops@example.com"] });
  } else {
    report(`team-${team}-daily`, {
      name: `${name} daily`,
      report: "summary",
      groupId: groupId!,
      schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
      recipients: ["finops@example.com"],
    });
  }
}

export const declared = resources;
