import { Scope } from "@cloudcost/api";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors";

type Options = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | undefined>;

/** `--data DIR`, accepted by every command. */
const COMMON: Options = { data: { type: "string" } };

/** `node:util` parseArgs in strict mode; its errors become usage errors (exit 2). */
export function parse(
  args: readonly string[],
  options: Options,
  positionals: readonly string[],
): { values: Values; positionals: string[] } {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: { ...COMMON, ...options }, allowPositionals: true, strict: true }) as {
      values: Values;
      positionals: string[];
    };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split("\n")[0]! : String(error), { cause: error });
  }
  if (parsed.positionals.length !== positionals.length) {
    const wanted = positionals.length ? positionals.join(" ") : "no positional arguments";
    throw new UsageError(`expected ${wanted}, got ${parsed.positionals.length ? parsed.positionals.join(" ") : "none"}`);
  }
  return parsed;
}

/** The data folder: `--data`, else `CLOUDCOST_SANDBOX_DATA`, else `.sandbox/`. */
export function dataDir(values: Values): string {
  return string(values, "data") ?? process.env.CLOUDCOST_SANDBOX_DATA ?? ".sandbox";
}

export function string(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

export function required(values: Values, name: string): string {
  const v = string(values, name);
  if (v === undefined || v === "") throw new UsageError(`--${name} is required`);
  return v;
}

export function integer(values: Values, name: string, fallback: number, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  const v = string(values, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${v}"`);
  return Number(v);
}

export function fraction(values: Values, name: string): number | undefined {
  const v = string(values, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--${name} must be a number from 0 to 1, got "${v}"`);
  return n;
}

/** A comma-separated subset of `allowed`, e.g. `read,write`. */
export function list<T extends string>(values: Values, name: string, allowed: readonly T[]): T[] | undefined {
  const v = string(values, name);
  if (v === undefined) return undefined;
  const items = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = items.filter((s) => !allowed.includes(s as T));
  if (unknown.length || items.length === 0)
    throw new UsageError(`--${name} takes a comma-separated list of ${allowed.join(", ")}; got "${v}"`);
  return [...new Set(items)] as T[];
}

/** Exactly one of `allowed`, e.g. `--provider aws`; undefined when the option is absent. */
export function choice<T extends string>(values: Values, name: string, allowed: readonly T[]): T | undefined {
  const v = string(values, name);
  if (v === undefined) return undefined;
  if (!allowed.includes(v as T)) throw new UsageError(`--${name} takes one of ${allowed.join(", ")}; got "${v}"`);
  return v as T;
}

export const scopes = (values: Values, name = "scopes"): Scope[] | undefined => list(values, name, Scope.options);
