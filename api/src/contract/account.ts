import { AwsAccountId, AzureSubscriptionId, Provider, page } from "./common";
import { z } from "./zod";

/** A cloud account connected to the organization; only these can be Cloud Group members. */
export const ConnectedAccount = z
  .object({
    provider: Provider,
    accountId: z.string().openapi({ description: "12-digit AWS account ID or lower-case Azure subscription GUID" }),
    name: z.string(),
  })
  .openapi("ConnectedAccount");
export type ConnectedAccount = z.infer<typeof ConnectedAccount>;
export const ConnectedAccountPage = page(ConnectedAccount, "ConnectedAccountPage");

/**
 * The organization the caller's credentials belong to. Clients record its id with what they create, so a
 * 404 later can be told apart from "these credentials see another organization" (every object is scoped
 * to one organization, and another organization's objects answer 404 too).
 */
export const Organization = z
  .object({
    id: z.string().openapi({ description: "stable identifier of the organization" }),
    name: z.string(),
  })
  .openapi("Organization");
export type Organization = z.infer<typeof Organization>;

/** A Cloud Group member: the account ID's format depends on the provider. */
export const Member = z
  .discriminatedUnion("provider", [
    z.object({ provider: z.literal("aws"), accountId: AwsAccountId }).strict(),
    z.object({ provider: z.literal("azure"), accountId: AzureSubscriptionId }).strict(),
  ])
  .openapi("Member");
export type Member = z.infer<typeof Member>;

/** Members are a set: ordered by provider then account ID, so equal sets compare equal. */
export function compareMembers(a: Member, b: Member): number {
  return a.provider === b.provider ? a.accountId.localeCompare(b.accountId) : a.provider.localeCompare(b.provider);
}
export function memberKey(m: Member): string {
  return `${m.provider}:${m.accountId}`;
}
