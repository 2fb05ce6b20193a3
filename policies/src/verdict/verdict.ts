/*
 * Issue 40: one verdict for both doors — a Terraform/OpenTofu plan (`check-plan`) and a Pulumi preview
 * (`check-preview`) — that every output format (`src/formats/`) renders. The same policies, configuration,
 * waivers and budget arithmetic make it; only the resource names (address or URN) and the syntax differ.
 */
import type { BudgetDelta } from "./budget-delta";

/** Which door asked: the names and syntax of messages and locations follow it. */
export type Door = "terraform" | "pulumi";

/**
 * A finding's level. `advisory` and `mandatory` are @pulumi/policy's; `waivable` is a mandatory policy that
 * a waiver may override (Sentinel's soft-mandatory): in the pack it is `mandatory`, and the policy
 * configuration marks it `"waivable": true`.
 */
export type Level = "advisory" | "mandatory" | "waivable";

/** Where a resource is declared: a file relative to the configuration or program root, and a 1-based line. */
export interface SourceLocation {
  file: string;
  line: number;
  column?: number;
}

/** One resource the policies judged. */
export interface Subject {
  /** Terraform's address (`cloudcost_budget_alert.huge_budget`) or Pulumi's URN. */
  id: string;
  /** The type: Terraform's resource type or Pulumi's type token. */
  type: string;
  location?: SourceLocation;
}

export interface PolicyInfo {
  name: string;
  description: string;
  level: Level | "disabled";
}

/** A waiver of the waivers file (`waivers.ts` checks it): what a finding and the report cite. */
export interface WaiverRef {
  /** A Terraform address or Pulumi URN (or the URN's resource name); `*` matches any characters. */
  resource: string;
  policy: string;
  reason: string;
  owner: string;
  /** YYYY-MM-DD: the waiver holds through that day (UTC). */
  expires: string;
}

export interface Finding {
  policy: string;
  enforcementLevel: Level;
  /** The subject's id. */
  address: string;
  /** The attribute the finding is about, in the door's names; undefined when the resource as a whole is. */
  attribute?: string;
  message: string;
  location?: SourceLocation;
  /** Waived findings are listed, not counted; an expired waiver leaves the finding a violation and is cited. */
  waived?: WaiverRef;
  /** Why a waiver that names this finding did not waive it (expired, or the policy is not waivable). */
  waiverRefused?: { waiver: WaiverRef; why: string };
}

export interface Verdict {
  door: Door;
  /** How many cloudcost resources were judged. */
  resources: number;
  subjects: Subject[];
  policies: PolicyInfo[];
  /** Findings not waived: what the change must fix (mandatory, waivable) or should (advisory). */
  violations: Finding[];
  /** Findings a valid waiver overrides: listed so a reviewer sees them. */
  waived: Finding[];
  /** Every (resource, policy) pair judged: one test case each in JUnit. */
  judged: { address: string; policy: string }[];
  /** Waivers that matched no finding, and waivers past their expiry date. */
  waivers: { unmatched: WaiverRef[]; expired: WaiverRef[] };
  budget: BudgetDelta;
  /** Names in the policy configuration that are no policy: ignored, as the Pulumi CLI ignores them. */
  ignoredConfig: string[];
  /** What the reader should know that is no finding (e.g. unchanged resources a preview left out). */
  warnings: string[];
  /** False when a mandatory or waivable violation is left: the change must not be applied. */
  passed: boolean;
}

export const blocks = (f: Finding): boolean => f.enforcementLevel !== "advisory";
