import type { AlertFields, PageQuery, ReportFields } from "@cloudcost/api";
import { assertIfMatch } from "../http/etag";
import type { SandboxContext } from "../context";
import { param, type HandlerMap } from "./handler";

/** The store shape budget alerts and scheduled reports share. */
interface CrudStore<F, T extends { id: string }> {
  page(orgId: string, q: PageQuery): unknown;
  require(orgId: string, id: string): T;
  create(orgId: string, fields: F): T;
  replace(orgId: string, id: string, fields: F): T;
  delete(orgId: string, id: string): void;
}

/** list/create/get/replace/delete handlers named like the contract's `crud()` routes. */
function crudHandlers<F, T extends { id: string }>(noun: string, plural: string, idParam: string, store: (ctx: SandboxContext) => CrudStore<F, T>): HandlerMap {
  return {
    [`list${noun}s`]: (c) => ({ body: store(c.ctx).page(c.orgId, c.query as PageQuery) }),
    [`create${noun}`]: (c) => {
      const created = store(c.ctx).create(c.orgId, c.body as F);
      return { body: created, location: `/api/v1/${plural}/${created.id}` };
    },
    [`get${noun}`]: (c) => ({ body: store(c.ctx).require(c.orgId, param(c, idParam)) }),
    [`replace${noun}`]: (c) => {
      assertIfMatch(c.ifMatch, store(c.ctx).require(c.orgId, param(c, idParam)));
      return { body: store(c.ctx).replace(c.orgId, param(c, idParam), c.body as F) };
    },
    [`delete${noun}`]: (c) => {
      assertIfMatch(c.ifMatch, store(c.ctx).require(c.orgId, param(c, idParam)));
      store(c.ctx).delete(c.orgId, param(c, idParam));
      return {};
    },
  };
}

export const alertHandlers: HandlerMap = crudHandlers<AlertFields, { id: string }>("Alert", "alerts", "alertId", (ctx) => ctx.alerts);
export const reportHandlers: HandlerMap = crudHandlers<ReportFields, { id: string }>("Report", "reports", "reportId", (ctx) => ctx.reports);
