import type { ApiHandlers } from "./handler";

// Each read counts what its query's group and filters name (issue 27); filters the organization cannot evaluate are a 422.
export const costHandlers = {
  getCostSummary: (c) => ({ body: c.ctx.costs.summary(c.orgId, c.query, c.ctx.costs.queryTarget(c.orgId, c.query)) }),
  getCostByService: (c) => ({ body: c.ctx.costs.byService(c.orgId, c.query, c.ctx.costs.queryTarget(c.orgId, c.query)) }),
  getCostByDay: (c) => ({ body: c.ctx.costs.byDay(c.orgId, c.query, c.ctx.costs.queryTarget(c.orgId, c.query)) }),
  getCostForecast: (c) => ({ body: c.ctx.costs.forecast(c.orgId, c.query, c.ctx.costs.queryTarget(c.orgId, c.query)) }),
  getCostComparison: (c) => ({ body: c.ctx.costs.comparison(c.orgId, c.query, c.ctx.costs.queryTarget(c.orgId, c.query)) }),
} satisfies ApiHandlers;
