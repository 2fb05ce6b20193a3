import { BUDGET_ALERT_DEFAULTS, type BudgetAlertArgs } from "@cloudcost/pulumi";
import { AlertInput, BudgetPeriod, Email, Threshold } from "@cloudcost/api";
import { Maybe, UNKNOWN, isBoolean, isNumber, isOneOf, isString, optional, rawProperty, readList, readValue } from "./raw";

export type Period = BudgetPeriod;
export type AlertThreshold = Threshold;

/** What the contract (and so the provider's check) fills in when these are omitted. */
const DEFAULT_GROUP_ID = AlertInput.shape.groupId.parse(undefined);
const DEFAULT_ENABLED = AlertInput.shape.enabled.parse(undefined);

/** A budget alert's inputs as the policies judge them: defaults applied, e-mail addresses normalised. */
export interface AlertView {
  amount: Maybe<number>;
  currency: Maybe<string>;
  period: Maybe<Period>;
  /** null: organization-wide. */
  groupId: Maybe<string | null>;
  thresholds: Maybe<Maybe<AlertThreshold>[]>;
  recipients: Maybe<Maybe<string>[]>;
  enabled: Maybe<boolean>;
}

/** Field names are typed against the provider's args, so a renamed input fails to compile here. */
const field = (props: object, key: keyof BudgetAlertArgs): unknown => rawProperty(props, key);

export function readAlert(props: object): AlertView {
  const thresholds = field(props, "thresholds");
  const recipients = field(props, "recipients");
  return {
    amount: readValue(field(props, "amount"), isNumber),
    currency: optional(field(props, "currency"), BUDGET_ALERT_DEFAULTS.currency, isString),
    period: optional(field(props, "period"), BUDGET_ALERT_DEFAULTS.period, isOneOf(BudgetPeriod.options)),
    groupId: optional<string | null>(field(props, "groupId"), DEFAULT_GROUP_ID, isString),
    thresholds:
      thresholds === undefined || thresholds === null ? [...BUDGET_ALERT_DEFAULTS.thresholds] : readList(thresholds, readThreshold),
    recipients: recipients === undefined || recipients === null ? [] : readList(recipients, readEmail),
    enabled: optional(field(props, "enabled"), DEFAULT_ENABLED, isBoolean),
  };
}

function readThreshold(value: unknown): Maybe<AlertThreshold> {
  const parsed = Threshold.safeParse(value);
  return parsed.success ? parsed.data : UNKNOWN;
}

/** Addresses compare case-insensitively (the contract's `Email` trims and lower-cases). */
export function readEmail(value: unknown): Maybe<string> {
  const text = readValue(value, isString);
  if (text === UNKNOWN) return UNKNOWN;
  const parsed = Email.safeParse(text);
  return parsed.success ? parsed.data : UNKNOWN;
}
