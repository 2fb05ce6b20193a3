import type { FastifyInstance } from "fastify";

/** A registered path as a pattern that matches its concrete paths (a trailing slash tolerated, as before). */
function patternOf(url: string): RegExp {
  const escaped = url
    .split("/")
    // A static segment's `::` is fastify's escape of a literal colon (`/groups:validate`, ../api/routes-plugin.ts).
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replaceAll("::", ":").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Every route the server registers (API, sandbox controls, OAuth and discovery, portal, `/`), recorded as
 * fastify adds it, so a known path with another method is a 405 with `Allow` (RFC 9110 §15.5.6) wherever
 * it is, and no list of paths has to be kept beside the routes. Catch-all routes (`/portal/*`) are not paths.
 */
export class RouteIndex {
  private readonly routes: { methods: readonly string[]; pattern: RegExp }[] = [];

  /** Starts recording `app`'s routes: call before any route is registered. */
  static recording(app: FastifyInstance): RouteIndex {
    const index = new RouteIndex();
    app.addHook("onRoute", (route) => index.add(route.method, route.url ?? route.path));
    return index;
  }

  private add(method: string | readonly string[], url: string): void {
    if (url.includes("*")) return;
    this.routes.push({ methods: typeof method === "string" ? [method] : method, pattern: patternOf(url) });
  }

  /** The methods served at `path`, in registration order, HEAD last wherever GET is; empty for an unknown path. */
  allowed(path: string): string[] {
    const methods = new Set(this.routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods));
    methods.delete("HEAD");
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  }
}
