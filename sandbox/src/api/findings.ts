import type { FindingKind, PageQuery } from "@cloudcost/api";
import { param, type HandlerMap } from "./handler";

function findingHandlers(list: string, kind: FindingKind): HandlerMap {
  return {
    [`list${list}`]: (c) => ({ body: c.ctx.findings.pageOpen(c.orgId, kind, c.query as PageQuery) }),
    [`acknowledge${list}`]: (c) => ({ body: c.ctx.findings.acknowledge(c.orgId, kind, param(c, "findingId")) }),
  };
}

export const findingsHandlers: HandlerMap = {
  ...findingHandlers("Insights", "insight"),
  ...findingHandlers("Waste", "waste"),
  ...findingHandlers("Recommendations", "recommendation"),
};
