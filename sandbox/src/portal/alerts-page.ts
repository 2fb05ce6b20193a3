import { AlertRequest, BudgetPeriod, MAX_THRESHOLDS, ThresholdBasis, type BudgetAlert } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { html, type SafeHtml } from "../web/html";
import { budgetBar } from "./budget-bar";
import {
  checkboxField,
  inputField,
  listField,
  numberField,
  optionalText,
  selectField,
  text,
  textareaField,
  type FormState,
} from "./form-controls";
import { filterFields, filtersCandidate, filtersForm, filtersText } from "./filter-fields";
import { coverOptions, registerGroupScopedPages, scopeName } from "./group-scoped-pages";
import { money } from "./money";
import type { PortalView } from "./portal-page";

/** Threshold rows a form offers: the alert's own plus blank ones to add, at least this many. */
const MIN_THRESHOLD_ROWS = 3;

/**
 * Threshold rows the page offers at most: one more than the API allows, so the API's own limit is what a
 * person meets. Row numbers beyond are not the page's and are ignored (a forged `thresholds.99999999.percent`
 * must not make the page render a hundred million rows).
 */
const MAX_THRESHOLD_ROWS = MAX_THRESHOLDS + 1;

/** The threshold row numbers present in a form, in order. */
const rowNumbers = (form: Readonly<Record<string, unknown>>): number[] => [
  ...new Set(
    Object.keys(form)
      .map((k) => Number(/^thresholds\.(\d{1,2})\.(percent|amount)$/.exec(k)?.[1] ?? NaN))
      .filter((n) => n < MAX_THRESHOLD_ROWS)
      .sort((a, b) => a - b),
  ),
];

/** The rows that hold a threshold (a row with both percent and amount blank is dropped). */
const thresholdRows = (form: Readonly<Record<string, unknown>>): number[] =>
  rowNumbers(form).filter((n) => text(form, `thresholds.${n}.percent`).trim() !== "" || text(form, `thresholds.${n}.amount`).trim() !== "");

/** Who a threshold's e-mail goes to (issue 27): the alert's recipients (no list), its own list, or nobody (webhook only: []). */
const SEND_TO: [string, string][] = [
  ["alert", "the alert's recipients"],
  ["own", "the recipients listed here"],
  ["none", "nobody (webhook only)"],
];

/** One threshold row as the contract takes it: the level as a percent or an amount (the schema says if both or neither). */
function threshold(form: Readonly<Record<string, unknown>>, n: number): Record<string, unknown> {
  const sendTo = text(form, `thresholds.${n}.sendTo`);
  return {
    ...(text(form, `thresholds.${n}.percent`).trim() === "" ? {} : { percent: numberField(form, `thresholds.${n}.percent`) }),
    ...(text(form, `thresholds.${n}.amount`).trim() === "" ? {} : { amount: numberField(form, `thresholds.${n}.amount`) }),
    basis: optionalText(form, `thresholds.${n}.basis`),
    // The alert's recipients: left out, as the contract has it (`Threshold.recipients` is optional, never null).
    ...(sendTo === "own" ? { recipients: listField(form, `thresholds.${n}.recipients`) } : sendTo === "none" ? { recipients: [] } : {}),
  };
}

/** Planned amounts as lines `YYYY-MM-DD amount` (or `YYYY-MM-DD = amount`); the schema judges each part. */
function plannedAmounts(form: Readonly<Record<string, unknown>>): unknown[] {
  return text(form, "plannedAmounts")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [periodStart = "", raw = ""] = line.split(/\s*=\s*|\s+/);
      return { periodStart, amount: /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw };
    });
}

const dateOrNull = (form: Readonly<Record<string, unknown>>, name: string): string | null => text(form, name).trim() || null;

