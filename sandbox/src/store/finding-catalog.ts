import type { ConnectedAccount, FindingKind } from "@cloudcost/api/contract";
import { unitHash } from "../costs/hash";

type Severity = "low" | "medium" | "high";

/**
 * What the sandbox "detects": deterministic templates, filled per account. One row per template: title
 * (`{service}` stands for the account's service), description, severity, the service per provider, and the
 * monthly savings range in dollars (null when the finding saves nothing directly).
 */
type Template = readonly [
  title: string,
  description: string,
  severity: Severity,
  service: Record<ConnectedAccount["provider"], string>,
  savings: readonly [number, number] | null,
];

// A table: one template a line.
// prettier-ignore
const TEMPLATES: Readonly<Record<FindingKind, readonly Template[]>> = {
  insight: [
    ["{service} spend rose 38% week over week", "Daily spend is well above its four-week average.", "medium", { aws: "Amazon EC2", azure: "Virtual Machines" }, null],
    ["New {service} usage detected", "A service without spend last month now bills daily.", "low", { aws: "Amazon DynamoDB", azure: "Azure Cosmos DB" }, null],
    ["{service} data transfer doubled", "Egress charges grew faster than request volume.", "high", { aws: "Amazon CloudFront", azure: "Storage Accounts" }, null],
  ],
  waste: [
    ["Idle {service} instance", "CPU below 2% for 14 days.", "high", { aws: "Amazon EC2", azure: "Virtual Machines" }, [40, 900]],
    ["Unattached {service} volumes", "Disks not attached to any machine for 30 days.", "medium", { aws: "Amazon EC2", azure: "Storage Accounts" }, [10, 300]],
    ["Over-provisioned {service} database", "Peak utilisation under 20% of capacity.", "medium", { aws: "Amazon RDS", azure: "Azure SQL Database" }, [60, 1200]],
  ],
  recommendation: [
    ["Commit to a savings plan for {service}", "Steady usage would cost less under a one-year commitment.", "medium", { aws: "Amazon EC2", azure: "Virtual Machines" }, [100, 4000]],
    ["Move cold {service} data to an archive tier", "Objects untouched for 90 days sit in the hot tier.", "low", { aws: "Amazon S3", azure: "Storage Accounts" }, [5, 250]],
    ["Right-size {service} plans", "Instances run well below their plan's capacity.", "low", { aws: "AWS Lambda", azure: "App Service" }, [20, 600]],
  ],
};

export interface FindingDraft {
  kind: FindingKind;
  title: string;
  description: string;
  severity: Severity;
  provider: ConnectedAccount["provider"];
  accountId: string;
  service: string;
  savingsCents: number | null;
}

/** A finding for `account`, chosen and filled deterministically from `seed` parts. */
export function draftFinding(kind: FindingKind, account: ConnectedAccount, ...seed: string[]): FindingDraft {
  const options = TEMPLATES[kind];
  const [title, description, severity, services, savings] =
    options[Math.floor(unitHash(kind, account.accountId, ...seed) * options.length)] ?? options[0]!;
  const service = services[account.provider];
  const savingsCents =
    savings === null ? null : Math.round((savings[0] + (savings[1] - savings[0]) * unitHash("savings", account.accountId, ...seed)) * 100);
  return {
    kind,
    title: title.replace("{service}", service),
    description,
    severity,
    provider: account.provider,
    accountId: account.accountId,
    service,
    savingsCents,
  };
}

/** The findings an account starts with: one or two of each kind, the same for the same org and account. */
export function initialFindings(orgKey: string, account: ConnectedAccount): FindingDraft[] {
  const kinds: FindingKind[] = ["insight", "waste", "recommendation"];
  return kinds.flatMap((kind) => {
    const count = 1 + Math.floor(unitHash(orgKey, account.accountId, kind, "count") * 2);
    return Array.from({ length: count }, (_, i) => draftFinding(kind, account, orgKey, String(i)));
  });
}
