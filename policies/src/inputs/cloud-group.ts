import type { CloudGroupArgs } from "@cloudcost/pulumi";
import { AwsAccountId, AzureSubscriptionId, Member } from "@cloudcost/api";
import { Maybe, UNKNOWN, isString, optional, rawProperty, readList, readValue } from "./raw";

/** A Cloud Group's inputs as the policies judge them: members in the contract's canonical form. */
export interface GroupView {
  name: Maybe<string>;
  /** Every declared member in order (duplicates kept, so they can be reported); UNKNOWN when a list is. */
  members: Maybe<Maybe<Member>[]>;
  adoptId: Maybe<string | null>;
}

const field = (props: object, key: keyof CloudGroupArgs): unknown => rawProperty(props, key);

export function readGroup(props: object): GroupView {
  const azure = memberList(field(props, "azureSubscriptionIds"), readAzure);
  const aws = memberList(field(props, "awsAccountIds"), readAws);
  return {
    name: readValue(field(props, "name"), isString),
    members: azure === UNKNOWN || aws === UNKNOWN ? UNKNOWN : [...azure, ...aws],
    adoptId: optional<string | null>(field(props, "adoptId"), null, isString),
  };
}

function memberList(value: unknown, read: (v: unknown) => Maybe<Member>): Maybe<Maybe<Member>[]> {
  return value === undefined || value === null ? [] : readList(value, read);
}

/** Azure subscription IDs compare case-insensitively: the contract lower-cases them. */
function readAzure(value: unknown): Maybe<Member> {
  const parsed = AzureSubscriptionId.safeParse(value);
  return parsed.success ? { provider: "azure", accountId: parsed.data } : UNKNOWN;
}

function readAws(value: unknown): Maybe<Member> {
  const parsed = AwsAccountId.safeParse(value);
  return parsed.success ? { provider: "aws", accountId: parsed.data } : UNKNOWN;
}
