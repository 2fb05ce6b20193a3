import type { PageQuery } from "@cloudcost/api";
import { assertIfMatch } from "../http/etag";
import type { SandboxContext } from "../service/context";
import type { GroupScopedTable } from "../store/group-scoped-table";
import type { ApiHandlers } from "./handler";

interface Caller {
  ctx: SandboxContext;
  orgId: string;
  ifMatch: string | undefined;
}

/** The logic shared by budget alerts and scheduled reports (both are group-scoped tables of client-defined fields). */
function groupScoped<F extends { groupId: string | null }, V extends { id: string }>(
  plural: string,
  store: (ctx: SandboxContext) => GroupScopedTable<F, V>,
) {
  const current = (c: Caller, id: string) => (): V => store(c.ctx).require(c.orgId, id);
  return {
    list: (c: Caller & { query: PageQuery }) => ({ body: store(c.ctx).page(c.orgId, c.query) }),
    create: (c: Caller & { body: F }) => {
      const created = store(c.ctx).create(c.orgId, c.body);
      return { body: created, location: `/api/v1/${plural}/${created.id}` };
    },
    get: (c: Caller, id: string) => ({ body: current(c, id)() }),
    replace: (c: Caller & { body: F }, id: string) => {
      assertIfMatch(c.ifMatch, current(c, id));
      return { body: store(c.ctx).replace(c.orgId, id, c.body) };
    },
    remove: (c: Caller, id: string) => {
      assertIfMatch(c.ifMatch, current(c, id));
      store(c.ctx).delete(c.orgId, id);
      return {};
    },
  };
}

const alerts = groupScoped("alerts", (ctx) => ctx.alerts);
const reports = groupScoped("reports", (ctx) => ctx.reports);

export const alertHandlers = {
  listAlerts: alerts.list,
  createAlert: alerts.create,
  getAlert: (c) => alerts.get(c, c.params.alertId),
  replaceAlert: (c) => alerts.replace(c, c.params.alertId),
  deleteAlert: (c) => alerts.remove(c, c.params.alertId),
} satisfies ApiHandlers;

export const reportHandlers = {
  listReports: reports.list,
  createReport: reports.create,
  getReport: (c) => reports.get(c, c.params.reportId),
  replaceReport: (c) => reports.replace(c, c.params.reportId),
  deleteReport: (c) => reports.remove(c, c.params.reportId),
} satisfies ApiHandlers;
