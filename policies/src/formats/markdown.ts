import type { DeltaRow } from "../verdict/budget-delta";
import type { Verdict } from "../verdict/verdict";
import { fullMessage, money, signed, summaryLine, waiverNotes } from "./describe";

/*
 * Markdown for a pull-request comment or a job summary (GitHub-flavoured tables): the budget the change adds
 * first, then the violations, the waived findings and the waivers to look at.
 */

const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function deltaTable(title: string, rows: readonly DeltaRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    `| ${title} | Created | Changed | Removed | Net per month |`,
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${cell(r.key === "total" ? `Total (${r.currency})` : r.key)} | ${money(r.created, r.currency)} | ${signed(r.changed, r.currency)} | ${money(r.removed, r.currency)} | **${signed(r.net, r.currency)}** |`,
    ),
    "",
  ];
}

export function markdown(v: Verdict): string {
  const what = v.door === "terraform" ? "Terraform plan" : "Pulumi preview";
  const out = [`## ${v.passed ? "✅" : "❌"} cloudcost budget policies on the ${what}`, "", summaryLine(v), ""];
  out.push("### Budget this change adds", "");
  if (v.budget.total.length === 0) out.push("No budget alert amount changes.", "");
  out.push(...deltaTable("Total", v.budget.total), ...deltaTable("Group", v.budget.byGroup), ...deltaTable("Accounts", v.budget.byAccount));
  if (v.budget.unknown.length) out.push(`Not counted (amount known only at apply): ${v.budget.unknown.map(code).join(", ")}`, "");
  if (v.violations.length) {
    out.push(
      `### Violations (${v.violations.length})`,
      "",
      "| Level | Resource | Attribute | Policy | Message |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const f of v.violations) {
      const at = f.location ? ` (${f.location.file}:${f.location.line})` : "";
      out.push(
        `| ${f.enforcementLevel} | ${code(f.address)}${cell(at)} | ${f.attribute ? code(f.attribute) : ""} | ${code(f.policy)} | ${cell(fullMessage(f))} |`,
      );
    }
    out.push("");
  }
  if (v.waived.length) {
    out.push(
      `### Waived (${v.waived.length})`,
      "",
      "| Resource | Policy | Owner | Expires | Reason | Finding |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const f of v.waived)
      out.push(
        `| ${code(f.address)} | ${code(f.policy)} | ${cell(f.waived!.owner)} | ${f.waived!.expires} | ${cell(f.waived!.reason)} | ${cell(f.message)} |`,
      );
    out.push("");
  }
  const notes = [...waiverNotes(v), ...v.warnings];
  if (notes.length) out.push("### To look at", "", ...notes.map((n) => `- ${cell(n)}`), "");
  return `${out.join("\n")}`;
}
