import type { FastifyInstance } from "fastify";

/**
 * The API accepts JSON bodies only (anything else is a 415). An empty body counts as no body, so a
 * client that always sends `Content-Type: application/json` can still call body-less POSTs
 * (`/scans`, `…/acknowledge`); malformed JSON is a 400 from fastify's own (prototype-poisoning safe) parser.
 */
export function acceptJsonOnly(api: FastifyInstance): void {
  const parseJson = api.getDefaultJsonParser("error", "error");
  api.removeAllContentTypeParsers();
  api.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text === "") return done(null, undefined);
    return parseJson(request, text, done);
  });
}
