import { API_BASE_PATH, CRUD_RESOURCES, type CostFilters, type CrudNoun, type PageQuery } from "@cloudcost/api/contract";
import { assertIfMatch } from "../http/etag";
import type { SandboxContext } from "../service/context";
import { withoutWriting } from "../store/connection";
import type { GroupScopedTable } from "../store/group-scoped-table";
import type { ApiHandlers } from "./handler";

interface Caller {
  ctx: SandboxContext;
  orgId: string;
  ifMatch: string | undefined;
}

/** The logic shared by budget alerts and scheduled reports (both are group-scoped tables of client-defined fields). */
function groupScoped<N extends CrudNoun, F extends { groupId: string | null; filters: CostFilters }, V extends { id: string }>(
  noun: N,
  store: (ctx: SandboxContext) => GroupScopedTable<F, V>,
) {
  // Filters the schema accepts but that could never match in the organization (or the group) are refused
  // before anything is stored (issues 27, 33).
  const evaluable = (c: Caller & { body: F }): void => c.ctx.costs.assertEvaluable(c.orgId, c.body.filters, c.body.groupId, "body.filters");
  const plural = `${noun}s`;
  /** A call on one item: its id is the route's path parameter named in the contract (`alertId`, `reportId`). */
  type OnItem = Caller & { params: Record<(typeof CRUD_RESOURCES)[N], string> };
  const idOf = (c: OnItem): string => c.params[CRUD_RESOURCES[noun]];
  const current = (c: Caller, id: string) => (): V => store(c.ctx).require(c.orgId, id);
  const create = (c: Caller & { body: F }) => {
    evaluable(c);
    const created = store(c.ctx).create(c.orgId, c.body);
    return { body: created, location: `${API_BASE_PATH}/${plural}/${created.id}` };
  };
  const replace = (c: OnItem & { body: F }) => {
    assertIfMatch(c.ifMatch, current(c, idOf(c)));
    evaluable(c);
    return { body: store(c.ctx).replace(c.orgId, idOf(c), c.body) };
  };
  return {
    list: (c: Caller & { query: PageQuery }) => ({ body: store(c.ctx).page(c.orgId, c.query) }),
    create,
    get: (c: OnItem) => ({ body: current(c, idOf(c))() }),
    replace,
    /**
     * Issue 38, the dry-run: the create (or, with the item's id in the query, the replace) itself, rolled
     * back — its answer is the real request's, and nothing is written.
     */
    validate: (c: Caller & { body: F; query: Partial<Record<(typeof CRUD_RESOURCES)[N], string>> }) => {
      const id = c.query[CRUD_RESOURCES[noun]];
      const asIs = { ctx: c.ctx, orgId: c.orgId, body: c.body, ifMatch: undefined };
      withoutWriting(c.ctx.db, () =>
        id === undefined ? create(asIs) : replace({ ...asIs, params: { [CRUD_RESOURCES[noun]]: id } as OnItem["params"] }),
      );
      return {};
    },
    remove: (c: OnItem) => {
      assertIfMatch(c.ifMatch, current(c, idOf(c)));
      store(c.ctx).delete(c.orgId, idOf(c));
      return {};
    },
  };
}

const alerts = groupScoped("alert", (ctx) => ctx.alerts);
const reports = groupScoped("report", (ctx) => ctx.reports);

export const alertHandlers = {
  listAlerts: alerts.list,
  createAlert: alerts.create,
  getAlert: alerts.get,
  replaceAlert: alerts.replace,
  deleteAlert: alerts.remove,
  validateAlert: alerts.validate,
} satisfies ApiHandlers;

export const reportHandlers = {
  listReports: reports.list,
  createReport: reports.create,
  getReport: reports.get,
  replaceReport: reports.replace,
  deleteReport: reports.remove,
  validateReport: reports.validate,
} satisfies ApiHandlers;
