import { Provider, uniqueBy } from "./common";
import { z } from "./zod";

// Issue 27: one filter shape for budget alerts, scheduled reports and the `/cost/*` reads, so a user can read
// what a budget will count before declaring it. AND across keys, OR within one key. Every value is
// validated here, so a filter the service cannot evaluate (AWS provider issue #46866: accepted, never
// matched) is refused when it is sent, with a field error.

/**
 * The services the service bills, per provider (names as the clouds' cost exports spell them). A service
 * filter names only these; each name belongs to exactly one provider.
 */
export const KNOWN_SERVICES: Readonly<Record<Provider, readonly string[]>> = {
  aws: ["Amazon EC2", "Amazon S3", "Amazon RDS", "AWS Lambda", "Amazon CloudFront", "Amazon DynamoDB"],
  azure: ["Virtual Machines", "Storage Accounts", "Azure SQL Database", "App Service", "Azure Cosmos DB", "Azure Functions"],
};

/**
 * Region codes per provider, as each cloud's cost data names them (AWS: `us-east-1`, and `global` for
 * services billed outside any region such as CloudFront; Azure: `westeurope`). Each code belongs to one provider.
 */
export const KNOWN_REGIONS: Readonly<Record<Provider, readonly string[]>> = {
  aws: [
    "global",
    ...["us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "ca-west-1", "mx-central-1", "sa-east-1"],
    ...["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-central-2", "eu-north-1", "eu-south-1", "eu-south-2"],
    ...["ap-south-1", "ap-south-2", "ap-east-1", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4"],
    ...["ap-southeast-5", "ap-southeast-7", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3"],
    ...["me-south-1", "me-central-1", "il-central-1", "af-south-1", "us-gov-west-1", "us-gov-east-1"],
  ],
  azure: [
    ...["eastus", "eastus2", "westus", "westus2", "westus3", "centralus", "northcentralus", "southcentralus", "westcentralus"],
    ...["canadacentral", "canadaeast", "brazilsouth", "mexicocentral", "northeurope", "westeurope", "uksouth", "ukwest"],
    ...["francecentral", "germanywestcentral", "norwayeast", "swedencentral", "switzerlandnorth", "polandcentral", "italynorth"],
    ...["spaincentral", "eastasia", "southeastasia", "japaneast", "japanwest", "koreacentral", "australiaeast"],
    ...["australiasoutheast", "centralindia", "southindia", "westindia", "uaenorth", "southafricanorth", "qatarcentral"],
    ...["israelcentral", "newzealandnorth"],
  ],
};

/**
 * The services billed outside any region: the cost data books them in region `global` only, and every
 * other service only in its provider's region codes. A filter pairing them otherwise could never match.
 */
export const GLOBAL_SERVICES: readonly string[] = ["Amazon CloudFront"];

const ALL_SERVICES = [...KNOWN_SERVICES.aws, ...KNOWN_SERVICES.azure] as [string, ...string[]];
const ALL_REGIONS = [...KNOWN_REGIONS.aws, ...KNOWN_REGIONS.azure] as [string, ...string[]];

/** The provider a known service or region belongs to. */
export const providerOfService = (service: string): Provider => (KNOWN_SERVICES.aws.includes(service) ? "aws" : "azure");
export const providerOfRegion = (region: string): Provider => (KNOWN_REGIONS.aws.includes(region) ? "aws" : "azure");

export const ServiceName = z
  .enum(ALL_SERVICES, { error: "is not a service the service bills (see KNOWN_SERVICES, e.g. Amazon EC2, Virtual Machines)" })
  .openapi("ServiceName", { description: "a service as the cost data names it; each belongs to one provider" });
export const RegionName = z
  .enum(ALL_REGIONS, { error: "is not an AWS or Azure region code (e.g. us-east-1, westeurope; AWS `global` for global services)" })
  .openapi("RegionName", { description: "a region code as the cost data names it; each belongs to one provider" });

const AWS_ACCOUNT = /^\d{12}$/;
const AZURE_SUBSCRIPTION = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The provider an account ID's form names: 12 digits are AWS, a GUID is Azure; the two forms never overlap. */
export const providerOfAccount = (accountId: string): Provider => (AWS_ACCOUNT.test(accountId) ? "aws" : "azure");

/** An account in a filter: its form names its provider; Azure GUIDs are lower-cased, as everywhere in the contract. */
export const FilterAccountId = z
  .string()
  .refine(
    (s) => AWS_ACCOUNT.test(s) || AZURE_SUBSCRIPTION.test(s),
    "must be a 12-digit AWS account ID or an Azure subscription ID (a GUID)",
  )
  .transform((s) => s.toLowerCase())
  .openapi({
    pattern: `${AWS_ACCOUNT.source}|${AZURE_SUBSCRIPTION.source}`,
    description: "a 12-digit AWS account ID or an Azure subscription GUID (stored in lower case); it must be connected to the organization",
  });

/**
 * A tag key: what both clouds allow in a key (AWS: letters, digits, spaces and `_ . : / = + - @`; Azure
 * forbids `< > % & \ ? /`), without `=` so that the cost reads' `tag=KEY=VALUE` parameter is unambiguous:
 * Unicode letters and digits, spaces and `_ . : + - @`, 1–128 characters, no surrounding space. Case-sensitive.
 */
export const TAG_KEY = /^[\p{L}\p{N}_.:+\-@](?:[\p{L}\p{N} _.:+\-@]{0,126}[\p{L}\p{N}_.:+\-@])?$/u;
export const TagKey = z
  .string()
  .regex(TAG_KEY, "must be 1 to 128 letters, digits, spaces or _ . : + - @, not starting or ending with a space")
  .openapi({
    pattern: TAG_KEY.source,
    description:
      "case-sensitive; 1 to 128 Unicode letters, digits, spaces or `_ . : + - @`, no surrounding space; it must be a cost allocation tag of the organization",
  });
/** A tag value: AWS's allowed characters (letters, digits, spaces, `_ . : / = + - @`), 0–256 characters (empty is a value). */
export const TAG_VALUE = /^[\p{L}\p{N} _.:/=+\-@]{0,256}$/u;
export const TagValue = z
  .string()
  .regex(TAG_VALUE, "must be at most 256 letters, digits, spaces or _ . : / = + - @")
  .openapi({ pattern: TAG_VALUE.source, description: "case-sensitive; 0 to 256 Unicode letters, digits, spaces or `_ . : / = + - @`" });

export const MAX_TAG_VALUES = 50;
export const TagFilter = z
  .object({
    key: TagKey,
    values: z
      .array(TagValue)
      .min(1)
      .max(MAX_TAG_VALUES)
      .refine(
        uniqueBy((v: string) => v),
        "must not contain the same value twice",
      )
      .openapi({ uniqueItems: true, description: "cost whose tag `key` has any of these values" }),
  })
  .strict()
  .openapi("TagFilter");
export type TagFilter = z.infer<typeof TagFilter>;

export const MAX_FILTER_ACCOUNTS = 100;
export const MAX_FILTER_VALUES = 50;
export const MAX_FILTER_TAGS = 20;

/** One filter key's list: a set (no duplicates, after normalization), at most `max` values. */
function set<T extends z.ZodType<string, string>>(item: T, max: number, description: string) {
  return z
    .array(item)
    .max(max)
    .refine(
      uniqueBy((v: string) => v),
      "must not contain the same value twice",
    )
    .optional()
    .openapi({ uniqueItems: true, description: `${description}; an empty list is the same as leaving the key out` });
}

/** The filter keys a value can rule out, each value's provider, and how a value is named in a message. */
type ListKey = "providers" | "accountIds" | "services" | "regions";
const PROVIDER_NAMES: Readonly<Record<Provider, string>> = { aws: "AWS", azure: "Azure" };
const WHAT: Readonly<Record<Exclude<ListKey, "providers">, [one: string, many: string]>> = {
  accountIds: ["an account", "accounts"],
  services: ["a service", "services"],
  regions: ["a region", "regions"],
};
const providerOf: Readonly<Record<ListKey, (value: string) => Provider>> = {
  providers: (p) => p as Provider,
  accountIds: providerOfAccount,
  services: providerOfService,
  regions: providerOfRegion,
};
/** Whether the cost data bills `service` in `region`: its provider's regions, `global` exactly for the global services. */
const billedIn = (service: string, region: string): boolean =>
  providerOfService(service) === providerOfRegion(region) && GLOBAL_SERVICES.includes(service) === (region === "global");

/** Why `value` (of `key`) matches no value of `other`, or undefined when one of them can go with it. */
function mismatch(key: Exclude<ListKey, "providers">, value: string, other: ListKey, others: readonly string[]): string | undefined {
  if (key === "services" && other === "regions") {
    if (others.some((region) => billedIn(value, region))) return undefined;
    return GLOBAL_SERVICES.includes(value)
      ? "is billed only in region `global`, which `regions` leaves out"
      : `is billed in ${PROVIDER_NAMES[providerOfService(value)]} region codes other than \`global\`, and \`regions\` names none`;
  }
  if (key === "regions" && other === "services") {
    if (others.some((service) => billedIn(service, value))) return undefined;
    const provider = providerOfRegion(value);
    const same = others.filter((service) => providerOfService(service) === provider);
    if (same.length === 0)
      return `is a region of ${PROVIDER_NAMES[provider]}, and \`services\` names no ${PROVIDER_NAMES[provider]} service`;
    return value === "global"
      ? `bills only the global services (${GLOBAL_SERVICES.join(", ")}), none of which \`services\` names`
      : `bills no service \`services\` names (${same.join(", ")}: billed only in \`global\`)`;
  }
  const provider = providerOf[key](value);
  if (others.some((v) => providerOf[other](v) === provider)) return undefined;
  const [what] = WHAT[key];
  if (other === "providers") return `is ${what} of ${PROVIDER_NAMES[provider]}, which \`providers\` leaves out`;
  const [, theirs] = WHAT[other];
  return `is ${what} of ${PROVIDER_NAMES[provider]}, and \`${other}\` names only ${theirs} of ${PROVIDER_NAMES[provider === "aws" ? "azure" : "aws"]}`;
}

/**
 * Issue 33: a filter that could never match is refused, value by value. Every account, service and region
 * named must be able to go with some value of each other key given — the same provider (an account of
 * Azure and a service of AWS never meet), and for a service and a region, a region the service is billed
 * in (`global` for the global services only). `providers` itself is the scope the others are judged by.
 */
function matchable(f: Partial<Record<ListKey, string[]>>, ctx: z.RefinementCtx) {
  const given = (["providers", "accountIds", "services", "regions"] as const).filter((k) => (f[k]?.length ?? 0) > 0);
  for (const key of given) {
    if (key === "providers") continue;
    f[key]?.forEach((value, i) => {
      for (const other of given) {
        if (other === key) continue;
        const why = mismatch(key, value, other, f[other] ?? []);
        if (why === undefined) continue;
        ctx.addIssue({ code: "custom", path: [key, i], message: `${why}: the filter could never match` });
        return;
      }
    });
  }
}

/** The canonical form: a key with an empty list is left out, so `{ services: [] }` and `{}` are one value (never drift). */
function canonical<F extends Record<string, unknown[] | undefined>>(f: F): F {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v.length > 0)) as F;
}

/**
 * What a budget alert, a scheduled report or a cost read counts: cost matching every key given (AND), each
 * key matching any of its values (OR). Leaving a key out, or giving it an empty list, does not filter on
 * it; the service returns the canonical form (empty lists left out, everything else as sent, Azure
 * subscription IDs lower-cased).
 */
export const CostFilters = z
  .object({
    providers: set(Provider, 2, "cloud providers"),
    accountIds: set(FilterAccountId, MAX_FILTER_ACCOUNTS, "accounts (connected to the organization)"),
    services: set(ServiceName, MAX_FILTER_VALUES, "services"),
    regions: set(RegionName, MAX_FILTER_VALUES, "region codes"),
    tags: z
      .array(TagFilter)
      .max(MAX_FILTER_TAGS)
      .refine(
        uniqueBy((t: TagFilter) => t.key),
        "must not name the same tag key twice (list its values in one entry)",
      )
      .optional()
      .openapi({ description: "tags, each key at most once; an empty list is the same as leaving the key out" }),
  })
  .strict()
  .superRefine(matchable)
  .transform(canonical)
  .openapi("CostFilters", {
    description:
      "what is counted: cost matching every key given (AND), each key any of its values (OR); a key left out or with an empty list does not filter. Returned in canonical form: empty lists left out, the rest as sent (Azure subscription IDs lower-cased); `{}` is no filter. A filter that could never match is refused, naming each value: 400 when the values alone rule it out (an account, service or region of a provider that `providers` or another key leaves out; a service with no region `regions` names it is billed in — `global` bills exactly the global services, Amazon CloudFront); 422 when the organization does (an account not connected or, with a group, not a member; a provider, service or region of a provider with no account in scope; a tag key that is not a cost allocation tag or a value it never has). A service an account of its provider does not bill yet is accepted. A budget_status report takes none.",
  });
export type CostFiltersInput = z.input<typeof CostFilters>;
export type CostFilters = z.output<typeof CostFilters>;

/** True when the filters restrict nothing. */
export const isUnfiltered = (f: CostFilters): boolean => Object.keys(f).length === 0;
