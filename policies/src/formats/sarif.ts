import { createHash } from "node:crypto";
import type { Log, ReportingDescriptor, Result } from "sarif";
import type { Finding, Level, PolicyInfo, Verdict } from "../verdict/verdict";
import { budgetLine, fullMessage } from "./describe";

/*
 * SARIF 2.1.0 (OASIS), what GitHub code scanning and other scanners read: one rule per policy with its
 * description and help, one result per finding with the resource as a logical location (address or URN) and,
 * where known, the declaration's file and line as a physical one. A waived finding carries an accepted
 * external suppression (§3.35) with the waiver's reason, owner and expiry. Written with @types/sarif's types
 * rather than node-sarif-builder: the builder's setters map one to one onto these fields and bring fs-extra.
 */

const HELP_URI = "https://github.com/cloudcost/cloudcost-pulumi/tree/main/policies#readme";

const sarifLevel = (level: Level | "disabled"): "error" | "warning" | "none" =>
  level === "disabled" ? "none" : level === "advisory" ? "warning" : "error";

function rule(p: PolicyInfo, door: Verdict["door"]): ReportingDescriptor {
  const waivable = p.level === "waivable" ? " A waiver in the waivers file may override it." : "";
  const run = door === "terraform" ? "cloudcost-policies check-plan" : "cloudcost-policies check-preview";
  const help = `${p.description}\n\nLevel: ${p.level}.${waivable} The finding's message says what to change; \`${run}\` judges the change again.`;
  return {
    id: p.name,
    name: p.name.replace(/(^|-)([a-z])/g, (_, __: string, c: string) => c.toUpperCase()),
    shortDescription: { text: p.description.split(/(?<=\.)\s/)[0]! },
    fullDescription: { text: p.description },
    help: { text: help, markdown: help },
    helpUri: `${HELP_URI}`,
    defaultConfiguration: { level: sarifLevel(p.level), enabled: p.level !== "disabled" },
    properties: { tags: ["cloudcost", "budget", "policy"], enforcementLevel: p.level },
  };
}

function result(f: Finding, ruleIndex: number, door: Verdict["door"]): Result {
  return {
    ruleId: f.policy,
    ruleIndex,
    level: sarifLevel(f.enforcementLevel),
    message: { text: `${f.attribute ? `${f.attribute}: ` : ""}${fullMessage(f)}` },
    locations: [
      {
        ...(f.location
          ? {
              physicalLocation: {
                artifactLocation: { uri: f.location.file, uriBaseId: "%SRCROOT%" },
                region: { startLine: f.location.line, ...(f.location.column ? { startColumn: f.location.column } : {}) },
              },
            }
          : {}),
        logicalLocations: [{ fullyQualifiedName: f.address, kind: "resource", ...(door === "pulumi" ? {} : { name: f.address }) }],
      },
    ],
    // Stable across runs, so a scanner tracks one finding from change to change.
    partialFingerprints: {
      "cloudcostFinding/v1": createHash("sha256")
        .update(`${f.policy}\0${f.address}\0${f.attribute ?? ""}`)
        .digest("hex"),
    },
    properties: { enforcementLevel: f.enforcementLevel, ...(f.attribute ? { attribute: f.attribute } : {}) },
    ...(f.waived
      ? {
          suppressions: [
            {
              kind: "external",
              status: "accepted",
              justification: f.waived.reason,
              properties: { owner: f.waived.owner, expires: f.waived.expires },
            },
          ],
        }
      : {}),
  };
}

export function sarif(v: Verdict, version: string): string {
  const rules = v.policies.map((p) => rule(p, v.door));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "cloudcost-policies", version, informationUri: HELP_URI, rules } },
        automationDetails: { id: `cloudcost-policies/${v.door}/` },
        results: [...v.violations, ...v.waived].map((f) => result(f, index.get(f.policy) ?? -1, v.door)),
        properties: { passed: v.passed, budget: `${budgetLine(v.budget.total)}`, budgetDelta: v.budget },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
