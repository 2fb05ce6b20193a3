import type { DeltaRow } from "../verdict/budget-delta";
import type { Finding, Verdict, WaiverRef } from "../verdict/verdict";

/* What several formats say the same way: where a finding is, a waiver in one line, money and the summary. */

export const where = (f: Finding): string => `${f.address}${f.attribute ? `: ${f.attribute}` : ""}`;

export const waiverText = (w: WaiverRef): string => `${w.owner}, until ${w.expires}: ${w.reason}`;

export const money = (n: number, currency: string): string =>
  `${n < 0 ? "−" : ""}${Math.abs(n).toLocaleString("en-US", { maximumFractionDigits: 2 })} ${currency}`;

export const signed = (n: number, currency: string): string => `${n > 0 ? "+" : ""}${money(n, currency)}`;

/** The finding's message with why a waiver naming it did not waive it. */
export const fullMessage = (f: Finding): string =>
  f.waiverRefused ? `${f.message} (waiver by ${f.waiverRefused.waiver.owner} not applied: ${f.waiverRefused.why})` : f.message;

export function summaryLine(v: Verdict): string {
  const mandatory = v.violations.filter((f) => f.enforcementLevel !== "advisory").length;
  const advisory = v.violations.length - mandatory;
  const judged = `${v.resources} cloudcost resource(s) judged`;
  const waived = v.waived.length ? `; ${v.waived.length} waived` : "";
  const what = v.door === "terraform" ? "the plan must not be applied" : "the preview must not be deployed";
  return v.violations.length === 0
    ? `${judged}: no policy violation${waived}.`
    : `${judged}: ${mandatory} mandatory and ${advisory} advisory violation(s)${waived}${mandatory ? `; ${what}.` : "."}`;
}

/** `+1,000 USD/month (created 1,500, changed −200, removed 300)`, one per currency; "no change" when none. */
export function budgetLine(rows: readonly DeltaRow[]): string {
  if (rows.length === 0) return "no change";
  return rows
    .map(
      (r) =>
        `${signed(r.net, r.currency)}/month (created ${money(r.created, r.currency)}, changed ${signed(r.changed, r.currency)}, removed ${money(r.removed, r.currency)})`,
    )
    .join("; ");
}

export function waiverNotes(v: Verdict): string[] {
  return [
    ...v.waivers.expired.map(
      (w) => `waiver for ${w.resource} (${w.policy}) expired on ${w.expires}: it waives nothing (${w.owner}: ${w.reason})`,
    ),
    ...v.waivers.unmatched.map(
      (w) => `waiver for ${w.resource} (${w.policy}) matches no finding: remove it (${w.owner}, until ${w.expires})`,
    ),
  ];
}
