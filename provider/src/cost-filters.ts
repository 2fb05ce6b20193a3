import type * as pulumi from "@pulumi/pulumi";

/** One tag condition: the key, and the values of it that match (a set). */
export interface TagFilterArgs {
  key: pulumi.Input<string>;
  values: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * What part of the spend a budget, report or cost read counts: every list is a set (order and duplicates
 * never cause a diff) and an empty list is the same as none. Lists narrow each other (AND); the values of
 * one list widen (OR).
 */
export interface CostFiltersArgs {
  /** Cloud providers, e.g. `["aws"]`. */
  providers?: pulumi.Input<pulumi.Input<string>[]>;
  /** Connected accounts: AWS account IDs, Azure subscription IDs (GUIDs compare case-insensitively). */
  accountIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Service names as the cost reads report them, e.g. `"Amazon EC2"`. */
  services?: pulumi.Input<pulumi.Input<string>[]>;
  /** Cloud regions, e.g. `"eu-west-1"`, `"westeurope"`. */
  regions?: pulumi.Input<pulumi.Input<string>[]>;
  /** Tag conditions (a set by key). */
  tags?: pulumi.Input<pulumi.Input<TagFilterArgs>[]>;
}

/** The filters as the service reports them (every list sorted; an empty filter reads back as none). */
export interface CostFiltersOutput {
  providers?: string[];
  accountIds?: string[];
  services?: string[];
  regions?: string[];
  tags?: { key: string; values: string[] }[];
}
