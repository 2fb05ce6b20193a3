/*
 * Terraform's names for the contract's fields: the provider's attributes are the snake_case of the contract's
 * camelCase field names (`aws_account_ids` ⇄ `awsAccountIds`), nested objects included.
 */

export const camelCase = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const snakeCase = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every attribute name (at any depth) of VALUE's objects, as camelCase → snake_case. */
export function attributeNames(value: unknown, into = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) for (const v of value) attributeNames(v, into);
  else if (value !== null && typeof value === "object")
    for (const [key, v] of Object.entries(value)) {
      into.set(camelCase(key), key);
      attributeNames(v, into);
    }
  return into;
}

/**
 * A policy's message with every field name of the resource in Terraform's spelling (`plannedAmounts[0].amount`
 * → `planned_amounts[0].amount`), and a kind by its resource type (`BudgetAlert` → `cloudcost_budget_alert`), as NAMES
 * maps them. Only the resources' own attribute names are rewritten: a policy's
 * configuration properties (`maxMonthlyAmount.USD`) keep the names its configuration file uses.
 */
export function inTerraformNames(message: string, names: ReadonlyMap<string, string>): string {
  return message.replace(/\b[a-zA-Z][a-zA-Z0-9]*\b/g, (word) => names.get(word) ?? word);
}

/**
 * The attribute a message is about, as a Terraform path: the most specific path it names (`thresholds[1].recipients`,
 * `filters.tags[0].key`, `schedule.frequency`) — else the first top-level attribute it names — among TOP_LEVEL.
 */
export function attributeInMessage(message: string, topLevel: readonly string[]): string | undefined {
  const found: string[] = [];
  const path = /\b([a-z][a-z0-9_]*)((?:\[\d+\]|\.[a-z][a-z0-9_]*)*)/g;
  for (const m of message.matchAll(path)) if (topLevel.includes(m[1]!)) found.push(m[1]! + m[2]!);
  return found.find((p) => p.includes("[") || p.includes(".")) ?? found[0];
}
