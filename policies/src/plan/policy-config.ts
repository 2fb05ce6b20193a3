import type { EnforcementLevel, Policies } from "@pulumi/policy";
import { z } from "@cloudcost/api";

/*
 * The policy configuration `check-plan --config` reads: the file `pulumi preview --policy-pack-config` takes
 * (https://www.pulumi.com/docs/iac/using-pulumi/crossguard/configuration/), so one file serves both doors.
 * Per policy name an enforcement level, or an object of the policy's properties with an optional
 * `enforcementLevel`; `all` sets the level of every policy that does not set its own.
 */
const Level = z.enum(["advisory", "mandatory", "remediate", "disabled"]);
const Entry = z.union([Level, z.object({ enforcementLevel: Level.optional() }).catchall(z.unknown())]);
export const PolicyConfigFile = z.record(z.string(), Entry);
export type PolicyConfigFile = z.output<typeof PolicyConfigFile>;

/**
 * Policies of the report commands (`check-plan`, `check-preview`) rather than of the pack: they judge the
 * change (old and new state), which a pack's policies never see. Their names are not "ignored".
 */
export const REPORT_POLICIES: readonly string[] = ["budget-increase-cap"];

export interface PolicyConfig {
  enforcementLevel: EnforcementLevel;
  /**
   * Issue 40: `"waivable": true` beside a mandatory level lets a waiver override the policy (Sentinel's
   * soft-mandatory). The Pulumi CLI passes the extra property to the pack, whose zod reader drops it, so the
   * one file still serves `pulumi preview --policy-pack-config`.
   */
  waivable: boolean;
  /** The policy's configuration: the schema's defaults, then the file's properties. */
  properties: Record<string, unknown>;
}

/**
 * Each policy's level and configuration, as the Pulumi CLI reconciles them (pkg/resource/analyzer/config.go):
 * the schema's defaults, then the file's properties; the level from the policy's entry, else `all`, else the
 * policy's own. Names in FILE that are no policy of POLICIES are returned in `ignored` (the CLI ignores them
 * too: a file written for a larger pack still serves), so the command can say so.
 */
export function policyConfigs(policies: Policies, file: PolicyConfigFile): { configs: Map<string, PolicyConfig>; ignored: string[] } {
  const known = new Set(policies.map((p) => p.name));
  const ignored = Object.keys(file).filter((name) => name !== "all" && !REPORT_POLICIES.includes(name) && !known.has(name));
  const levelOf = (entry: PolicyConfigFile[string] | undefined) => (typeof entry === "string" ? entry : entry?.enforcementLevel);
  const all = levelOf(file.all);
  const out = new Map<string, PolicyConfig>();
  for (const policy of policies) {
    const entry = file[policy.name];
    const defaults = Object.fromEntries(
      Object.entries(policy.configSchema?.properties ?? {}).flatMap(([key, property]) =>
        typeof property === "object" && "default" in property ? [[key, property.default as unknown]] : [],
      ),
    );
    const own =
      typeof entry === "object"
        ? Object.fromEntries(Object.entries(entry).filter(([key]) => key !== "enforcementLevel" && key !== "waivable"))
        : {};
    out.set(policy.name, {
      enforcementLevel: levelOf(entry) ?? all ?? policy.enforcementLevel ?? "advisory",
      waivable: typeof entry === "object" && entry.waivable === true,
      properties: { ...defaults, ...own },
    });
  }
  return { configs: out, ignored };
}
