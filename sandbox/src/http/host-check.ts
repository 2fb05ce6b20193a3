import { LOOPBACK_HOSTNAMES } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import { hostname, networkInterfaces } from "node:os";
import { ServiceError } from "../errors";
import { sendProblem } from "./problem";

/** A listen address that means "every interface". */
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/** `::1` → `[::1]`: how a Host header (and WHATWG `URL.hostname`) spells an IPv6 address. */
const asHostname = (address: string): string =>
  (address.includes(":") && !address.startsWith("[") ? `[${address}]` : address).toLowerCase();

/**
 * The host names the sandbox is reachable as: the loopback names, the address it listens on (for a
 * wildcard, every address of this machine's interfaces and its host name) and the host of `--public-url`.
 */
export function reachableHosts(listenHost: string, publicUrl: URL | undefined): Set<string> {
  const hosts = new Set([...LOOPBACK_HOSTNAMES, asHostname(listenHost)]);
  if (WILDCARDS.has(listenHost)) {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) hosts.add(asHostname(a.address));
    hosts.add(hostname().toLowerCase());
  }
  if (publicUrl) hosts.add(publicUrl.hostname.toLowerCase());
  return hosts;
}

/** `Host` = uri-host [":" port] (RFC 9110 §7.2): a bracketed IPv6 literal or a reg-name/IPv4, then an optional port. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{0,5})?$/;

/**
 * DNS-rebinding defence: a page on `attacker.example` whose name an attacker re-points at 127.0.0.1
 * reaches the sandbox with `Host: attacker.example`. Only the names the sandbox is reachable as are
 * served; any other Host is a 421 Misdirected Request (RFC 9110 §15.5.20) problem. A request without a
 * Host (HTTP/1.0) cannot come from a browser page, so it is served. `allowed` is read per request
 * because the listen address is known only once the server listens.
 */
export function registerHostCheck(app: FastifyInstance, allowed: () => ReadonlySet<string>): void {
  app.addHook("onRequest", async (request, reply) => {
    const host = request.headers.host;
    if (host === undefined) return;
    const name = HOST.exec(host)?.[1]?.toLowerCase();
    if (name !== undefined && allowed().has(name)) return;
    const shown = JSON.stringify(host.length > 100 ? `${host.slice(0, 100)}…` : host);
    const error = new ServiceError(
      421,
      "misdirected-request",
      "Misdirected request",
      `This sandbox does not answer to the host ${shown}; use the address it prints at start-up (or its --public-url).`,
    );
    return sendProblem(request, reply, error);
  });
}
