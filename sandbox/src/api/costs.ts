import type { CostQuery } from "@cloudcost/api";
import type { HandlerMap } from "./handler";

const q = (query: unknown): CostQuery => query as CostQuery;

export const costHandlers: HandlerMap = {
  getCostSummary: (c) => ({ body: c.ctx.costs.summary(c.orgId, q(c.query)) }),
  getCostByService: (c) => ({ body: c.ctx.costs.byService(c.orgId, q(c.query)) }),
  getCostByDay: (c) => ({ body: c.ctx.costs.byDay(c.orgId, q(c.query)) }),
  getCostForecast: (c) => ({ body: c.ctx.costs.forecast(c.orgId, q(c.query)) }),
  getCostComparison: (c) => ({ body: c.ctx.costs.comparison(c.orgId, q(c.query)) }),
};
