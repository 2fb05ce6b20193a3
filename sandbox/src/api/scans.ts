import { API_BASE_PATH } from "@cloudcost/api/contract";
import type { ApiHandlers } from "./handler";

export const scanHandlers = {
  startScan: (c) => {
    const run = c.ctx.scans.start(c.orgId);
    return { body: run, location: `${API_BASE_PATH}/scans/${run.runId}` };
  },
  listScans: (c) => ({ body: c.ctx.scans.page(c.orgId, c.query) }),
  getScan: (c) => ({ body: c.ctx.scans.require(c.orgId, c.params.runId) }),
} satisfies ApiHandlers;
