import type { PageQuery } from "@cloudcost/api";
import { assertIfMatch } from "../http/etag";
import type { SandboxContext } from "../service/context";
import type { GroupScopedTable } from "../store/group-scoped-table";
import { param, type HandlerMap } from "./handler";

/** list/create/get/replace/delete handlers named like the contract's `crud()` routes. */
function crudHandlers<F extends { groupId: string | null }, V extends { id: string }>(
  noun: string,
  plural: string,
  idParam: string,
  store: (ctx: SandboxContext) => GroupScopedTable<F, V>,
): HandlerMap {
  return {
    [`list${noun}s`]: (c) => ({ body: store(c.ctx).page(c.orgId, c.query as PageQuery) }),
    [`create${noun}`]: (c) => {
      const created = store(c.ctx).create(c.orgId, c.body as F);
      return { body: created, location: `/api/v1/${plural}/${created.id}` };
    },
    [`get${noun}`]: (c) => ({ body: store(c.ctx).require(c.orgId, param(c, idParam)) }),
    [`replace${noun}`]: (c) => {
      assertIfMatch(c.ifMatch, () => store(c.ctx).require(c.orgId, param(c, idParam)));
      return { body: store(c.ctx).replace(c.orgId, param(c, idParam), c.body as F) };
    },
    [`delete${noun}`]: (c) => {
      assertIfMatch(c.ifMatch, () => store(c.ctx).require(c.orgId, param(c, idParam)));
      store(c.ctx).delete(c.orgId, param(c, idParam));
      return {};
    },
  };
}

export const alertHandlers: HandlerMap = crudHandlers("Alert", "alerts", "alertId", (ctx) => ctx.alerts);
export const reportHandlers: HandlerMap = crudHandlers("Report", "reports", "reportId", (ctx) => ctx.reports);
