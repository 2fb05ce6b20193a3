import { API_BASE_PATH, Member } from "@cloudcost/api/contract";
import { notFound } from "../errors";
import { fieldErrors } from "../validation";
import { assertIfMatch } from "../http/etag";
import { withoutWriting } from "../store/connection";
import type { ApiHandlers, Call } from "./handler";

/**
 * The member named by the path; an ID that cannot be an account of that provider cannot be a member either:
 * 404 naming `params.accountId`, like every other path parameter that fails its format.
 */
function pathMember({ params }: Call<"removeMember">): Member {
  const parsed = Member.safeParse({ provider: params.provider, accountId: params.accountId });
  if (!parsed.success)
    throw notFound(`${params.accountId} is not a member of Cloud Group ${params.groupId}.`, fieldErrors(parsed.error.issues, "params"));
  return parsed.data;
}

/** RFC 9110 §13.1.1: a change to a group honours `If-Match` against the group's current representation. */
function assertGroupMatches(c: Call<"updateGroup" | "deleteGroup" | "replaceMembers" | "removeMember">): void {
  assertIfMatch(c.ifMatch, () => c.ctx.groups.require(c.orgId, c.params.groupId));
}

/**
 * Issue 38, the dry-run of a whole group: the create (or the change of the group the query names) and then
 * the member set (when the draft has one), through the very handlers `POST /groups`, `PATCH /groups/{groupId}` and `PUT …/members`
 * run, all rolled back — so the answer is theirs (the first that fails), and nothing is written.
 */
function validateGroup(c: Call<"validateGroup">): void {
  const { members, ...fields } = c.body;
  const named = c.query.currentName === undefined ? undefined : c.ctx.groups.requireNamed(c.orgId, c.query.currentName).id;
  const target = c.query.groupId ?? named;
  const base = { ctx: c.ctx, orgId: c.orgId, query: undefined, ifMatch: undefined };
  withoutWriting(c.ctx.db, () => {
    const groupId =
      target === undefined
        ? groupHandlers.createGroup({ ...base, params: {}, body: fields }).body.id
        : groupHandlers.updateGroup({ ...base, params: { groupId: target }, body: fields }).body.id;
    if (members !== undefined) groupHandlers.replaceMembers({ ...base, params: { groupId }, body: { members } });
  });
}

export const groupHandlers = {
  listGroups: (c) => ({ body: c.ctx.groups.page(c.orgId, c.query) }),
  createGroup: (c) => {
    const group = c.ctx.groups.create(c.orgId, c.body, "api");
    return { body: group, location: `${API_BASE_PATH}/groups/${group.id}` };
  },
  getGroup: (c) => ({ body: c.ctx.groups.require(c.orgId, c.params.groupId) }),
  updateGroup: (c) => {
    assertGroupMatches(c);
    return { body: c.ctx.groups.update(c.orgId, c.params.groupId, c.body) };
  },
  deleteGroup: (c) => {
    assertGroupMatches(c);
    c.ctx.groups.delete(c.orgId, c.params.groupId);
    return {};
  },
  listMembers: (c) => ({ body: { items: c.ctx.groups.members(c.orgId, c.params.groupId) } }),
  replaceMembers: (c) => {
    assertGroupMatches(c);
    return { body: c.ctx.groups.replaceMembers(c.orgId, c.params.groupId, c.body.members) };
  },
  validateGroup: (c) => {
    validateGroup(c);
    return {};
  },
  addMember: (c) => ({ body: c.ctx.groups.addMember(c.orgId, c.params.groupId, c.body) }),
  removeMember: (c) => {
    assertGroupMatches(c);
    return { body: c.ctx.groups.removeMember(c.orgId, c.params.groupId, pathMember(c)) };
  },
} satisfies ApiHandlers;
