import type { ApiHandlers } from "./handler";

export const findingsHandlers = {
  listInsights: (c) => ({ body: c.ctx.findings.pageOpen(c.orgId, "insight", c.query) }),
  acknowledgeInsights: (c) => ({ body: c.ctx.findings.acknowledge(c.orgId, "insight", c.params.findingId) }),
  listWaste: (c) => ({ body: c.ctx.findings.pageOpen(c.orgId, "waste", c.query) }),
  acknowledgeWaste: (c) => ({ body: c.ctx.findings.acknowledge(c.orgId, "waste", c.params.findingId) }),
  listRecommendations: (c) => ({ body: c.ctx.findings.pageOpen(c.orgId, "recommendation", c.query) }),
  acknowledgeRecommendations: (c) => ({ body: c.ctx.findings.acknowledge(c.orgId, "recommendation", c.params.findingId) }),
} satisfies ApiHandlers;
