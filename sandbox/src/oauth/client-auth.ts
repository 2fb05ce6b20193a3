import type { FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import type { ClientRecord } from "../identity/credentials";
import { OAuthFailure } from "../errors";
import type { Form } from "./form";

/** How the client identified itself (RFC 6749 §2.3): HTTP Basic, form fields, or only its ID (public client). */
interface Presented {
  clientId: string;
  secret: string | undefined;
}

/** RFC 6749 §2.3.1: ID and secret are form-urlencoded before they go into the Basic credentials. */
function decodeBasicPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch (error) {
    throw new OAuthFailure("invalid_client", "malformed HTTP Basic client credentials", { cause: error });
  }
}

function fromBasic(header: string): Presented {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  if (colon <= 0) throw new OAuthFailure("invalid_client", "malformed HTTP Basic client credentials");
  return { clientId: decodeBasicPart(decoded.slice(0, colon)), secret: decodeBasicPart(decoded.slice(colon + 1)) };
}

/** Reads the client's identification; a client must not use more than one method (RFC 6749 §2.3). */
function presentedClient(request: FastifyRequest, form: Form): Presented | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return form.client_id === undefined ? undefined : { clientId: form.client_id, secret: form.client_secret };
  if (form.client_secret !== undefined)
    throw new OAuthFailure("invalid_request", "use either HTTP Basic or client_secret in the body, not both");
  const basic = fromBasic(header);
  if (form.client_id !== undefined && form.client_id !== basic.clientId)
    throw new OAuthFailure("invalid_request", "client_id in the body differs from the HTTP Basic client");
  return basic;
}

/**
 * Authenticates a confidential client (secret compared in constant time) or identifies a public one
 * (ID only; PKCE stands in for the secret). Any failure is `invalid_client` and says nothing about
 * whether the client exists.
 */
export function authenticateClient(ctx: SandboxContext, request: FastifyRequest, form: Form): ClientRecord {
  const presented = presentedClient(request, form);
  if (!presented) throw new OAuthFailure("invalid_client", "client authentication is required");
  if (presented.secret !== undefined) {
    const client = ctx.credentials.authenticateClient(presented.clientId, presented.secret);
    if (!client) throw new OAuthFailure("invalid_client", "client authentication failed");
    return client;
  }
  const client = ctx.credentials.client(presented.clientId);
  if (!client || client.kind !== "public") throw new OAuthFailure("invalid_client", "client authentication failed");
  return client;
}

/** Like `authenticateClient`, but a request without any client identification yields undefined (RFC 7009 for API tokens). */
export function authenticateOptionalClient(ctx: SandboxContext, request: FastifyRequest, form: Form): ClientRecord | undefined {
  return presentedClient(request, form) === undefined ? undefined : authenticateClient(ctx, request, form);
}
