import type { FastifyRequest } from "fastify";

/**
 * The fields of a submitted form. A POST may come without a body (the CSRF token can travel in a
 * header) or with a JSON body that is not an object: that is a form with no fields, never a crash.
 */
export function formFields(request: FastifyRequest): Readonly<Record<string, unknown>> {
  const body = request.body;
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
