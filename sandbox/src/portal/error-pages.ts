import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../errors";
import { html } from "../web/html";
import { sendPage } from "../web/layout";

/** Portal errors are pages: a failed CSRF check explains itself, anything unexpected is logged and never shown. */
export function portalErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // A page for an object that is not (or no longer) there: the store's 404, shown as a page.
  if (error instanceof ServiceError && error.status === 404)
    return sendPage(reply, 404, "Not found", html`<p>${error.message}</p><p><a href="/portal/groups">Back to the portal</a></p>`);
  if (error.statusCode === 403)
    return sendPage(
      reply,
      403,
      "Form expired",
      html`<p class="error">The form has expired or did not come from this site (CSRF check failed). <a href="/portal/groups">Reload the portal</a> and try again.</p>`,
    );
  if (error.statusCode !== undefined && error.statusCode < 500)
    return sendPage(reply, error.statusCode, "Bad request", html`<p class="error">The request is malformed.</p>`);
  request.log.error({ err: error }, "portal page failed");
  return sendPage(
    reply,
    500,
    "Something went wrong",
    html`<p class="error">The sandbox could not show this page (request <code>${request.id}</code>). The details are in the sandbox's log, not here.</p>
<p><a href="/portal/groups">Back to the portal</a></p>`,
  );
}

/** A small icon, so browsers asking for `/favicon.ico` get one instead of a JSON problem (SVG is served as such). */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#12355b"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff" font-family="sans-serif">$</text></svg>`;

/**
 * The icon browsers ask for, and unknown portal paths as an HTML page, not problem+json: a wildcard route only matches what no page
 * route does (find-my-way prefers static and parametric routes), so the API's 404 handler stays the API's. A page's path with
 * another method is a 405 page with `Allow`. Both answer in `onRequest`, before fastify looks at a body (a `QUERY` without
 * Content-Type would otherwise be a 400).
 */
export function registerErrorPages(scope: FastifyInstance, allowedMethods: (path: string) => readonly string[]): void {
  const notAPage = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = allowedMethods(path);
    if (allowed.length)
      return sendPage(
        reply.header("allow", allowed.join(", ")),
        405,
        "Method not allowed",
        html`<p>The portal page <code>${path}</code> does not take ${request.method}; it takes ${allowed.join(", ")}.</p>
<p><a href="/portal/groups">Go to Cloud Groups</a>.</p>`,
      );
    return sendPage(
      reply,
      404,
      "Page not found",
      html`<p>There is no portal page at <code>${path}</code>.</p>
<p><a href="/portal/groups">Go to Cloud Groups</a> or <a href="/portal/sign-in">sign in</a>.</p>`,
    );
  };
  // The handler is the same answer, for completeness: `onRequest` has always answered already.
  scope.all("/portal/*", { onRequest: notAPage }, notAPage);
  scope.get("/favicon.ico", async (_request, reply) =>
    reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON),
  );
}
