import { EventType, type z } from "@cloudcost/api/contract";
import { UsageError } from "../errors";
import { ClockChange, SpendInjection } from "../events/controls-contract";
import { choice, required, type Values } from "./arguments";

/**
 * The values of the event commands, checked by the same schemas as `/sandbox/v1` (one rule for both):
 * a value that breaks its rule is a UsageError (exit 2) naming the option, the rule and what was given.
 */
function parsed<S extends z.ZodType>(
  schema: S,
  input: unknown,
  option: (path: PropertyKey[]) => string,
  given: (path: PropertyKey[]) => string,
) {
  const result = schema.safeParse(input);
  if (result.success) return result.data as z.infer<S>;
  const issue = result.error.issues[0]!;
  throw new UsageError(`${option(issue.path)} ${issue.message}; got "${given(issue.path)}"`);
}

/** `clock set <ISO>`: an ISO 8601 date-time with a time zone. */
export function clockSet(text: string): ClockChange {
  return parsed(
    ClockChange,
    { now: text },
    () => "TIME",
    () => text,
  );
}

/** `clock advance <duration>`: a positive ISO 8601 duration (`P8D`, `PT1H`, `P1M`). */
export function clockAdvance(text: string): ClockChange {
  return parsed(
    ClockChange,
    { advance: text },
    () => "DURATION",
    () => text,
  );
}

/** The decimal forms a person types for an amount: `150`, `150.5`, `0.25` (no exponent, sign or grouping). */
const DECIMAL = /^\d+(\.\d+)?$/;

/** `spend add --account ID --service NAME --amount N`. */
export function spendInjection(values: Values): SpendInjection {
  const raw = { accountId: required(values, "account"), service: required(values, "service"), amount: required(values, "amount") };
  if (!DECIMAL.test(raw.amount)) throw new UsageError(`--amount must be a decimal number such as 150 or 99.95; got "${raw.amount}"`);
  const names: Record<string, string> = { accountId: "account", service: "service", amount: "amount" };
  const field = (path: PropertyKey[]) => String(path[0] ?? "amount");
  return parsed(
    SpendInjection,
    { ...raw, amount: Number(raw.amount) },
    (path) => `--${names[field(path)] ?? field(path)}`,
    (path) => raw[field(path) as keyof typeof raw] ?? "",
  );
}

/** `events list --type T`: one of the event types. */
export const eventType = (values: Values): EventType | undefined => choice(values, "type", EventType.options);
