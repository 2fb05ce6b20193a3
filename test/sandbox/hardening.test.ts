import { Problem } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { alertBody, call, expectProblem, fields, type Reply } from "./api-client";
import { parseRaw, rawExchange, rawRequest } from "./raw-http";

/**
 * Regression tests of issue 14 ("what an attacker finds in minutes") for the REST API: each one is
 * a request an attacker or a careless client can send, and what they must see.
 */

const asReply = (r: { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: unknown }): Reply => ({
  status: r.status,
  headers: new Headers(
    Object.entries(r.headers).flatMap(([k, v]) =>
      v === undefined ? [] : [[k, ([] as string[]).concat(v).join(", ")] as [string, string]],
    ),
  ),
  body: r.json,
  text: r.text,
});

describe("sandbox hardening: the REST API", () => {
  let sb: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sb.token();
  });
  afterAll(() => sb?.dispose());

  describe("5. webhookUrl is judged by its parsed host", () => {
    test.each([
      "http://localhost:1@evil.example/hook",
      "http://127.0.0.1@evil.example/hook",
      "http://localhost.evil.example/hook",
      "http://127.0.0.1.nip.io/hook",
      "http://[::1].evil.example/",
      "ftp://localhost/hook",
      "javascript://localhost/%0aalert(1)",
    ])("%s is refused with a 400 naming body.webhookUrl, and nothing is created", async (webhookUrl) => {
      const before = (fields(await call(sb, "GET", "/alerts?limit=200", { token })).items as unknown[]).length;
      const r = await call(sb, "POST", "/alerts", { token, json: alertBody({ webhookUrl }) });
      expect([...new Set(expectProblem(r, 400).errors?.map((e) => e.path))]).toEqual(["body.webhookUrl"]);
      expect((fields(await call(sb, "GET", "/alerts?limit=200", { token })).items as unknown[]).length).toBe(before);
    });

    test.each([
      "https://hooks.example/x",
      "http://localhost:8080/hook",
      "http://127.0.0.1/hook",
      "http://[::1]:9000/hook",
      "http://LOCALHOST/hook",
    ])("%s is accepted", async (webhookUrl) => {
      const r = await call(sb, "POST", "/alerts", { token, json: alertBody({ webhookUrl }) });
      expect(r.status).toBe(201);
    });
  });

  describe("7. money has at most two decimal places", () => {
    test.each([0.000000001, 0.001, 12.345, 5000.005, 1e-7])("amount %p is a 400 on create and on replace", async (amount) => {
      const created = await call(sb, "POST", "/alerts", { token, json: alertBody({ amount }) });
      expect(expectProblem(created, 400).errors?.map((e) => e.path)).toEqual(["body.amount"]);
      const alert = fields(await call(sb, "POST", "/alerts", { token, json: alertBody() }));
      const replaced = await call(sb, "PUT", `/alerts/${String(alert.id)}`, { token, json: alertBody({ amount }) });
      expect(expectProblem(replaced, 400).errors?.map((e) => e.path)).toEqual(["body.amount"]);
      expect(fields(await call(sb, "GET", `/alerts/${String(alert.id)}`, { token })).amount).toBe(5000);
    });

    test.each([0.01, 12.34, 999999999999.99, 0.1 + 0.2])("amount %p is accepted", async (amount) => {
      expect((await call(sb, "POST", "/alerts", { token, json: alertBody({ amount }) })).status).toBe(201);
    });
  });

  describe("8. cursors are signed and bound to their list and organization", () => {
    let cursor: string;
    beforeAll(async () => {
      for (let i = 0; i < 3; i++) await call(sb, "POST", "/groups", { token, json: { name: `Cursor ${i}` } });
      cursor = String(fields(await call(sb, "GET", "/groups?limit=1", { token })).nextCursor);
    });

    const flip = (s: string, at: number) => `${s.slice(0, at)}${s[at] === "A" ? "B" : "A"}${s.slice(at + 1)}`;

    test("a cursor does not expose the old `list:row` text", () => {
      expect(Buffer.from(cursor.split(".")[0]!, "base64url").toString("latin1")).not.toMatch(/groups:/);
    });

    test.each([
      ["the old unsigned form for row 0", () => Buffer.from("groups:0").toString("base64url")],
      ["the old unsigned form for a far row", () => Buffer.from("groups:999999").toString("base64url")],
      ["a cursor with its position changed", () => `0${cursor}`],
      ["a cursor with its tag altered", () => flip(cursor, cursor.length - 3)],
      ["a cursor without its tag", () => cursor.split(".")[0]!],
    ])("%s is a 400 problem naming query.cursor", async (_name, forged) => {
      const r = await call(sb, "GET", `/groups?cursor=${encodeURIComponent(forged())}`, { token });
      expect(expectProblem(r, 400).errors?.map((e) => e.path)).toEqual(["query.cursor"]);
    });

    test("a cursor of another list is a 400", async () => {
      expect(expectProblem(await call(sb, "GET", `/alerts?cursor=${encodeURIComponent(cursor)}`, { token }), 400).errors?.[0]?.path).toBe(
        "query.cursor",
      );
      expect(expectProblem(await call(sb, "GET", `/accounts?cursor=${encodeURIComponent(cursor)}`, { token }), 400).errors?.[0]?.path).toBe(
        "query.cursor",
      );
    });

    test("another organization's cursor is a 400, even for the same list", async () => {
      await sb.cliJson(["org", "create", "cursor-other", "--json"]);
      const other = (await sb.cliJson<{ token: string }>(["token", "create", "--org", "cursor-other", "--json"])).token;
      for (let i = 0; i < 2; i++) await call(sb, "POST", "/groups", { token: other, json: { name: `Other ${i}` } });
      const otherCursor = String(fields(await call(sb, "GET", "/groups?limit=1", { token: other })).nextCursor);
      expect(
        expectProblem(await call(sb, "GET", `/groups?cursor=${encodeURIComponent(otherCursor)}`, { token }), 400).errors?.[0]?.path,
      ).toBe("query.cursor");
      expect(
        expectProblem(await call(sb, "GET", `/groups?cursor=${encodeURIComponent(cursor)}`, { token: other }), 400).errors?.[0]?.path,
      ).toBe("query.cursor");
    });

    test("a genuine cursor reads the next page", async () => {
      const next = await call(sb, "GET", `/groups?limit=1&cursor=${encodeURIComponent(cursor)}`, { token });
      expect(next.status).toBe(200);
    });
  });

  describe("6. DNS rebinding: only the hosts the sandbox is reachable as", () => {
    test.each(["attacker.example", "attacker.example:80", "localhost.attacker.example", "127.0.0.1.nip.io", "evil@127.0.0.1", "[::2]"])(
      "Host: %s gets 421 problem+json on every part of the origin",
      async (host) => {
        for (const path of [
          "/api/v1/groups",
          "/api/v1/openapi.json",
          "/.well-known/oauth-authorization-server",
          "/portal/sign-in",
          "/nope",
        ]) {
          const r = asReply(await rawRequest(sb.origin, "GET", path, { host, authorization: `Bearer ${token}` }));
          expectProblem(r, 421);
          expect(Problem.parse(r.body).requestId).toBe(r.headers.get("x-request-id"));
        }
      },
    );

    test("a rebinding request changes nothing", async () => {
      const before = (fields(await call(sb, "GET", "/groups?limit=200", { token })).items as unknown[]).length;
      const r = await rawRequest(
        sb.origin,
        "POST",
        "/api/v1/groups",
        { host: "attacker.example", authorization: `Bearer ${token}`, "content-type": "application/json" },
        JSON.stringify({ name: "Rebound" }),
      );
      expect(r.status).toBe(421);
      expect((fields(await call(sb, "GET", "/groups?limit=200", { token })).items as unknown[]).length).toBe(before);
    });

    test.each(["ftp://sandbox.test", "https://user@sandbox.test", "https://sandbox.test/path", "https://sandbox.test/?q", "not a url"])(
      "serve --public-url %s is a usage error (exit 2)",
      async (url) => {
        const r = await sb.cli(["serve", "--port", "0", "--public-url", url]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/^error: --public-url: .*must be an http or https origin/);
      },
    );

    test.each(["localhost", "LOCALHOST", "127.0.0.1", "[::1]"])("Host: %s:<port> is served", async (name) => {
      const r = await rawRequest(sb.origin, "GET", "/api/v1/groups", {
        host: `${name}:${new URL(sb.origin).port}`,
        authorization: `Bearer ${token}`,
      });
      expect(r.status).toBe(200);
    });
  });

  describe("9. errors raised by the framework or Node's parser are problem+json with a requestId", () => {
    test("oversized headers: 431", async () => {
      const r = asReply(
        await rawRequest(sb.origin, "GET", "/api/v1/groups", { authorization: `Bearer ${token}`, "x-padding": "a".repeat(20_000) }),
      );
      expect(expectProblem(r, 431).requestId).toMatch(/^req_/);
    });

    test.each([
      ["a malformed request line", "GET /api/v1/groups HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n"],
      ["a header without a colon", "GET /api/v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nbroken header\r\n\r\n"],
      [
        "both Content-Length and chunked",
        "POST /api/v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nzz\r\n",
      ],
      ["a negative Content-Length", "GET /api/v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n"],
      ["a control character in the path", "GET /api/v1/gr\x01oups HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"],
      [
        "a body cut short by the client (half-close)",
        'POST /api/v1/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
      ],
    ])("%s: 400", async (_name, bytes) => {
      const answer = parseRaw(await rawExchange(sb.origin, bytes));
      expect(answer.status).toBe(400);
      expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
      const problem = Problem.parse(JSON.parse(answer.body));
      expect(problem.status).toBe(400);
      expect(problem.requestId).toBe(answer.headers["x-request-id"]);
    });

    test.each([
      ["malformed JSON", "POST", "/groups", { raw: '{"name":', headers: { "content-type": "application/json" } }, 400],
      [
        "a JSON body with __proto__",
        "POST",
        "/groups",
        { raw: '{"__proto__":{"x":1},"name":"p"}', headers: { "content-type": "application/json" } },
        400,
      ],
      ["a form body", "POST", "/groups", { raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }, 415],
      [
        "a body over 1 MiB",
        "POST",
        "/groups",
        { raw: `{"name":"${"x".repeat(1_100_000)}"}`, headers: { "content-type": "application/json" } },
        413,
      ],
      ["an unknown route", "GET", "/nothing-here", {}, 404],
      ["another method on a known path", "PATCH", "/groups", {}, 405],
      ["malformed percent-encoding in a parameter", "GET", "/groups/%E0%A4%A", {}, 400],
      ["an unknown HTTP method", "PROPFIND", "/groups", {}, 405],
    ] as const)("%s is a problem with the request ID", async (_name, method, path, options, status) => {
      const r = await call(sb, method, path, { token, ...options });
      expect(expectProblem(r, status).requestId).toBe(r.headers.get("x-request-id"));
    });

    test("a 404 outside /api/v1 and the portal is a problem too", async () => {
      const r = await fetch(`${sb.origin}/robots.txt`);
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      Problem.parse(await r.json());
    });
  });
});

describe("sandbox hardening: 3. the rate limit is keyed on the authenticated identity", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--rate-limit", "4"] });
  });
  afterAll(() => sb?.dispose());

  test("respelling the same token's Authorization header does not start a fresh budget", async () => {
    const token = await sb.token();
    const spellings = [
      `Bearer ${token}`,
      `bearer ${token}`,
      `BEARER ${token}`,
      `Bearer  ${token}`,
      `Bearer ${token} `,
      `bEaReR   ${token}  `,
    ];
    const statuses: number[] = [];
    for (const authorization of spellings) statuses.push((await call(sb, "GET", "/groups", { headers: { authorization } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  test("two access tokens of one OAuth client share the client's budget", async () => {
    const client = await sb.client("read");
    const accessToken = async () => {
      const r = await fetch(`${sb.origin}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret }),
      });
      return String(((await r.json()) as Record<string, unknown>).access_token);
    };
    const [first, second] = [await accessToken(), await accessToken()];
    const statuses: number[] = [];
    for (const t of [first, first, second, second, second]) statuses.push((await call(sb, "GET", "/groups", { token: t })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  test("another API token has its own budget", async () => {
    expect((await call(sb, "GET", "/groups", { token: await sb.token() })).status).toBe(200);
  });
});
