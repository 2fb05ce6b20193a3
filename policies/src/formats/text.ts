import type { Verdict } from "../verdict/verdict";
import { budgetLine, fullMessage, summaryLine, waiverNotes, waiverText, where } from "./describe";

/** One line per finding (`mandatory: ADDRESS: ATTRIBUTE: MESSAGE (POLICY)`), then waivers, the budget and the summary. */
export function text(v: Verdict): string {
  const lines = [
    ...v.violations.map((f) => `${f.enforcementLevel}: ${where(f)}: ${fullMessage(f)} (${f.policy})`),
    ...v.waived.map((f) => `waived: ${where(f)}: ${f.message} (${f.policy}; ${waiverText(f.waived!)})`),
    ...waiverNotes(v).map((n) => `warning: ${n}`),
    ...v.warnings.map((w) => `warning: ${w}`),
    `budget: ${budgetLine(v.budget.total)}`,
    summaryLine(v),
  ];
  return `${lines.join("\n")}\n`;
}
