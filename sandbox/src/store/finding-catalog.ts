import type { ConnectedAccount, FindingKind } from "@cloudcost/api";
import { unitHash } from "../costs/hash";

/** What the sandbox "detects": deterministic templates, filled per account. */
interface Template {
  title: (service: string) => string;
  description: string;
  severity: "low" | "medium" | "high";
  service: Record<ConnectedAccount["provider"], string>;
  /** Monthly savings range in dollars; null when the finding saves nothing directly. */
  savings: [number, number] | null;
}

const TEMPLATES: Readonly<Record<FindingKind, readonly Template[]>> = {
  insight: [
    {
      title: (s) => `${s} spend rose 38% week over week`,
      description: "Daily spend is well above its four-week average.",
      severity: "medium",
      service: { aws: "Amazon EC2", azure: "Virtual Machines" },
      savings: null,
    },
    {
      title: (s) => `New ${s} usage detected`,
      description: "A service without spend last month now bills daily.",
      severity: "low",
      service: { aws: "Amazon DynamoDB", azure: "Azure Cosmos DB" },
      savings: null,
    },
    {
      title: (s) => `${s} data transfer doubled`,
      description: "Egress charges grew faster than request volume.",
      severity: "high",
      service: { aws: "Amazon CloudFront", azure: "Storage Accounts" },
      savings: null,
    },
  ],
  waste: [
    {
      title: (s) => `Idle ${s} instance`,
      description: "CPU below 2% for 14 days.",
      severity: "high",
      service: { aws: "Amazon EC2", azure: "Virtual Machines" },
      savings: [40, 900],
    },
    {
      title: (s) => `Unattached ${s} volumes`,
      description: "Disks not attached to any machine for 30 days.",
      severity: "medium",
      service: { aws: "Amazon EC2", azure: "Storage Accounts" },
      savings: [10, 300],
    },
    {
      title: (s) => `Over-provisioned ${s} database`,
      description: "Peak utilisation under 20% of capacity.",
      severity: "medium",
      service: { aws: "Amazon RDS", azure: "Azure SQL Database" },
      savings: [60, 1200],
    },
  ],
  recommendation: [
    {
      title: (s) => `Commit to a savings plan for ${s}`,
      description: "Steady usage would cost less under a one-year commitment.",
      severity: "medium",
      service: { aws: "Amazon EC2", azure: "Virtual Machines" },
      savings: [100, 4000],
    },
    {
      title: (s) => `Move cold ${s} data to an archive tier`,
      description: "Objects untouched for 90 days sit in the hot tier.",
      severity: "low",
      service: { aws: "Amazon S3", azure: "Storage Accounts" },
      savings: [5, 250],
    },
    {
      title: (s) => `Right-size ${s} plans`,
      description: "Instances run well below their plan's capacity.",
      severity: "low",
      service: { aws: "AWS Lambda", azure: "App Service" },
      savings: [20, 600],
    },
  ],
};

export interface FindingDraft {
  kind: FindingKind;
  title: string;
  description: string;
  severity: Template["severity"];
  provider: ConnectedAccount["provider"];
  accountId: string;
  service: string;
  savingsCents: number | null;
}

/** A finding for `account`, chosen and filled deterministically from `seed` parts. */
export function draftFinding(kind: FindingKind, account: ConnectedAccount, ...seed: string[]): FindingDraft {
  const options = TEMPLATES[kind];
  const t = options[Math.floor(unitHash(kind, account.accountId, ...seed) * options.length)] ?? options[0]!;
  const service = t.service[account.provider];
  const savingsCents =
    t.savings === null
      ? null
      : Math.round((t.savings[0] + (t.savings[1] - t.savings[0]) * unitHash("savings", account.accountId, ...seed)) * 100);
  return {
    kind,
    title: t.title(service),
    description: t.description,
    severity: t.severity,
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
