import type { PageQuery } from "@cloudcost/api";
import { param, type HandlerMap } from "./handler";

export const scanHandlers: HandlerMap = {
  startScan: (c) => {
    const run = c.ctx.scans.start(c.orgId);
    return { body: run, location: `/api/v1/scans/${run.runId}` };
  },
  listScans: (c) => ({ body: c.ctx.scans.page(c.orgId, c.query as PageQuery) }),
  getScan: (c) => ({ body: c.ctx.scans.require(c.orgId, param(c, "runId")) }),
};
