import fc from "fast-check";
import { connect } from "node:net";
import { routeById, routes } from "@cloudcost/api";
import { startSandbox, RunningSandbox } from "../harness/sandbox";
import { send, WireRequest } from "./support/http";
import { orgApi, UNLIMITED } from "./support/orgs";
import { expectUnchanged, orgState } from "./support/org-state";
import { expectProblem } from "./support/problem";
import { OrgApi, requestBuilder } from "./support/route-requests";
import { FUZZ_RUNS } from "./support/soak";

/**
 * Wire-level fuzzing the per-endpoint body/query fuzz does not cover: the Authorization header, the
 * path identifiers and raw malformed HTTP. Bounded run counts; loopback only.
 */

/** Header-safe characters (fetch refuses control characters and anything above U+00FF). */
const headerChar = fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c));
const headerText = (maxLength: number) => fc.string({ unit: headerChar, maxLength });
function encodable(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}
/**
 * A path segment as sent on the wire: arbitrary text percent-encoded, the usual traversal/injection
 * suspects, and raw byte sequences that are not valid percent-encoding at all.
 */
const pathSegment = fc.oneof(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 80 }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 40 }).filter(encodable),
    fc.constantFrom("..", "grp_", "alr_' OR 1=1 --", "999999999999999999999", "-1", "null", "undefined", "__proto__", "constructor", "x".repeat(300)),
  ).map(encodeURIComponent),
  fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "%2e%2e", "%C0%AF", "%FF%FE"),
);

describe("wire fuzzing", () => {
  let sb: RunningSandbox;
  let org: OrgApi;
  /** One valid request per route, built once: every fuzzed variant must be refused, so they stay valid. */
  let requests: WireRequest[];

  beforeAll(async () => {
    sb = await startSandbox({ args: UNLIMITED });
    org = await orgApi(sb, "demo", "fuzz");
    requests = [];
    for (const route of routes) requests.push(await requestBuilder(route)(org));
  });
  afterAll(() => sb?.dispose());

  test("any Authorization header that is not a valid token gets 401 problem+json and changes nothing", async () => {
    const before = await orgState(sb.baseUrl, org.token);
    const authorization = fc.oneof(
      headerText(200),
      headerText(200).map((t) => `Bearer ${t}`),
      headerText(60).map((t) => `Bearer ${org.token.slice(0, 10)}${t}`),
      fc.constantFrom("Bearer", "bearer  ", `Bearer ${org.token} ${org.token}`, `Bearer\t${"A".repeat(9000)}`, `Token ${org.token}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...requests), authorization, async (req, header) => {
        const res = await send(sb.baseUrl, req, { authorization: header });
        // A header too big for the server's limit may be refused before routing (431); never a 5xx.
        if (res.status === 431) return;
        expectProblem(res, 401);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expectUnchanged(before, await orgState(sb.baseUrl, org.token));
  });

  test("any value in a path identifier gets a 4xx problem+json, never a 5xx", async () => {
    const withParams = routes.filter((r) => r.params !== undefined);
    const before = await orgState(sb.baseUrl, org.token);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withParams.map((r) => r.operationId)), pathSegment, fc.nat(), async (operationId, value, which) => {
        const route = routeById(operationId);
        const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        const target = names[which % names.length]!;
        const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === target ? value : name === "provider" ? "aws" : "grp_0000000000"));
        const res = await send(sb.baseUrl, { method: route.method, path, body: route.body ? {} : undefined }, { token: org.token });
        // 414: a segment over the router's length limit is refused before routing. 405: the client
        // resolves `..` segments (WHATWG URL), which can leave a path that exists for other methods.
        expect([400, 404, 405, 414]).toContain(res.status);
        expectProblem(res, res.status);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expectUnchanged(before, await orgState(sb.baseUrl, org.token));
  });

  test("malformed HTTP on a raw socket is answered or closed, and the server keeps serving", async () => {
    const port = Number(new URL(sb.origin).port);
    const garbage = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
      fc.constantFrom(
        "GET /api/v1/groups HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        "POST /api/v1/groups HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nzz\r\n",
        `POST /api/v1/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${"x".repeat(100)}\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{"a`,
        "GET /api/v1/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
        "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
      ).map((s) => Buffer.from(s, "latin1")),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (bytes) => {
        const answer = await rawExchange(port, bytes);
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
        if (status !== undefined) expect(Number(status)).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    const res = await send(sb.baseUrl, { method: "GET", path: "/groups" }, { token: org.token });
    expect(res.status).toBe(200);
  });
});

/** How long a half-closed connection may stay open with nothing more to say before it counts as hung. */
const RAW_IDLE_LIMIT_MS = 10_000;

/**
 * Writes `bytes`, half-closes, and collects whatever comes back until the server closes. A server that
 * keeps the connection open and silent fails the property (and the socket is destroyed, not leaked).
 */
function rawExchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(RAW_IDLE_LIMIT_MS, () => {
      socket.destroy();
      reject(new Error(`the server neither answered nor closed the connection (received so far: ${JSON.stringify(answer.slice(0, 200))})`));
    });
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    socket.on("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNRESET" || err.code === "EPIPE" ? resolve(answer) : reject(err)));
    socket.on("close", () => resolve(answer));
    socket.end(bytes);
  });
}
