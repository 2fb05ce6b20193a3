import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The committed document (test/sandbox/openapi.test.ts proves it equals the generated and the served one). */
export const DOCUMENT_PATH = join(__dirname, "..", "..", "..", "api", "openapi.json");

type Json = Record<string, unknown>;
interface ResponseSpec {
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
export interface Operation {
  operationId: string;
  method: string;
  /** Path template, e.g. `/groups/{groupId}`. */
  path: string;
  /** The server URL the operation is served at (`/api/v1`, or `/` for the OAuth endpoints). */
  base: string;
  /** Whether the operation needs a bearer token. */
  secured: boolean;
  responses: Record<string, ResponseSpec>;
  regex: RegExp;
}

export interface Contract {
  document: Json;
  operations: Operation[];
  /** The operation a request resolves to, by method and path relative to its base. */
  resolve(method: string, path: string): Operation | undefined;
  /** Ajv 2020 validation of `body` against the documented schema; the error text, or undefined when valid. */
  bodyError(op: Operation, status: number, mediaType: string, body: unknown): string | undefined;
  /** The same for a response header's value against its component (`#/components/headers/<name>`). */
  headerError(name: string, value: string): string | undefined;
}

const METHODS = ["get", "put", "post", "patch", "delete"];

/** Loads the document and indexes its operations; a path template becomes an anchored pattern. */
export function loadContract(): Contract {
  const document = JSON.parse(readFileSync(DOCUMENT_PATH, "utf8")) as Json;
  const defaultBase = ((document.servers as { url: string }[])[0] ?? { url: "/" }).url;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as
        | (Json & { servers?: { url: string }[]; security?: unknown[]; operationId: string; responses: Record<string, ResponseSpec> })
        | undefined;
      if (!op) continue;
      const security = op.security ?? (document.security as unknown[] | undefined) ?? [];
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        base: op.servers?.[0]?.url ?? defaultBase,
        secured: security.length > 0,
        responses: op.responses,
        regex: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
      });
    }
  }
  // Ajv knows nothing of OpenAPI; `strict: false` lets it skip `example` and `discriminator`. Money is
  // `multipleOf: 0.01`, which needs a decimal comparison (1.15 / 0.01 is not an integer in binary).
  const ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 9 });
  addFormats(ajv);
  ajv.addSchema(document, "openapi.json");
  const validators = new Map<string, ValidateFunction>();
  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  const check = (ref: string, value: unknown): string | undefined => {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
  return {
    document,
    operations,
    resolve: (method, path) => operations.find((o) => o.method === method && o.regex.test(path)),
    bodyError(op, status, mediaType, body) {
      return check(
        `openapi.json#/${pointer("paths", op.path, op.method.toLowerCase(), "responses", String(status), "content", mediaType, "schema")}`,
        body,
      );
    },
    headerError(name, value) {
      const schema = ((document.components as Json).headers as Record<string, { schema: { type: string } }>)[name]?.schema;
      if (!schema) return `no header component ${name}`;
      // A header is text; an integer header must be digits (RFC 9110 §5.5 field values carry no JSON types).
      const typed = schema.type === "integer" && /^\d+$/.test(value) ? Number(value) : value;
      return check(`openapi.json#/${pointer("components", "headers", name, "schema")}`, typed);
    },
  };
}
