import type { ScheduledReport } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../context";
import type { IdentityStores } from "../identity/identity-stores";
import { html, type SafeHtml } from "./html";
import { sendPortalPage, signedInPage, type PortalView } from "./portal-page";

const PATH = "/portal/reports";

function schedule(r: ScheduledReport): string {
  const s = r.schedule;
  const day = s.frequency === "weekly" ? ` on ${s.dayOfWeek}` : s.frequency === "monthly" ? ` on day ${s.dayOfMonth}` : "";
  return `${s.frequency}${day} at ${s.time} ${s.timezone}`;
}

function reportRow(view: PortalView, r: ScheduledReport): SafeHtml {
  const covers = r.groupId === null ? "whole organization" : (view.groups.find((g) => g.id === r.groupId)?.name ?? r.groupId);
  return html`<tr><td>${r.name}</td><td>${r.report}</td><td>${covers}</td><td>${schedule(r)}</td><td>${r.format}</td><td>${r.recipients.join(", ")}</td><td>${r.nextRunAt ?? "disabled"}</td></tr>`;
}

/** Read-only list of scheduled reports; the global filter narrows it to one group. */
export function registerReportsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(
    PATH,
    signedInPage(ctx, stores, (view, _request, reply) => {
      const reports = ctx.reports.list(view.user.orgId).filter((r) => !view.selected || r.groupId === view.selected.id);
      const body =
        reports.length === 0
          ? html`<p>No scheduled reports${view.selected ? " for this group" : ""}. Create them through the API or with Pulumi.</p>`
          : html`<table><thead><tr><th>Name</th><th>Report</th><th>Covers</th><th>Schedule</th><th>Format</th><th>Recipients</th><th>Next run (UTC)</th></tr></thead><tbody>${reports.map((r) => reportRow(view, r))}</tbody></table>`;
      return sendPortalPage(reply, view, PATH, "Scheduled reports", body);
    }),
  );
}
