import type { FastifyRequest } from "fastify";
import { isRecord } from "../validation";

/**
 * The fields of a submitted form. A POST may come without a body (the CSRF token can travel in a
 * header) or with a JSON body that is not an object: that is a form with no fields, never a crash.
 */
export function formFields(request: FastifyRequest): Readonly<Record<string, unknown>> {
  const body = request.body;
  return isRecord(body) ? body : {};
}
