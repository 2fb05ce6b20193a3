import { CloudGroupPage, Problem } from "@cloudcost/api";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call, expectProblem } from "./api-client";

describe("protocol errors and limits", () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  it("refuses a body over 1 MiB with a 413 problem", async () => {
    const r = await call(sandbox, "POST", "/groups", { token, json: { name: "Big", description: "x".repeat(1024 * 1024) } });
    expect(expectProblem(r, 413).detail).toContain("1 MiB");
  });

  it("answers malformed JSON with a 400 and a wrong content type with a 415", async () => {
    expectProblem(
      await call(sandbox, "POST", "/groups", { token, raw: '{"name": ', headers: { "content-type": "application/json" } }),
      400,
    );
    expectProblem(
      await call(sandbox, "POST", "/groups", { token, raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
    );
    expectProblem(await call(sandbox, "POST", "/groups", { token, raw: "x", headers: { "content-type": "text/plain" } }), 415);
  });

  it("answers a missing body with a 400 naming the body", async () => {
    const r = await call(sandbox, "POST", "/groups", { token });
    expect(expectProblem(r, 400).errors?.[0]?.path).toBe("body");
  });

  it("answers unknown routes with 404 and a wrong method with 405 and Allow", async () => {
    expectProblem(await call(sandbox, "GET", "/nothing-here", { token }), 404);
    const r = await call(sandbox, "PATCH", "/alerts", { token, json: {} });
    expectProblem(r, 405);
    expect(r.headers.get("allow")).toBe("GET, POST, HEAD");
  });

  it("puts the request ID in the X-Request-Id header and the problem body", async () => {
    const r = await call(sandbox, "GET", "/groups/grp_0000000000000000", { token });
    expect(expectProblem(r, 404).requestId).toBe(r.headers.get("x-request-id"));
  });
});

describe("rate limit", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "3"] });
  });
  afterAll(() => sandbox.dispose());

  it("answers the request over the per-token limit with 429, Retry-After and RateLimit headers; other tokens go on", async () => {
    const [token, other] = [await sandbox.token(), await sandbox.token()];
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await call(sandbox, "GET", "/groups", { token }));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(replies[0]!.headers.get("ratelimit-limit")).toBe("3");
    expect(replies[0]!.headers.get("ratelimit-remaining")).toBe("2");
    const limited = replies[3]!;
    expectProblem(limited, 429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect((await call(sandbox, "GET", "/groups", { token: other })).status).toBe(200);
    expect((await call(sandbox, "GET", "/openapi.json")).status).toBe(200);
  });
});

describe("fault injection (serve --faults)", () => {
  const groupNames = async (sandbox: RunningSandbox, token: string) =>
    CloudGroupPage.parse((await call(sandbox, "GET", "/groups?limit=200", { token })).body).items.map((g) => g.name);

  it("answers every request with the chosen fault before the handler runs, so nothing changes; the OpenAPI document is exempt", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-faults-"));
    try {
      const faulty = await startSandbox({ dataDir, args: ["--faults", "1", "--fault-kinds", "429,503"] });
      const token = await faulty.token();
      const statuses = [];
      for (let i = 0; i < 8; i++) {
        const r = await call(faulty, "POST", "/groups", { token, json: { name: `Faulted ${i}` } });
        expect(r.headers.get("retry-after")).toBe("1");
        Problem.parse(r.body);
        statuses.push(r.status);
      }
      expect(new Set(statuses)).toEqual(new Set([429, 503]));
      expect((await call(faulty, "GET", "/openapi.json")).status).toBe(200);
      await faulty.stop();
      const healthy = await startSandbox({ dataDir });
      expect(await groupNames(healthy, token)).toEqual(["Production"]);
      await healthy.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("injects the same faults for the same seed", async () => {
    const run = async () => {
      const s = await startSandbox({ args: ["--faults", "0.5", "--fault-seed", "42", "--fault-kinds", "503"] });
      const token = await s.token();
      const statuses = [];
      for (let i = 0; i < 16; i++) statuses.push((await call(s, "GET", "/accounts", { token })).status);
      await s.dispose();
      return statuses;
    };
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  it("resets the connection without a change (reset) or after committing it (reset-after)", async () => {
    const reset = await startSandbox({ args: ["--faults", "1", "--fault-kinds", "reset"] });
    const token = await reset.token();
    await expect(call(reset, "POST", "/groups", { token, json: { name: "Dropped" } })).rejects.toThrow();
    await reset.stop();
    const after = await startSandbox({ dataDir: reset.dataDir, args: ["--faults", "1", "--fault-kinds", "reset-after"] });
    await expect(call(after, "POST", "/groups", { token, json: { name: "Committed" } })).rejects.toThrow();
    await after.stop();
    const check = await startSandbox({ dataDir: reset.dataDir });
    expect(await groupNames(check, token)).toEqual(["Production", "Committed"]);
    await check.stop();
    await reset.dispose();
  });
});
