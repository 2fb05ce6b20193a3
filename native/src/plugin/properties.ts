import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";

/*
 * Property values on the wire (pulumi/pulumi sdk/go/common/resource/plugin/rpc.go, MarshalProperties): a
 * google.protobuf.Struct in which a secret is an object with the signature key set to the secret signature
 * and the plain value under `value`, and a preview unknown is the string `04da6b54-…` (left as is: the
 * runtime recognises it). The plugin answers Configure with acceptSecrets, so secrets arrive marked; the
 * runtime sees plain values, and what goes back is marked again (see `marked`).
 */

export type Props = Record<string, unknown>;

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(v: unknown): v is { value?: unknown } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (v as Props)[SIG_KEY] === SECRET_SIG;
}

/** A plain value: every secret replaced by what it holds. */
export function unwrapped(value: unknown): unknown {
  if (isSecret(value)) return unwrapped(value.value);
  if (Array.isArray(value)) return value.map(unwrapped);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapped(v)]));
  return value;
}

function holdsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsSecret);
  return false;
}

/** The top-level keys whose value is or holds a secret. */
export function secretKeysOf(props: Props): string[] {
  return Object.keys(props).filter((k) => holdsSecret(props[k]));
}

export const secret = (value: unknown): Props => ({ [SIG_KEY]: SECRET_SIG, value });

/** PROPS with the values of KEYS marked secret (absent or null values stay as they are). */
export function marked(props: Props, keys: Iterable<string>): Props {
  const out = { ...props };
  for (const k of keys) if (out[k] !== undefined && out[k] !== null && !isSecret(out[k])) out[k] = secret(out[k]);
  return out;
}

/** A request's Struct as JavaScript, secrets kept marked. */
export function fromStruct(struct: Struct | undefined): Props {
  return (struct?.toJavaScript() ?? {}) as Props;
}

/** JavaScript as a Struct; undefined values are dropped (a Struct has no undefined). */
export function toStruct(props: Props): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(props)) as Record<string, JavaScriptValue>);
}
