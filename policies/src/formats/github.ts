import type { Finding, Verdict } from "../verdict/verdict";
import { budgetLine, fullMessage, summaryLine, waiverNotes, waiverText } from "./describe";

/*
 * GitHub Actions workflow commands (docs.github.com, "Workflow commands for GitHub Actions"): an annotation per
 * finding on the declaration's line — error for mandatory and waivable, warning for advisory, notice for
 * waived — then the summary. The Markdown job summary is written by the command to $GITHUB_STEP_SUMMARY.
 */

/** Escapes of the runner's command parser (toolkit's command.ts): data escapes %, CR, LF; properties also : and ,. */
const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

function annotation(command: "error" | "warning" | "notice", f: Finding, message: string): string {
  const props = [
    ...(f.location
      ? [`file=${property(f.location.file)}`, `line=${f.location.line}`, ...(f.location.column ? [`col=${f.location.column}`] : [])]
      : []),
    `title=${property(`${f.policy} (${f.enforcementLevel}): ${f.address}`)}`,
  ];
  return `::${command} ${props.join(",")}::${data(message)}`;
}

export function github(v: Verdict): string {
  const lines = [
    ...v.violations.map((f) =>
      annotation(f.enforcementLevel === "advisory" ? "warning" : "error", f, `${f.attribute ? `${f.attribute}: ` : ""}${fullMessage(f)}`),
    ),
    ...v.waived.map((f) => annotation("notice", f, `waived: ${f.message} (${waiverText(f.waived!)})`)),
    ...[...waiverNotes(v), ...v.warnings].map((n) => `::warning title=cloudcost-policies::${data(n)}`),
    `::notice title=cloudcost budget change::${data(budgetLine(v.budget.total))}`,
    summaryLine(v),
  ];
  return `${lines.join("\n")}\n`;
}
