import { AwsAccountId, AzureSubscriptionId, Scope, TrimmedName, type Provider } from "@cloudcost/api/contract";
import { resolve } from "node:path";
import { UsageError } from "../errors";

export type Values = Record<string, string | boolean | undefined>;

/** Where a command writes its lines (stdout in the CLI). */
export type Output = (line: string) => void;

/** Commander's option values (camelCase keys) under their command-line names, e.g. `expiresIn` → `expires-in`. */
export function toValues(opts: Record<string, unknown>): Values {
  const values: Values = {};
  for (const [key, value] of Object.entries(opts))
    if (typeof value === "string" || typeof value === "boolean") values[key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)] = value;
  return values;
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
    throw new UsageError(
      max === Number.MAX_SAFE_INTEGER
        ? `--${name} must be a whole number of at least ${min}, got "${v}"`
        : `--${name} must be a whole number from ${min} to ${max}, got "${v}"`,
    );
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

/**
 * Organization names are typed after `--org` on every command and shown in the portal: 1 to 64 letters,
 * digits, `.`, `_` or `-`, starting with a letter or digit, so they never need quoting in a shell.
 */
export function orgName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name))
    throw new UsageError(`NAME must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; got "${name}"`);
  return name;
}

const LABEL = TrimmedName(100);

/** A display name or label, with the API's rule for names (not blank, at most 100 characters once trimmed). */
export function label(values: Values, name: string): string | undefined {
  const v = string(values, name);
  if (v === undefined) return undefined;
  const parsed = LABEL.safeParse(v);
  if (!parsed.success) throw new UsageError(`--${name} must not be blank and at most 100 characters long; got "${v}"`);
  return parsed.data;
}

/** `--id`: the contract's account-ID rule for the provider (AWS: exactly 12 digits; Azure: a subscription GUID). */
export function accountId(provider: Provider, id: string): string {
  const parsed = (provider === "aws" ? AwsAccountId : AzureSubscriptionId).safeParse(id);
  if (!parsed.success) {
    const rule =
      provider === "aws" ? "exactly 12 digits, e.g. 123456789012" : "a subscription GUID, e.g. 0b1f6471-1bf0-4dda-aec3-cb9272f09590";
    throw new UsageError(`--id must be ${rule} for --provider ${provider}; got "${id}"`);
  }
  return parsed.data;
}

/** The data folder as an absolute path, for messages that name it. */
export const dataPath = (values: Values): string => resolve(dataDir(values));
