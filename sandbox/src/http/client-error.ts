import { PROBLEM_TYPE_BASE, type Problem } from "@cloudcost/api/contract";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { newId } from "../store/ids";
import { closeInStages, isClosingInStages } from "./early-answer";

/** What Node's HTTP parser raised, as a problem: the status a client caused and why. */
function describe(code: string | undefined): { status: number; slug: string; title: string; detail: string } {
  if (code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      slug: "headers-too-large",
      title: "Request header fields too large",
      detail: "The request line and headers exceed the server's limit (16 KiB).",
    };
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, slug: "request-timeout", title: "Request timeout", detail: "The request was not received completely in time." };
  return {
    status: 400,
    slug: "malformed-request",
    title: "Malformed request",
    detail: "The request is not valid HTTP/1.1 (request line, header syntax or message framing).",
  };
}

/**
 * Errors Node's HTTP parser raises before fastify sees a request (`clientError`: oversized headers, a
 * malformed request line or framing, a request that timed out) get the API's RFC 9457 shape with a
 * request ID, like every other error a client can cause. There is no request object yet, so the answer
 * is written to the socket directly, as Node's and fastify's defaults do, and the connection is closed in
 * stages, so a client still sending (the rest of its headers, a body) can read the answer.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // Node's parser stays failed: each further chunk of a connection already answered raises another error.
  if (isClosingInStages(socket)) return;
  const { status, slug, title, detail } = describe(error.code);
  const requestId = newId("req");
  const problem: Problem = { type: `${PROBLEM_TYPE_BASE}${slug}`, title, status, detail, requestId };
  const body = JSON.stringify(problem);
  // A response already under way on this connection cannot be replaced; only a fresh one may be written.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // A response still being produced would write after the half-close: that connection closes at once.
  if (inFlight || !socket.writable) socket.destroy(error);
  else closeInStages(socket);
}
