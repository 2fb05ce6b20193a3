import { request as undiciRequest } from "undici";
import type { Contract, Operation } from "./contract";
import { violations, type Violation } from "./prism";

/** Headers of the transport (RFC 9110 §7.6.1, §8.6, §6.6.1), not of the API: never declared. */
const TRANSPORT = new Set(["content-type", "content-length", "date", "connection", "keep-alive", "transfer-encoding"]);
/** Headers Prism adds to what it forwards (CORS for its own mock server, and its report). */
const ADDED_BY_PRISM = /^(access-control-|sl-violations$)/;

/** Whether the request is meant to break the document: then Prism must say so (the rule is in the schema). */
export type RequestIntent = "valid" | "invalid" | "unchecked";

export interface Request {
  method: string;
  /** Path relative to the operation's base, with the query. */
  path: string;
  token?: string;
  json?: unknown;
  /** A raw body; give its `content-type` in `headers`. */
  raw?: string;
  headers?: Record<string, string>;
  /** A `Host` other than the target's (fetch always sends the target's own): sent directly, without Prism. */
  host?: string;
  /**
   * `valid` (default): no request-side violation allowed. `invalid`: the request breaks a rule the
   * document states, and Prism must report it. `unchecked`: what Prism cannot judge (credentials).
   */
  intent?: RequestIntent;
  /** `prism` (default) or `direct`, for what Prism cannot forward (oversized headers, redirects, bad JSON). */
  via?: "prism" | "direct";
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

interface Exchange {
  operation: Operation;
  request: Request;
  status: number;
  headerNames: string[];
  problems: string[];
}

/** Where requests go: a Prism proxy per server base, and the servers themselves. */
export interface Targets {
  prism: ReadonlyMap<string, string>;
  direct: ReadonlyMap<string, string>;
}

/** One exchange through undici's own `request`, which sends the `Host` it is given, as a fetch Response. */
async function withHost(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const answer = await undiciRequest(url, { method, headers, body });
  const names = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) names.append(name, v);
  return new Response(answer.statusCode === 204 ? null : await answer.body.text(), { status: answer.statusCode, headers: names });
}

const mediaType = (headers: Headers): string | undefined => headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();

/**
 * Sends requests through Prism (or directly) and records every exchange with what is wrong with it as
 * far as the document is concerned: Prism's violations, a status the operation does not document, a
 * header it does not declare, a body of an undocumented media type, a body its schema (Ajv) rejects.
 */
export class ExchangeLog {
  private readonly exchanges: Exchange[] = [];

  constructor(
    private readonly contract: Contract,
    private readonly targets: Targets,
  ) {}

  async send(request: Request, targets: Targets = this.targets): Promise<Reply> {
    const path = request.path.split("?")[0]!;
    const operation = this.contract.resolve(request.method, path);
    if (!operation) throw new Error(`${request.method} ${path} is no operation of the document`);
    const via = request.via ?? "prism";
    const base = (via === "prism" ? targets.prism : targets.direct).get(operation.base);
    if (!base) throw new Error(`no ${via} target for ${operation.base}`);
    const headers: Record<string, string> = { ...request.headers };
    if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
    let body = request.raw;
    if (request.json !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(request.json);
    }
    const response =
      request.host === undefined
        ? await fetch(`${base}${request.path}`, { method: request.method, headers, body, redirect: "manual" })
        : await withHost(`${base}${request.path}`, request.method, { ...headers, host: request.host }, body);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const reply: Reply = { status: response.status, headers: response.headers, text, body: parsed };
    this.record(operation, request, reply, via === "prism" ? violations(response.headers) : []);
    return reply;
  }

  private record(operation: Operation, request: Request, reply: Reply, found: Violation[]): void {
    const problems: string[] = [];
    const spec = operation.responses[String(reply.status)];
    const intent = request.intent ?? "valid";
    const requestSide = found.filter((v) => v.location[0] === "request");
    for (const v of found.filter((x) => x.location[0] !== "request")) problems.push(`Prism: ${v.location.join(".")}: ${v.message}`);
    if (intent === "valid")
      for (const v of requestSide) problems.push(`Prism (request meant to be valid): ${v.location.join(".")}: ${v.message}`);
    if (intent === "invalid" && (request.via ?? "prism") === "prism" && requestSide.length === 0)
      problems.push("Prism found nothing wrong with a request that breaks the document");
    const headerNames = [...reply.headers.keys()].map((h) => h.toLowerCase()).filter((h) => !TRANSPORT.has(h) && !ADDED_BY_PRISM.test(h));
    if (!spec) {
      problems.push(`status ${reply.status} is not documented (documented: ${Object.keys(operation.responses).join(", ")})`);
    } else {
      const declared = new Map(Object.keys(spec.headers ?? {}).map((h) => [h.toLowerCase(), h]));
      for (const h of headerNames) {
        const name = declared.get(h);
        if (!name) problems.push(`header ${h} is not declared for ${reply.status}`);
        else {
          const error = this.contract.headerError(name, reply.headers.get(h)!);
          if (error) problems.push(`header ${name} does not match its schema (Ajv): ${error}`);
        }
      }
      const type = mediaType(reply.headers);
      const content = spec.content ?? {};
      if (reply.text === "") {
        if (Object.keys(content).length) problems.push(`no body, but ${reply.status} documents ${Object.keys(content).join(", ")}`);
      } else if (type === undefined || !(type in content)) {
        problems.push(
          `media type ${type} is not documented for ${reply.status} (documented: ${Object.keys(content).join(", ") || "no body"})`,
        );
      } else if (type.endsWith("json")) {
        const error = this.contract.bodyError(operation, reply.status, type, reply.body);
        if (error) problems.push(`body does not match its schema (Ajv): ${error}`);
      }
    }
    this.exchanges.push({ operation, request, status: reply.status, headerNames, problems });
  }

  /** Every exchange that broke the document, described. */
  failures(): string[] {
    return this.exchanges
      .filter((e) => e.problems.length)
      .map((e) => `${e.operation.operationId} ${e.request.method} ${e.request.path} → ${e.status}:\n  ${e.problems.join("\n  ")}`);
  }

  /** Operations of the document never answered with a success. */
  operationsWithoutSuccess(): string[] {
    const succeeded = new Set(this.exchanges.filter((e) => e.status < 300 || e.status === 302).map((e) => e.operation.operationId));
    return this.contract.operations.filter((o) => !succeeded.has(o.operationId)).map((o) => o.operationId);
  }

  /** Documented statuses no exchange produced: a status nobody can cause should not be documented. */
  statusesNeverSeen(): string[] {
    const seen = new Set(this.exchanges.map((e) => `${e.operation.operationId} ${e.status}`));
    return this.contract.operations
      .flatMap((o) => Object.keys(o.responses).map((s) => `${o.operationId} ${s}`))
      .filter((k) => !seen.has(k));
  }

  /** Declared headers never sent with their response (over every exchange of that operation and status). */
  headersNeverSent(): string[] {
    const sent = new Map<string, Set<string>>();
    for (const e of this.exchanges) {
      const key = `${e.operation.operationId} ${e.status}`;
      const names = sent.get(key) ?? new Set<string>();
      e.headerNames.forEach((h) => names.add(h));
      sent.set(key, names);
    }
    const missing: string[] = [];
    for (const [key, names] of sent) {
      const [id, status] = key.split(" ") as [string, string];
      const op = this.contract.operations.find((o) => o.operationId === id)!;
      for (const h of Object.keys(op.responses[status]?.headers ?? {})) if (!names.has(h.toLowerCase())) missing.push(`${key}: ${h}`);
    }
    return missing;
  }
}
