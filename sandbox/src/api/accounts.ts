import { Provider, type GlobalFilter } from "@cloudcost/api/contract";
import type { ApiHandlers } from "./handler";

export const accountHandlers = {
  getOrganization: (c) => {
    const org = c.ctx.orgs.byId(c.orgId);
    if (!org) throw new Error(`authenticated organization ${c.orgId} is missing`);
    return { body: { id: org.id, name: org.name } };
  },
  listAccounts: (c) => ({ body: c.ctx.accounts.page(c.orgId, c.query) }),
  /** Read from the stores on every call, so a group made through the API shows at once (spec rule 1). */
  getFilters: (c) => {
    const accounts = c.ctx.accounts.list(c.orgId);
    const providers = Provider.options.filter((p) => accounts.some((a) => a.provider === p));
    const groups = c.ctx.groups.list(c.orgId).map((g) => ({ id: g.id, name: g.name, source: g.source, memberCount: g.members.length }));
    const body: GlobalFilter = { groups, providers, accounts };
    return { body };
  },
} satisfies ApiHandlers;
