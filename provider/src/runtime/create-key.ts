import { createHash } from "node:crypto";
import { canonicalJson, type Props } from "./normalise";

/**
 * The `Idempotency-Key` of a logical create (issue 28), added to the checked inputs under {@link CREATE_KEY}:
 * derived, never drawn at random, so the `up` that follows an interrupted one sends the same key and the
 * service answers with the object the first attempt made instead of making a second.
 *
 *   key = "pulumi." + H(stack, project)[:16] + "." + H(URN, inputs)[:32]
 *
 * - The URN names the stack, the project and the resource, so two stacks of one program never share a key.
 * - The inputs are in it, so a create with other inputs is another create (and never a 422 for a key reused
 *   with another body). Secret inputs are left out: the key is stored and sent in plain text.
 * - The engine sends a create's inputs through a Check with no old inputs (a first create, one an interrupted
 *   `up` left pending, a replacement, a resource deleted and declared again: pulumi step_generator.go), so
 *   nothing else is known there. A resource deleted and declared again gets its first key again, which the
 *   service has forgotten with the deleted object (contract: `IdempotencyRecord`); a replacement decided by a
 *   diff has other inputs, hence another key. Only a `--target-replace` with unchanged inputs within the key's
 *   24 hours is answered with the object it replaces: handlers.ts then keeps that object instead of deleting it.
 * A resource already in state keeps the key it was created with (handlers.ts `keyFor`; Read gives it back from
 * the outputs), so its stored inputs never change because of it. The stack part is a fixed prefix, so
 * `cloudcost-pulumi pending` can list what one stack created (`GET /idempotency-keys?prefix=`).
 */
export const CREATE_KEY = "__createKey";

/** The program puts the resource's URN here (`pulumi.createUrn`); the native provider has it from the engine. */
export const URN_KEY = "__urn";

const hex = (text: string, length: number) => createHash("sha256").update(text).digest("hex").slice(0, length);

/** `urn:pulumi:<stack>::<project>::<type>::<name>` → its stack and project; undefined for anything else. */
export function stackOfUrn(urn: string): { stack: string; project: string } | undefined {
  const m = /^urn:pulumi:(.+?)::(.+?)::/.exec(urn);
  return m ? { stack: m[1]!, project: m[2]! } : undefined;
}

/** The prefix every create key of one stack begins with; undefined when `urn` is not a URN. */
export function stackKeyPrefix(urn: string): string | undefined {
  const of = stackOfUrn(urn);
  return of === undefined ? undefined : `pulumi.${hex(`${of.stack}::${of.project}`, 16)}.`;
}

/** The stack prefix a create key begins with (`pulumi.<16 hex>.`); undefined for a key of another form. */
export function prefixOfKey(key: string): string | undefined {
  return /^pulumi\.[0-9a-f]{16}\./.exec(key)?.[0];
}

/** The create key of the resource `urn` with these checked, non-secret inputs; undefined when `urn` is not a URN. */
export function createKey(urn: string, inputs: Props): string | undefined {
  const prefix = stackKeyPrefix(urn);
  return prefix === undefined ? undefined : prefix + hex(`${urn}\n${canonicalJson(inputs)}`, 32);
}
