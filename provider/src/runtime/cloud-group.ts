import { ApiError, AwsAccountId, AzureSubscriptionId, CreateGroup, GroupId, MAX_GROUP_MEMBERS, z } from "@cloudcost/api";
import type { CloudGroup, CloudCostClient, Member } from "@cloudcost/api";
import { nullsDropped, stringSet, type Props } from "./normalise";
import { comparedInputs, type ResourceSpec } from "./resource-spec";

/** Name and description as for `POST /groups`; members as the membership endpoint takes them, split by provider. */
const schema = CreateGroup.extend({
  azureSubscriptionIds: z.array(AzureSubscriptionId).default([]),
  awsAccountIds: z.array(AwsAccountId).default([]),
  adoptId: GroupId.optional(),
});
type Checked = z.output<typeof schema>;

const members = (c: Checked): Member[] => [
  ...c.awsAccountIds.map((accountId) => ({ provider: "aws" as const, accountId })),
  ...c.azureSubscriptionIds.map((accountId) => ({ provider: "azure" as const, accountId })),
];
const idsOf = (g: CloudGroup, provider: Member["provider"]) =>
  g.members
    .filter((m) => m.provider === provider)
    .map((m) => m.accountId)
    .sort();

function inputsOf(g: CloudGroup): Props {
  return { name: g.name, description: g.description, azureSubscriptionIds: idsOf(g, "azure"), awsAccountIds: idsOf(g, "aws") };
}

/**
 * Requests: create 1 (POST), or 2 with members (POST + PUT members); update 1 PATCH and/or 1 PUT members,
 * only for what changed; read 1; delete 1.
 */
export const cloudGroupSpec: ResourceSpec<Checked, CloudGroup> = {
  typeName: "CloudGroup",
  schema,
  diffKeys: comparedInputs(schema),
  // Names are unique in the organization: a create-before-delete replacement would be refused (409).
  uniqueOnService: true,
  normalise(props) {
    const p = nullsDropped(props);
    // Azure subscription IDs are GUIDs and compare case-insensitively; both lists are sets.
    return {
      ...p,
      azureSubscriptionIds: stringSet(p.azureSubscriptionIds ?? [], (s) => s.toLowerCase()),
      awsAccountIds: stringSet(p.awsAccountIds ?? []),
    };
  },
  crossFieldFailures(c) {
    const n = c.azureSubscriptionIds.length + c.awsAccountIds.length;
    return n > MAX_GROUP_MEMBERS
      ? [{ property: "azureSubscriptionIds", reason: `together with awsAccountIds, at most ${MAX_GROUP_MEMBERS} members (got ${n})` }]
      : [];
  },
  outputs: (g) => ({ ...inputsOf(g), source: g.source, createdAt: g.createdAt, updatedAt: g.updatedAt }),
  inputs: inputsOf,
  get: (client, id) => client.getGroup(id),
  list: (client, pageSize) => client.listGroups(pageSize),
  async create(client, c, options) {
    const group = await client.createGroup({ name: c.name, description: c.description }, options);
    if (members(c).length === 0) return group;
    try {
      return await client.replaceMembers(group.id, members(c));
    } catch (e) {
      // Create must be all or nothing: a group left without its members would not be in state.
      await client.deleteGroup(group.id).catch(() => undefined);
      throw e;
    }
  },
  async update(client: CloudCostClient, id, c, changed) {
    let live: CloudGroup | undefined;
    const renamed = changed.includes("name");
    if (renamed || changed.includes("description")) {
      live = await client.updateGroup(id, {
        ...(renamed ? { name: c.name } : {}),
        ...(changed.includes("description") ? { description: c.description } : {}),
      });
    }
    if (changed.includes("azureSubscriptionIds") || changed.includes("awsAccountIds")) live = await client.replaceMembers(id, members(c));
    return live;
  },
  remove: (client, id) => client.deleteGroup(id).then(() => undefined),
  /**
   * The create, or the change of the group that has the stored name now (Check knows the stored inputs, not
   * the id); the member set only when create or update would send it.
   */
  validate(client, c, { adoptId, olds, changed }) {
    const sendsMembers = olds === undefined || changed.includes("awsAccountIds") || changed.includes("azureSubscriptionIds");
    const of = adoptId !== undefined ? { groupId: adoptId } : olds !== undefined ? { currentName: String(olds.name) } : {};
    const answer = client.validateGroup({ name: c.name, description: c.description, ...(sendsMembers ? { members: members(c) } : {}) }, of);
    if (olds !== undefined || adoptId !== undefined) return answer;
    // A create without stored inputs may be a replacement (`--target-replace`, a recreate): the engine deletes the
    // old group first (deleteBeforeReplace), but at Check it still holds the name, and Check cannot tell the two
    // apart. A taken name of a create is left to `up`; a rename is judged.
    return answer.catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 409) return undefined;
      throw e;
    });
  },
  // `body.members.<i>…` is the i-th member sent: AWS accounts first, then Azure subscriptions (`members`).
  propertyOf(fieldPath, c) {
    const match = /^body\.members\.(\d+)/.exec(fieldPath);
    if (!match) return undefined;
    const i = Number(match[1]);
    return i < c.awsAccountIds.length ? `awsAccountIds[${i}]` : `azureSubscriptionIds[${i - c.awsAccountIds.length}]`;
  },
};
