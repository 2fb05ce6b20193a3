import type { CostFilters } from "@cloudcost/api/contract";
import { html, type SafeHtml } from "../web/html";
import { text, textareaField, type FormState } from "./form-controls";

/** The filter lists a form edits as text, one entry per line, by their contract names. */
const LISTS = [
  { key: "providers", label: "Providers", hint: "aws or azure, one per line" },
  { key: "accountIds", label: "Accounts", hint: "AWS account IDs or Azure subscription IDs, one per line" },
  { key: "services", label: "Services", hint: "as the cost data names them, e.g. Amazon EC2, one per line" },
  { key: "regions", label: "Regions", hint: "region codes, e.g. eu-west-1 or westeurope, one per line" },
] as const;

/**
 * `filters` as a form states it (issue 27): each list one entry per line, tags as `key=value` lines (the
 * values of one key are alternatives, as in the cost reads' `tag` parameter). A blank list is left out —
 * the contract's "an empty list is the same as none".
 */
export function filtersCandidate(form: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const { key } of LISTS) {
    const values = listLines(form, `filters.${key}`);
    if (values.length) filters[key] = values;
  }
  const byKey = new Map<string, string[]>();
  for (const line of listLines(form, "filters.tags")) {
    const at = line.indexOf("=");
    const key = (at === -1 ? line : line.slice(0, at)).trim();
    byKey.set(key, [...(byKey.get(key) ?? []), at === -1 ? "" : line.slice(at + 1).trim()]);
  }
  if (byKey.size) filters.tags = [...byKey].map(([key, values]) => ({ key, values }));
  return filters;
}

/** Lines only: a service name may hold a comma, so commas do not split here (unlike e-mail lists). */
const listLines = (form: Readonly<Record<string, unknown>>, name: string): string[] =>
  text(form, name)
    .split("\n")
    .map((s) => s.trim())
    .filter((s) => s !== "");

export function filtersForm(f: CostFilters): Record<string, string> {
  const values: Record<string, string> = {};
  for (const { key } of LISTS) values[`filters.${key}`] = (f[key] ?? []).join("\n");
  values["filters.tags"] = (f.tags ?? []).flatMap((t) => t.values.map((v) => `${t.key}=${v}`)).join("\n");
  return values;
}

export function filterFields(state: FormState, legend: string): SafeHtml {
  // A rule about the filters as a whole (none allowed for budget_status reports) stands under the legend.
  const whole = state.errors.filter((e) => e.path === "filters").map((e) => e.message);
  return html`<fieldset><legend>${legend}</legend>${whole.length ? html`<p class="field-error" id="f-filters-error">${whole.join("; ")}</p>` : ""}${LISTS.map(
    ({ key, label, hint }) => textareaField(state, { name: `filters.${key}`, label, hint }),
  )}${textareaField(state, { name: "filters.tags", label: "Tags", hint: "key=value, one per line; several values of one key are alternatives" })}</fieldset>`;
}

/** The filters in one line for a table cell: "all spend" when there are none. */
export function filtersText(f: CostFilters): string {
  const parts: string[] = [];
  for (const { key, label } of LISTS) if (f[key]?.length) parts.push(`${label.toLowerCase()}: ${f[key]!.join(", ")}`);
  for (const t of f.tags ?? []) parts.push(`tag ${t.key}: ${t.values.join(" or ")}`);
  return parts.length ? parts.join("; ") : "all spend";
}