/** The alert a form stands for: blank threshold rows are skipped; `webhookUrl` blank is none; `groupId` blank is the whole organization. */
function candidate(form: Readonly<Record<string, unknown>>): unknown {
  const webhook = text(form, "webhookUrl").trim();
  const lookback = numberField(form, "autoAdjust.lookbackPeriods");
  return {
    name: optionalText(form, "name"),
    amount: numberField(form, "amount"),
    currency: optionalText(form, "currency")?.trim(),
    period: optionalText(form, "period"),
    groupId: text(form, "groupId") === "" ? null : text(form, "groupId"),
    filters: filtersCandidate(form),
    thresholds: thresholdRows(form).map((n) => threshold(form, n)),
    recipients: listField(form, "recipients"),
    webhookUrl: webhook === "" ? null : webhook,
    enabled: text(form, "enabled") !== "",
    plannedAmounts: plannedAmounts(form),
    autoAdjust: lookback === undefined ? null : { lookbackPeriods: lookback },
    startDate: dateOrNull(form, "startDate"),
    endDate: dateOrNull(form, "endDate"),
  };
}

/**
 * `thresholds.1.percent` of the input is the form's second non-blank row, whatever its number; a problem in
 * `autoAdjust` is shown at its one field.
 */
function fieldPath(path: string, form: Readonly<Record<string, unknown>>): string {
  if (path === "autoAdjust") return "autoAdjust.lookbackPeriods";
  const m = /^thresholds\.(\d+)(\..*)?$/.exec(path);
  if (!m) return path;
  const row = thresholdRows(form)[Number(m[1])];
  return row === undefined ? path : `thresholds.${row}${m[2] ?? ""}`;
}

function formOf(a: BudgetAlert): Record<string, unknown> {
  const values: Record<string, unknown> = {
    name: a.name,
    amount: String(a.amount),
    currency: a.currency,
    period: a.period,
    groupId: a.groupId ?? "",
    recipients: a.recipients.join("\n"),
    webhookUrl: a.webhookUrl ?? "",
    enabled: a.enabled ? "on" : "",
    ...filtersForm(a.filters),
    plannedAmounts: a.plannedAmounts.map((p) => `${p.periodStart} ${p.amount}`).join("\n"),
    "autoAdjust.lookbackPeriods": a.autoAdjust === null ? "" : String(a.autoAdjust.lookbackPeriods),
    startDate: a.startDate ?? "",
    endDate: a.endDate ?? "",
  };
  a.thresholds.forEach((t, i) => {
    values[`thresholds.${i}.percent`] = t.percent === undefined ? "" : String(t.percent);
    values[`thresholds.${i}.amount`] = t.amount === undefined ? "" : String(t.amount);
    values[`thresholds.${i}.basis`] = t.basis;
    values[`thresholds.${i}.sendTo`] = t.recipients == null ? "alert" : t.recipients.length ? "own" : "none";
    values[`thresholds.${i}.recipients`] = (t.recipients ?? []).join("\n");
  });
  return values;
}

function thresholdFields(state: FormState): SafeHtml {
  const used = rowNumbers(state.values);
  const count = Math.min(MAX_THRESHOLD_ROWS, Math.max(MIN_THRESHOLD_ROWS, used.length === 0 ? 0 : Math.max(...used) + 2));
  const bases = ThresholdBasis.options.map((b): [string, string] => [b, b === "actual" ? "spend so far" : "forecast"]);
  return html`<fieldset><legend>Thresholds (a percent of the period's amount or an absolute amount; leave a row blank to drop it)</legend>${[
    ...Array(count).keys(),
  ].map(
    (n) =>
      html`<div class="actions">${inputField(state, { name: `thresholds.${n}.percent`, label: `Threshold ${n + 1} percent`, inputmode: "decimal" })}${inputField(state, { name: `thresholds.${n}.amount`, label: `Threshold ${n + 1} amount`, hint: "or, instead of a percent", inputmode: "decimal" })}${selectField(state, { name: `thresholds.${n}.basis`, label: `Threshold ${n + 1} basis`, options: bases })}${selectField(state, { name: `thresholds.${n}.sendTo`, label: `Threshold ${n + 1} e-mail to`, options: SEND_TO, errorKey: `thresholds.${n}.recipients` })}${textareaField(state, { name: `thresholds.${n}.recipients`, label: `Threshold ${n + 1} recipients`, hint: "one per line, when sent to the recipients listed here" })}</div>`,
  )}${
    state.errors.some((e) => e.path === "thresholds")
      ? html`<p class="field-error">${state.errors
          .filter((e) => e.path === "thresholds")
          .map((e) => e.message)
          .join("; ")}</p>`
      : ""
  }</fieldset>`;
}

