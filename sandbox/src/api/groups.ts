import { Member, type CreateGroup, type PageQuery, type ReplaceMembers, type UpdateGroup } from "@cloudcost/api";
import { assertIfMatch } from "../http/etag";
import { notFound } from "../errors";
import { param, type Call, type HandlerMap } from "./handler";

const groupId = (c: Call): string => param(c, "groupId");

/** The member named by the path; an ID that cannot be an account of that provider cannot be a member either. */
function pathMember(c: Call): Member {
  const parsed = Member.safeParse({ provider: param(c, "provider"), accountId: param(c, "accountId") });
  if (!parsed.success) throw notFound(`${param(c, "accountId")} is not a member of Cloud Group ${groupId(c)}.`);
  return parsed.data;
}

export const groupHandlers: HandlerMap = {
  listGroups: (c) => ({ body: c.ctx.groups.page(c.orgId, c.query as PageQuery) }),
  createGroup: (c) => {
    const group = c.ctx.groups.create(c.orgId, c.body as CreateGroup, "api");
    return { body: group, location: `/api/v1/groups/${group.id}` };
  },
  getGroup: (c) => ({ body: c.ctx.groups.require(c.orgId, groupId(c)) }),
  updateGroup: (c) => {
    assertIfMatch(c.ifMatch, () => c.ctx.groups.require(c.orgId, groupId(c)));
    return { body: c.ctx.groups.update(c.orgId, groupId(c), c.body as UpdateGroup) };
  },
  deleteGroup: (c) => {
    assertIfMatch(c.ifMatch, () => c.ctx.groups.require(c.orgId, groupId(c)));
    c.ctx.groups.delete(c.orgId, groupId(c));
    return {};
  },
  listMembers: (c) => ({ body: { items: c.ctx.groups.members(c.orgId, groupId(c)) } }),
  replaceMembers: (c) => {
    assertIfMatch(c.ifMatch, () => c.ctx.groups.require(c.orgId, groupId(c)));
    return { body: c.ctx.groups.replaceMembers(c.orgId, groupId(c), (c.body as ReplaceMembers).members as Member[]) };
  },
  addMember: (c) => ({ body: c.ctx.groups.addMember(c.orgId, groupId(c), c.body as Member) }),
  removeMember: (c) => {
    assertIfMatch(c.ifMatch, () => c.ctx.groups.require(c.orgId, groupId(c)));
    return { body: c.ctx.groups.removeMember(c.orgId, groupId(c), pathMember(c)) };
  },
};
