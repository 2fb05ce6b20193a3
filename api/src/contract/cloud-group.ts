import { Member } from "./account";
import { ResourceId, Timestamp, TrimmedName, nameRule, page } from "./common";
import { z } from "./zod";

// Not a named component: a nullable reference renders as an unsatisfiable allOf in OpenAPI 3.1 output.
export const GroupId = ResourceId("grp").openapi({ example: "grp_01j9z6w3k2m4n5p6q7r8" });
export const GroupName = TrimmedName(100).openapi({
  description: `${nameRule(100)}; unique within the organization, case-insensitively`,
});
export const GroupDescription = z.string().max(500).openapi({ description: "at most 500 characters (Unicode code points)" });
export const MAX_GROUP_MEMBERS = 1000;

export const CloudGroup = z
  .object({
    id: GroupId,
    name: z.string(),
    description: z.string(),
    members: z.array(Member).openapi({ description: "sorted by provider, then account ID" }),
    source: z.enum(["api", "portal"]).openapi({ description: "where the group was created; it behaves the same either way (spec rule 1)" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("CloudGroup");
export type CloudGroup = z.infer<typeof CloudGroup>;
export const CloudGroupPage = page(CloudGroup, "CloudGroupPage");

/** Members are not part of create: the spec assigns them through the membership endpoints. */
export const CreateGroup = z
  .object({ name: GroupName, description: GroupDescription.default("") })
  .strict()
  .openapi("CreateGroup");
export type CreateGroup = z.input<typeof CreateGroup>;
export const UpdateGroup = z
  .object({ name: GroupName.optional(), description: GroupDescription.optional() })
  .strict()
  .refine((u) => u.name !== undefined || u.description !== undefined, "name or description is required")
  .openapi("UpdateGroup", { minProperties: 1, description: "at least one of `name` and `description`" });
export type UpdateGroup = z.input<typeof UpdateGroup>;

export const ReplaceMembers = z
  .object({ members: z.array(Member).max(MAX_GROUP_MEMBERS) })
  .strict()
  .openapi("ReplaceMembers");
export type ReplaceMembers = z.input<typeof ReplaceMembers>;
export const MemberList = z.object({ items: z.array(Member) }).openapi("MemberList");
export type MemberList = z.infer<typeof MemberList>;