function fields(view: PortalView, state: FormState): SafeHtml {
  return html`${inputField(state, { name: "name", label: "Name", required: true })}
${inputField(state, { name: "amount", label: "Amount", inputmode: "decimal", required: true, hint: "per period, at most two decimals; planned amounts and history replace it" })}
${inputField(state, { name: "currency", label: "Currency", hint: "ISO 4217 code, e.g. USD" })}
${selectField(state, { name: "period", label: "Period", options: BudgetPeriod.options.map((p): [string, string] => [p, p]) })}
${selectField(state, { name: "groupId", label: "Covers", options: coverOptions(view) })}
${filterFields(state, "Filters (count only this spend; blank lists: all)")}
<fieldset><legend>Amounts per period</legend>
${textareaField(state, { name: "plannedAmounts", label: "Planned amounts", hint: "YYYY-MM-DD amount, one per line: the first day of a period and its own budget" })}
${inputField(state, { name: "autoAdjust.lookbackPeriods", label: "Set from history: periods to average", hint: "1–12 complete periods; blank: off; not with planned amounts", inputmode: "numeric" })}</fieldset>
${inputField(state, { name: "startDate", label: "Start date", type: "date", hint: "optional; first day the alert is active" })}
${inputField(state, { name: "endDate", label: "End date", type: "date", hint: "optional; last day the alert is active" })}
${thresholdFields(state)}
${textareaField(state, { name: "recipients", label: "Recipients", hint: "e-mail addresses, one per line" })}
${inputField(state, { name: "webhookUrl", label: "Webhook URL", type: "url", hint: "optional; https, or http to localhost" })}
${checkboxField(state, { name: "enabled", label: "Enabled" })}`;
}

/** Where this period's budget came from, when it is not `amount`. */
const SOURCE_TEXT = { amount: "", planned: " (planned for this period)", autoAdjust: " (set from history)" } as const;

function stateText(a: BudgetAlert): string {
  if (!a.enabled) return "disabled";
  if (a.active) return "active";
  return `inactive: outside ${a.startDate ?? "…"} – ${a.endDate ?? "…"}`;
}

function thresholdText(a: BudgetAlert, t: BudgetAlert["thresholds"][number]): string {
  const level = t.percent !== undefined ? `${t.percent}%` : money(t.amount!, a.currency);
  const to = t.recipients == null ? "" : t.recipients.length ? ` → ${t.recipients.join(", ")}` : " → webhook only";
  return `${level} ${t.basis}${to}`;
}

function alertRow(view: PortalView, a: BudgetAlert): (SafeHtml | string)[] {
  return [
    a.name,
    `${scopeName(view, a.groupId)}; ${filtersText(a.filters)}`,
    `${a.period} (${a.periodStart} – ${a.periodEnd})`,
    `${money(a.effectiveAmount, a.currency)}${SOURCE_TEXT[a.effectiveAmountSource]}`,
    budgetBar(a),
    html`${a.thresholds.map((t) => html`${thresholdText(a, t)}<br>`)}`,
    stateText(a),
  ];
}

/** Budget alerts: each with its spend and forecast against the budget, created, edited and deleted like through the API. */
export function registerAlertsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  registerGroupScopedPages(app, ctx, stores, {
    path: "/portal/alerts",
    title: "Budget alerts",
    noun: "budget alert",
    plural: "budget alerts",
    schema: AlertRequest,
    store: (c) => c.alerts,
    candidate,
    fieldPath,
    defaults: {
      currency: "USD",
      period: "monthly",
      "thresholds.0.percent": "80",
      "thresholds.0.basis": "actual",
      "thresholds.1.percent": "100",
      "thresholds.1.basis": "forecast",
      enabled: "on",
    },
    formOf,
    fields,
    headers: ["Name", "Covers", "Period", "Budget", "Spend and forecast", "Thresholds", "State"],
    row: alertRow,
  });
}
