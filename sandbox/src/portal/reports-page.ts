import type { ScheduledReport } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { registerGroupScopedList, scopeName } from "./group-scoped-list";
import { html, type SafeHtml } from "../web/html";
import type { PortalView } from "./portal-page";

function schedule(r: ScheduledReport): string {
  const s = r.schedule;
  const day = s.frequency === "weekly" ? ` on ${s.dayOfWeek}` : s.frequency === "monthly" ? ` on day ${s.dayOfMonth}` : "";
  return `${s.frequency}${day} at ${s.time} ${s.timezone}`;
}

function reportRow(view: PortalView, r: ScheduledReport): SafeHtml {
  return html`<tr><td>${r.name}</td><td>${r.report}</td><td>${scopeName(view, r.groupId)}</td><td>${schedule(r)}</td><td>${r.format}</td><td>${r.recipients.join(", ")}</td><td>${r.nextRunAt ?? "disabled"}</td></tr>`;
}

/** Read-only list of scheduled reports. */
export function registerReportsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  registerGroupScopedList(app, ctx, stores, {
    path: "/portal/reports",
    title: "Scheduled reports",
    noun: "scheduled reports",
    items: (c, orgId) => c.reports.list(orgId),
    headers: ["Name", "Report", "Covers", "Schedule", "Format", "Recipients", "Next run (UTC)"],
    row: reportRow,
  });
}
