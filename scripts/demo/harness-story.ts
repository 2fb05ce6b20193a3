import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import {
  ForwardingMocks,
  type ForwardedResource,
  declareResources,
  startPolicyPack,
  type Diagnostic,
  type PolicyPackConfigFile,
  type RunningPolicyPack,
  startProviderHost,
  type ProviderHost,
} from "@cloudcost/testkit";
import type { StoryOutcome } from "./cli-story";
import { detail, step } from "./output";
import { runProgram } from "./program";
import { DRIFTED_AMOUNT, POLICY_VIOLATIONS, QUICKSTART, changeAlertBehindPulumisBack, hostConfig, type DemoCredentials } from "./story";

/**
 * The same story without the Pulumi CLI: every component the engine would run is real — the program
 * under the SDK, the serialized provider, the dynamic-provider host, the policy-pack process, the
 * sandbox — and only the engine's bookkeeping is replaced by the test harness (testkit/, @cloudcost/testkit).
 */
const HARNESS = "(harness)";
const short = (type: string) => type.split(":").pop()!;

function show(d: Diagnostic, resource: string): void {
  const message = d.message.split("\n").pop();
  detail(`[${d.enforcementLevel}] ${d.policyName} (${resource}): ${message}`);
}

/** What `pulumi preview --policy-pack` does: Analyze each resource, then AnalyzeStack. Returns the diagnostics shown. */
async function policyCheck(pack: RunningPolicyPack, program: string): Promise<Diagnostic[]> {
  const declared = await declareResources(async () => (await runProgram(program), []), { preview: true });
  const resources = declared.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/cloudcost:"));
  const found: Diagnostic[] = [];
  for (const r of resources) {
    for (const d of (await pack.analyze(r)).diagnostics) {
      show(d, r.name);
      found.push(d);
    }
  }
  for (const d of (await pack.analyzeStack(resources)).diagnostics) {
    show(d, d.urn.split("::").pop()!);
    found.push(d);
  }
  detail(`policy pack: ${resources.length} resources analyzed, ${found.length} violation(s)`);
  return found;
}

async function deploy(host: ProviderHost): Promise<ForwardedResource[]> {
  const engine = new ForwardingMocks(host, "cloudcost-quickstart", "demo");
  pulumi.runtime.setMocks(engine, engine.project, engine.stack, false);
  await runProgram(QUICKSTART);
  for (const r of engine.resources) detail(`+ ${short(r.type)} ${r.name} created: ${r.id}`);
  return engine.resources;
}

/** `pulumi preview --refresh`: Read each object, show what differs from state, and what the next `up` would change. */
async function refreshPreview(host: ProviderHost, resources: ForwardedResource[]): Promise<boolean> {
  let drifted = false;
  for (const r of resources) {
    const live = await host.read(r.urn, r.id, r.state, r.inputs);
    const declared = Object.keys(r.inputs).filter((k) => !k.startsWith("__") && r.inputs[k] !== undefined && k in r.state);
    const changed = declared.filter((k) => !isDeepStrictEqual(r.state[k], live.properties[k]));
    for (const k of changed)
      detail(
        `~ ${short(r.type)} ${r.name}: ${k} ${JSON.stringify(r.state[k])} => ${JSON.stringify(live.properties[k])} (read from the service)`,
      );
    if (changed.length === 0) continue;
    const checked = await host.check(r.urn, live.properties, r.inputs);
    const diff = await host.diff(r.urn, r.id, live.properties, checked.inputs);
    // A dynamic resource's Diff answers a change "unknown" (issue 33: the engine then diffs the inputs itself, which
    // is what lets replaceOnChanges and detailedDiff work); here the read values differ, so the engine updates.
    if (diff.changes !== "none")
      detail(
        `  the next \`pulumi up\` updates ${r.name} back to the program's ${changed.map((k) => `${k} ${JSON.stringify(r.state[k])}`).join(", ")}`,
      );
    drifted ||= changed.includes("amount") && live.properties.amount === DRIFTED_AMOUNT;
  }
  return drifted;
}

/** `pulumi destroy`: delete in reverse order of creation (alerts and reports before the group they use). */
async function destroy(host: ProviderHost, resources: ForwardedResource[]): Promise<boolean> {
  for (const r of [...resources].reverse()) {
    await host.delete(r.urn, r.id, r.state);
    detail(`- ${short(r.type)} ${r.name} deleted`);
  }
  const gone = await Promise.all(resources.map(async (r) => (await host.read(r.urn, r.id, r.state, r.inputs)).id === ""));
  return gone.every(Boolean);
}

export async function harnessStory(creds: DemoCredentials): Promise<StoryOutcome> {
  const host = await startProviderHost();
  const pack = await startPolicyPack();
  try {
    await host.configure(hostConfig(creds));
    await pack.configure({});

    step(`Deploy the quickstart with the policy pack ${HARNESS}`);
    detail("pulumi up --policy-pack policies: the program runs under the Pulumi SDK; the policy pack process analyzes");
    detail("each resource; then the real dynamic-provider host creates them (Check, Create over gRPC) in the sandbox.");
    const quickstartViolations = await policyCheck(pack, QUICKSTART);
    const resources = quickstartViolations.some((d) => d.enforcementLevel === "mandatory") ? [] : await deploy(host);

    step(`Change the alert behind Pulumi's back ${HARNESS}`);
    const alert = resources.find((r) => r.name === "web-shop-monthly");
    if (alert) {
      const before = await changeAlertBehindPulumisBack(creds, alert.id);
      detail(`PUT /alerts/${alert.id}: amount ${before} -> ${DRIFTED_AMOUNT} (as if someone edited it in the portal)`);
    }

    step(`Find the drift: pulumi preview --refresh ${HARNESS}`);
    const driftShown = await refreshPreview(host, resources);

    step(`A stack the policy pack rejects: examples/policy-violations ${HARNESS}`);
    detail("pulumi preview --policy-pack policies --policy-pack-config policy-config.json");
    await pack.configure(JSON.parse(readFileSync(join(POLICY_VIOLATIONS, "policy-config.json"), "utf8")) as PolicyPackConfigFile);
    const violations = await policyCheck(pack, POLICY_VIOLATIONS);
    const policyBlocked = violations.some((d) => d.enforcementLevel === "mandatory");
    detail(policyBlocked ? "Mandatory violations: the preview fails and nothing is created." : "The policy pack did not reject the stack.");

    step(`Destroy ${HARNESS}`);
    const destroyed = resources.length > 0 && (await destroy(host, resources));
    return { deployed: resources.length === 3, driftShown, policyBlocked, destroyed };
  } finally {
    await pack.stop();
    await host.stop();
  }
}
