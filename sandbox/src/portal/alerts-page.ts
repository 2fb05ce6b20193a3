import { AlertRequest, BudgetPeriod, MAX_THRESHOLDS, ThresholdBasis, type BudgetAlert } from "@cloudcost/api";
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
const rowNumbers = (form: Readonly<Record<string, unknown>>): number[] =>
  Object.keys(form)
    .map((k) => Number(/^thresholds\.(\d{1,2})\.percent$/.exec(k)?.[1] ?? NaN))
    .filter((n) => n < MAX_THRESHOLD_ROWS)
    .sort((a, b) => a - b);

/** The rows that hold a threshold (a blank percent drops its row). */
const thresholdRows = (form: Readonly<Record<string, unknown>>): number[] =>
  rowNumbers(form).filter((n) => text(form, `thresholds.${n}.percent`).trim() !== "");

/** The alert a form stands for: blank threshold rows are skipped; `webhookUrl` blank is none; `groupId` blank is the whole organization. */
function candidate(form: Readonly<Record<string, unknown>>): unknown {
  const webhook = text(form, "webhookUrl").trim();
  return {
    name: optionalText(form, "name"),
    amount: numberField(form, "amount"),
    currency: optionalText(form, "currency")?.trim(),
    period: optionalText(form, "period"),
    groupId: text(form, "groupId") === "" ? null : text(form, "groupId"),
    thresholds: thresholdRows(form).map((n) => ({
      percent: numberField(form, `thresholds.${n}.percent`),
      basis: optionalText(form, `thresholds.${n}.basis`),
    })),
    recipients: listField(form, "recipients"),
    webhookUrl: webhook === "" ? null : webhook,
    enabled: text(form, "enabled") !== "",
  };
}

/** `thresholds.1.percent` of the input is the form's second non-blank row, whatever its number. */
function fieldPath(path: string, form: Readonly<Record<string, unknown>>): string {
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
  };
  a.thresholds.forEach((t, i) => {
    values[`thresholds.${i}.percent`] = String(t.percent);
    values[`thresholds.${i}.basis`] = t.basis;
  });
  return values;
}

function thresholdFields(state: FormState): SafeHtml {
  const used = rowNumbers(state.values);
  const count = Math.min(MAX_THRESHOLD_ROWS, Math.max(MIN_THRESHOLD_ROWS, used.length === 0 ? 0 : Math.max(...used) + 2));
  const bases = ThresholdBasis.options.map((b): [string, string] => [b, b === "actual" ? "spend so far" : "forecast"]);
  return html`<fieldset><legend>Thresholds (percent of the amount; leave a row blank to drop it)</legend>${[...Array(count).keys()].map(
    (n) =>
      html`<div class="actions">${inputField(state, { name: `thresholds.${n}.percent`, label: `Threshold ${n + 1} percent`, inputmode: "decimal" })}${selectField(state, { name: `thresholds.${n}.basis`, label: `Threshold ${n + 1} basis`, options: bases })}</div>`,
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
${inputField(state, { name: "amount", label: "Amount", inputmode: "decimal", required: true, hint: "per period, at most two decimals" })}
${inputField(state, { name: "currency", label: "Currency", hint: "ISO 4217 code, e.g. USD" })}
${selectField(state, { name: "period", label: "Period", options: BudgetPeriod.options.map((p): [string, string] => [p, p]) })}
${selectField(state, { name: "groupId", label: "Covers", options: coverOptions(view) })}
${thresholdFields(state)}
${textareaField(state, { name: "recipients", label: "Recipients", hint: "e-mail addresses, one per line" })}
${inputField(state, { name: "webhookUrl", label: "Webhook URL", type: "url", hint: "optional; https, or http to localhost" })}
${checkboxField(state, { name: "enabled", label: "Enabled" })}`;
}

function alertRow(view: PortalView, a: BudgetAlert): (SafeHtml | string)[] {
  return [
    a.name,
    scopeName(view, a.groupId),
    `${a.period} (${a.periodStart} – ${a.periodEnd})`,
    money(a.amount, a.currency),
    budgetBar(a),
    html`${a.thresholds.map((t) => html`${t.percent}% ${t.basis}<br>`)}`,
    a.enabled ? "enabled" : "disabled",
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
