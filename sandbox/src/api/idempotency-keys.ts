import type { ApiHandlers } from "./handler";

export const idempotencyKeyHandlers = {
  listIdempotencyKeys: (c) => ({ body: c.ctx.idempotencyKeys.page(c.orgId, c.query) }),
} satisfies ApiHandlers;
