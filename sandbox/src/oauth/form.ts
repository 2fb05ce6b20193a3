import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { OAuthFailure } from "../errors";
import { isRecord } from "../validation";

/** A form-encoded request body: each parameter at most once (RFC 6749 §3.1, §3.2). */
export type Form = Readonly<Record<string, string>>;

const FORM_TYPE = "application/x-www-form-urlencoded";

/** The body of an OAuth endpoint request, which must be form-encoded with no repeated parameter. */
export function readForm(request: FastifyRequest): Form {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const body = request.body;
  if (type !== FORM_TYPE || !isRecord(body)) {
    throw new OAuthFailure("invalid_request", `the request body must be ${FORM_TYPE}`);
  }
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== "string") throw new OAuthFailure("invalid_request", `parameter "${name}" must not be repeated`);
    // RFC 6749 §3.1: parameters sent without a value are treated as omitted.
    if (value !== "") form[name] = value;
  }
  return form;
}

/** Validates `params` against `schema`; the first problem becomes `invalid_request` naming the parameter. */
export function parseParams<T extends z.ZodType>(schema: T, params: Form): z.infer<T> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? "request");
  const problem = params[name] === undefined ? "is missing" : issue.message;
  throw new OAuthFailure("invalid_request", `"${name}" ${problem}`);
}
