import { memberKey, z } from "@cloudcost/api";
import { UNKNOWN, knownElements } from "../inputs/raw";
import { StackGroup, StackView } from "./stack-view";
import { StackViolation, stackPolicy } from "./define";
import { composable } from "../compose";

export const ExclusiveMembershipConfig = z.object({});

/** Each account listed by more than one of the stack's groups, reported on the last group that lists it. */
export function checkExclusiveMembership(stack: StackView): StackViolation[] {
  const groupsOf = new Map<string, StackGroup[]>();
  for (const g of stack.groups) {
    if (g.group.members === UNKNOWN) continue;
    for (const m of new Set(knownElements(g.group.members).map(memberKey))) {
      const list = groupsOf.get(m);
      if (list) list.push(g);
      else groupsOf.set(m, [g]);
    }
  }
  return [...groupsOf]
    .filter(([, groups]) => groups.length > 1)
    .map(([member, groups]) => ({
      urn: groups[groups.length - 1]!.urn,
      message: `account ${member} is a member of the Cloud Groups ${groups.map((g) => `"${g.name}"`).join(", ")}, so its cost counts in each of their budgets: keep it in one group`,
    }));
}

export const cloudGroupExclusiveMembership = composable(
  stackPolicy({
    name: "cloud-group-exclusive-membership",
    description: "An account is a member of at most one Cloud Group in the stack.",
    enforcementLevel: "advisory",
    config: ExclusiveMembershipConfig,
    check: checkExclusiveMembership,
  }),
  ExclusiveMembershipConfig,
);
