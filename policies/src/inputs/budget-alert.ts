import { BUDGET_ALERT_DEFAULTS, type BudgetAlert, type BudgetAlertArgs } from "@cloudcost/pulumi";
import { AlertInput, BudgetPeriod, Email, Threshold } from "@cloudcost/api";
import { FiltersView, readFilters } from "./cost-filters";
import { Maybe, UNKNOWN, isBoolean, isNumber, isOneOf, isString, optional, rawProperty, readList, readValue, unwrapSecret } from "./raw";

export type Period = BudgetPeriod;
/** A threshold as read (contract-parsed): a percent or (issue 27) an absolute amount, and its own recipients if routed. */
export type AlertThreshold = Pick<Threshold, "basis"> & { percent?: number; amount?: number; recipients?: string[] | null };

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
  filters: Maybe<FiltersView>;
  /** Amounts for given periods; an empty list (or none) is `[]`. */
  plannedAmounts: Maybe<Maybe<PlannedAmount>[]>;
  /** null: the amount is not set from history. */
  autoAdjust: Maybe<{ lookbackPeriods: number } | null>;
  /** The service's amount for the current period: an output (stack policies during `up`); null among inputs. */
  effectiveAmount: Maybe<number | null>;
}

export interface PlannedAmount {
  periodStart: string;
  amount: number;
}

/** An output of the class, not an input (typed against it so a rename fails to compile here). */
const EFFECTIVE_AMOUNT: keyof BudgetAlert = "effectiveAmount";

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
    filters: readFilters(field(props, "filters")),
    plannedAmounts: orEmpty(field(props, "plannedAmounts"), readPlannedAmount),
    autoAdjust: readAutoAdjust(field(props, "autoAdjust")),
    effectiveAmount: optional<number | null>(rawProperty(props, EFFECTIVE_AMOUNT), null, isNumber),
  };
}

/** A list input where absent and null mean `[]` (as in the provider's check). */
function orEmpty<T>(value: unknown, readElement: (e: unknown) => Maybe<T>): Maybe<Maybe<T>[]> {
  return value === undefined || value === null ? [] : readList(value, readElement);
}

function readPlannedAmount(value: unknown): Maybe<PlannedAmount> {
  const plain = unwrapSecret(value);
  if (plain === null || typeof plain !== "object") return UNKNOWN;
  const periodStart = readValue(rawProperty(plain, "periodStart"), isString);
  const amount = readValue(rawProperty(plain, "amount"), isNumber);
  return periodStart === UNKNOWN || amount === UNKNOWN ? UNKNOWN : { periodStart, amount };
}

function readAutoAdjust(value: unknown): Maybe<{ lookbackPeriods: number } | null> {
  const plain = unwrapSecret(value);
  if (plain === undefined || plain === null) return null;
  if (typeof plain !== "object") return UNKNOWN;
  const lookbackPeriods = readValue(rawProperty(plain, "lookbackPeriods"), isNumber);
  return lookbackPeriods === UNKNOWN ? UNKNOWN : { lookbackPeriods };
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
