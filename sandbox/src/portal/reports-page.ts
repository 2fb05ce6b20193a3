import { DayOfWeek, Frequency, ReportFormat, ReportKind, ReportRequest, type ScheduledReport } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { html, type SafeHtml } from "../web/html";
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
import type { PortalView } from "./portal-page";
import { timeText } from "./time-text";

function schedule(r: ScheduledReport): string {
  const s = r.schedule;
  const day = s.frequency === "weekly" ? ` on ${s.dayOfWeek}` : s.frequency === "monthly" ? ` on day ${s.dayOfMonth}` : "";
  return `${s.frequency}${day} at ${s.time} ${s.timezone}`;
}

/** Blank day fields are absent, so the schema says which one the chosen frequency requires or refuses (as the API does). */
function candidate(form: Readonly<Record<string, unknown>>): unknown {
  const dayOfWeek = text(form, "dayOfWeek");
  const webhook = text(form, "webhookUrl").trim();
  return {
    name: optionalText(form, "name"),
    report: optionalText(form, "report"),
    groupId: text(form, "groupId") === "" ? null : text(form, "groupId"),
    schedule: {
      frequency: optionalText(form, "frequency"),
      ...(dayOfWeek === "" ? {} : { dayOfWeek }),
      ...(numberField(form, "dayOfMonth") === undefined ? {} : { dayOfMonth: numberField(form, "dayOfMonth") }),
      time: optionalText(form, "time")?.trim(),
      timezone: optionalText(form, "timezone")?.trim(),
    },
    format: optionalText(form, "format"),
    recipients: listField(form, "recipients"),
    webhookUrl: webhook === "" ? null : webhook,
    filters: filtersCandidate(form),
    enabled: text(form, "enabled") !== "",
  };
}

/** The schedule's fields stand alone on the form. */
const fieldPath = (path: string): string => path.replace(/^schedule\./, "");

const formOf = (r: ScheduledReport): Record<string, unknown> => ({
  name: r.name,
  report: r.report,
  groupId: r.groupId ?? "",
  frequency: r.schedule.frequency,
  dayOfWeek: r.schedule.dayOfWeek ?? "",
  dayOfMonth: r.schedule.dayOfMonth === null ? "" : String(r.schedule.dayOfMonth),
  time: r.schedule.time,
  timezone: r.schedule.timezone,
  format: r.format,
  recipients: r.recipients.join("\n"),
  webhookUrl: r.webhookUrl ?? "",
  ...filtersForm(r.filters),
  enabled: r.enabled ? "on" : "",
});

const choices = (options: readonly string[]): [string, string][] => options.map((o): [string, string] => [o, o]);

function fields(view: PortalView, state: FormState): SafeHtml {
  return html`${inputField(state, { name: "name", label: "Name", required: true })}
${selectField(state, { name: "report", label: "Report", options: choices(ReportKind.options) })}
${selectField(state, { name: "groupId", label: "Covers", options: coverOptions(view) })}
${filterFields(state, "Filters (count only this spend; blank lists: all; none for budget_status, where each alert's own apply)")}
<fieldset><legend>Schedule</legend>
${selectField(state, { name: "frequency", label: "Frequency", options: choices(Frequency.options) })}
${selectField(state, { name: "dayOfWeek", label: "Day of the week", hint: "weekly only", options: [["", "—"], ...choices(DayOfWeek.options)] })}
${inputField(state, { name: "dayOfMonth", label: "Day of the month", hint: "monthly only, 1–31", inputmode: "numeric" })}
${inputField(state, { name: "time", label: "Time", hint: "HH:MM, 24-hour" })}
${inputField(state, { name: "timezone", label: "Time zone", hint: "IANA name, e.g. Europe/Berlin" })}</fieldset>
${selectField(state, { name: "format", label: "Format", options: choices(ReportFormat.options) })}
${textareaField(state, { name: "recipients", label: "Recipients", hint: "e-mail addresses, one per line; may be empty when a webhook is set" })}
${inputField(state, { name: "webhookUrl", label: "Webhook URL", type: "url", hint: "optional; receives every run's rows (a spend feed); https, or http to localhost" })}
${checkboxField(state, { name: "enabled", label: "Enabled" })}`;
}

function reportRow(view: PortalView, r: ScheduledReport): (SafeHtml | string)[] {
  return [
    r.name,
    r.report,
    `${scopeName(view, r.groupId)}; ${filtersText(r.filters)}`,
    schedule(r),
    r.format,
    [...r.recipients, ...(r.webhookUrl === null ? [] : ["webhook"])].join(", ") || "—",
    r.nextRunAt === null ? "disabled" : timeText(Date.parse(r.nextRunAt), Date.now()),
  ];
}

/** Scheduled reports, created, edited and deleted like through the API. */
export function registerReportsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  registerGroupScopedPages(app, ctx, stores, {
    path: "/portal/reports",
    title: "Scheduled reports",
    noun: "scheduled report",
    plural: "scheduled reports",
    schema: ReportRequest,
    store: (c) => c.reports,
    candidate,
    fieldPath,
    defaults: { report: "summary", frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "UTC", format: "csv", enabled: "on" },
    formOf,
    fields,
    headers: ["Name", "Report", "Covers", "Schedule", "Format", "Recipients", "Next run"],
    row: reportRow,
  });
}
