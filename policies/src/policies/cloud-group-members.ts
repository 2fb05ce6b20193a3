import { CloudGroup } from "@cloudcost/pulumi";
import { memberKey, z } from "@cloudcost/api";
import { GroupView, readGroup } from "../inputs/cloud-group";
import { UNKNOWN, knownElements } from "../inputs/raw";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const MembersConfig = z.object({
  minMembers: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(1)
    .describe("Fewest distinct accounts (Azure subscriptions plus AWS accounts) a group must have."),
});
export type MembersConfig = z.output<typeof MembersConfig>;

const FIELD = { azure: "azureSubscriptionIds", aws: "awsAccountIds" } as const;

export function checkMembers(group: GroupView, config: MembersConfig): string[] {
  if (group.members === UNKNOWN) return [];
  const known = knownElements(group.members);
  const counts = new Map<string, number>();
  for (const m of known) counts.set(memberKey(m), (counts.get(memberKey(m)) ?? 0) + 1);
  const messages: string[] = [];
  if (known.length === group.members.length && counts.size < config.minMembers) {
    messages.push(
      `the group has ${counts.size} member(s) but needs at least ${config.minMembers}: add accounts to azureSubscriptionIds or awsAccountIds`,
    );
  }
  for (const m of known) {
    const n = counts.get(memberKey(m)) ?? 0;
    if (n > 1) {
      const caseNote = m.provider === "azure" ? " (subscription IDs compare case-insensitively)" : "";
      messages.push(`${m.accountId} is listed ${n} times in ${FIELD[m.provider]}${caseNote}: list it once`);
      counts.set(memberKey(m), 0);
    }
  }
  return messages;
}

export const cloudGroupMembers = composable(
  resourcePolicy(CloudGroup, {
    name: "cloud-group-members",
    description: "A Cloud Group has at least one member and lists no account twice.",
    enforcementLevel: "mandatory",
    config: MembersConfig,
    read: readGroup,
    check: checkMembers,
  }),
  MembersConfig,
);
