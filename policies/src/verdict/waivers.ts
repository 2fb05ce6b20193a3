import { z } from "@cloudcost/api";
import type { Finding, Level, WaiverRef } from "./verdict";

/*
 * Issue 40: a waivers file checked into the repository, one file for both doors. A waiver names a resource
 * (Terraform address or Pulumi URN — or the URN's name — where `*` matches any characters), a policy, why,
 * who owns it and until when. A waived finding is still listed; an expired waiver waives nothing and says
 * so; a waiver that matches nothing is reported; a waiver without a reason (or owner, or expiry) is refused.
 */

export const Waiver = z
  .object({
    resource: z.string().trim().min(1).describe("Terraform address or Pulumi URN (or the URN's resource name); `*` matches any characters"),
    policy: z.string().trim().min(1),
    reason: z.string({ error: "a waiver needs a reason" }).trim().min(1, "a waiver needs a reason"),
    owner: z.string({ error: "a waiver needs an owner" }).trim().min(1, "a waiver needs an owner"),
    expires: z.iso.date({ error: "a waiver needs an expiry date (YYYY-MM-DD; it waives through that day, UTC)" }),
  })
  .strict();
export type Waiver = z.output<typeof Waiver>;

export const WaiversFile = z.object({ waivers: z.array(Waiver) }).strict();
export type WaiversFile = z.output<typeof WaiversFile>;

const ref = (w: Waiver): WaiverRef => ({ resource: w.resource, policy: w.policy, reason: w.reason, owner: w.owner, expires: w.expires });

/**
 * `*` and nothing else is special: addresses hold brackets and quotes (`x["a"]`), which a glob library would
 * read as character classes.
 */
function matcher(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
}

/** A URN's resource name (`urn:pulumi:dev::proj::type::huge-budget` → `huge-budget`); an address is itself. */
const nameOf = (id: string) => (id.startsWith("urn:") ? id.slice(id.lastIndexOf("::") + 2) : id);

export interface Waived {
  violations: Finding[];
  waived: Finding[];
  unmatched: WaiverRef[];
  expired: WaiverRef[];
}

/**
 * FINDINGS sorted by the waivers of FILE as of TODAY (YYYY-MM-DD, UTC). A waiver overrides a finding of a
 * waivable or advisory policy; a mandatory one stands, and the waiver is cited with why.
 */
export function applyWaivers(findings: readonly Finding[], file: WaiversFile | undefined, today: string): Waived {
  const waivers = (file?.waivers ?? []).map((w) => ({ waiver: w, match: matcher(w.resource), used: false }));
  const expiredOn = (w: Waiver) => w.expires < today;
  const out: Waived = { violations: [], waived: [], unmatched: [], expired: [] };
  for (const finding of findings) {
    const hit = waivers.find(
      (w) => w.waiver.policy === finding.policy && (w.match.test(finding.address) || w.match.test(nameOf(finding.address))),
    );
    if (!hit) {
      out.violations.push(finding);
      continue;
    }
    hit.used = true;
    const why = expiredOn(hit.waiver) ? `the waiver expired on ${hit.waiver.expires}` : refusal(finding.enforcementLevel);
    if (why) out.violations.push({ ...finding, waiverRefused: { waiver: ref(hit.waiver), why } });
    else out.waived.push({ ...finding, waived: ref(hit.waiver) });
  }
  out.expired = waivers.filter((w) => expiredOn(w.waiver)).map((w) => ref(w.waiver));
  out.unmatched = waivers.filter((w) => !w.used && !expiredOn(w.waiver)).map((w) => ref(w.waiver));
  return out;
}

function refusal(level: Level): string | undefined {
  return level === "mandatory"
    ? 'the policy is mandatory: a waiver overrides only a waivable one ("waivable": true in the policy configuration)'
    : undefined;
}

/** Waivers naming a policy that does not exist are refused: a typo would otherwise waive nothing, silently. */
export function unknownPolicies(file: WaiversFile, known: readonly string[]): string[] {
  return file.waivers.flatMap((w, i) => (known.includes(w.policy) ? [] : [`waivers.${i}.policy: no policy is called "${w.policy}"`]));
}
