import { isDeepStrictEqual } from "node:util";
import { z } from "@cloudcost/api";

/*
 * JSON Schema (what zod's `toJSONSchema` makes of a contract schema) → Pulumi package schema types
 * (pulumi/pulumi pkg/codegen/schema/pulumi.json: `typeSpec`, `objectTypeSpec`). Pulumi types carry no
 * validation (lengths, patterns, ranges): Check validates with the contract itself and names the field.
 */

type Json = Record<string, unknown>;

/** A Pulumi `typeSpec`. */
export type TypeSpec =
  | { type: "string" | "number" | "integer" | "boolean" }
  | { type: "array"; items: TypeSpec }
  | { type: "object"; additionalProperties: TypeSpec }
  | { $ref: string };

export interface PropertySpec extends Record<string, unknown> {
  description?: string;
  secret?: boolean;
}

/** A Pulumi `complexTypeSpec` of type object. */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };

/** The JSON Schema of a zod schema, as its input (`io: "input"`: defaults make a field optional) or output. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
}

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const singular = (s: string): string => (s.endsWith("ies") ? `${s.slice(0, -3)}y` : s.endsWith("s") ? s.slice(0, -1) : s);

/** The object types met while converting, by token; an equal shape met twice is one type. */
export class TypeRegistry {
  readonly types: Record<string, ObjectTypeSpec> = {};

  constructor(private readonly pkg: string) {}

  /** The Pulumi type of a JSON Schema; `owner` names nested object types (`thresholds` → `Threshold`). */
  typeOf(js: Json, owner: string, property: string): TypeSpec {
    const variants = (js.anyOf ?? js.oneOf) as Json[] | undefined;
    if (variants) {
      const present = variants.filter((v) => v.type !== "null");
      if (present.length === 1) return this.typeOf(present[0]!, owner, property);
      if (present.every((v) => v.type === "object")) return this.object(mergedObjects(present), owner, property);
      return ANY;
    }
    const type = Array.isArray(js.type) ? (js.type as string[]).find((t) => t !== "null") : (js.type as string | undefined);
    switch (type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return { type };
      case "array":
        return { type: "array", items: js.items ? this.typeOf(js.items as Json, owner, singular(property)) : ANY };
      case "object":
        if (js.properties) return this.object(js, owner, property);
        return { type: "object", additionalProperties: ANY };
      default:
        return ANY;
    }
  }

  /** A nested object is a named type `<Owner><Property>` (`BudgetAlertThreshold`); an equal shape met again is reused. */
  private object(js: Json, owner: string, property: string): TypeSpec {
    const name = `${owner}${pascal(property)}`;
    const spec = this.objectSpec(js, name);
    const same = Object.entries(this.types).find(([, known]) => isDeepStrictEqual(known, spec));
    const token = same?.[0] ?? `${this.pkg}:index:${name}`;
    if (!same && this.types[token]) throw new Error(`two different object types are both named ${name}`);
    this.types[token] = spec;
    return { $ref: `#/types/${token}` };
  }

  /** An object type's properties and required list; `null`-only variant fields are left to the others. */
  objectSpec(js: Json, owner: string): ObjectTypeSpec {
    const properties: Record<string, PropertySpec> = {};
    for (const [key, value] of Object.entries((js.properties ?? {}) as Record<string, Json>)) {
      if (value.type === "null") continue;
      properties[key] = { ...this.typeOf(value, owner, key), ...allowedValues(value) };
    }
    const required = ((js.required ?? []) as string[]).filter(
      (k) => k in properties && !isNullable((js.properties as Record<string, Json>)[k]!),
    );
    return { type: "object", properties, ...(required.length ? { required } : {}) };
  }
}

/** Whether a JSON Schema admits null (a nullable field is never `required` in Pulumi's sense). */
export function isNullable(js: Json): boolean {
  if (js.type === "null") return true;
  if (Array.isArray(js.type) && js.type.includes("null")) return true;
  const variants = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  return variants?.some(isNullable) ?? false;
}

/**
 * The variants of a discriminated union (a report schedule: daily, weekly, monthly) as one object type:
 * every field of any variant, required only when every variant requires it. Check still enforces the
 * variant's own rules.
 */
function mergedObjects(variants: Json[]): Json {
  const properties: Record<string, Json> = {};
  for (const v of variants)
    for (const [key, value] of Object.entries((v.properties ?? {}) as Record<string, Json>)) {
      if (value.type === "null") continue;
      const seen = properties[key];
      // A discriminator (`frequency: "daily"` in one variant, "weekly" in the next) becomes the set of its values.
      const values = [...((seen?.enum as unknown[]) ?? []), ...(value.const !== undefined ? [value.const] : [])];
      properties[key] = seen && seen.type !== value.type ? {} : { ...value, ...(values.length ? { enum: values } : {}) };
    }
  const required = variants.map((v) => (v.required ?? []) as string[]).reduce((a, b) => a.filter((k) => b.includes(k) && k in properties));
  return { type: "object", properties, required };
}

/** The values an enum (or constant) allows, said in the description: Pulumi types here are plain strings. */
function allowedValues(js: Json): { description?: string } {
  const values = (js.enum ?? (js.const !== undefined ? [js.const] : undefined)) as unknown[] | undefined;
  return values ? { description: `one of ${values.map((v) => `\`${String(v)}\``).join(", ")}` } : {};
}
