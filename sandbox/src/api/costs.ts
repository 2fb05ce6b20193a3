import type { ApiHandlers } from "./handler";

export const costHandlers = {
  getCostSummary: (c) => ({ body: c.ctx.costs.summary(c.orgId, c.query) }),
  getCostByService: (c) => ({ body: c.ctx.costs.byService(c.orgId, c.query) }),
  getCostByDay: (c) => ({ body: c.ctx.costs.byDay(c.orgId, c.query) }),
  getCostForecast: (c) => ({ body: c.ctx.costs.forecast(c.orgId, c.query) }),
  getCostComparison: (c) => ({ body: c.ctx.costs.comparison(c.orgId, c.query) }),
} satisfies ApiHandlers;
