import { ApiError, CloudCostClient, closeAllPools, MAX_REQUEST_BODY_BYTES, type RequestEvent } from "@cloudcost/api";
import { createServer, type AddressInfo } from "node:net";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

/** Records every HTTP attempt the client makes. */
function recorder() {
  const events: RequestEvent[] = [];
  return {
    events,
    onRequest: (e: RequestEvent) => events.push(e),
    count: (operation: string) => events.filter((e) => e.operation === operation).length,
  };
}

afterAll(() => closeAllPools());

describe("client against the sandbox", () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox();
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  it("authenticates with an API token and round-trips a group", async () => {
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
    const created = await client.createGroup({ name: "Round trip", description: "d" });
    expect(created.id).toMatch(/^grp_/);
    const withMembers = await client.replaceMembers(created.id, [{ provider: "aws", accountId: "111122223333" }]);
    expect(withMembers.members).toEqual([{ provider: "aws", accountId: "111122223333" }]);
    expect((await client.getGroup(created.id)).members).toHaveLength(1);
    await client.deleteGroup(created.id);
    await expect(client.getGroup(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("sends the caller's Idempotency-Key, and says when the answer is the first create's replayed", async () => {
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
    const replays: string[] = [];
    const create = (n: number) =>
      client.createGroup({ name: "Keyed once" }, { idempotencyKey: "client-keyed-create", onReplay: () => replays.push(`call ${n}`) });
    const first = await create(1);
    const again = await create(2);
    expect(again.id).toBe(first.id);
    expect(replays).toEqual(["call 2"]);
    const keys = [];
    for await (const record of client.listIdempotencyKeys("client-keyed-")) keys.push(record);
    expect(keys).toEqual([expect.objectContaining({ key: "client-keyed-create", resourceId: first.id, status: 201 })]);
  });

  it("keeps what the problem said: type, title, status, detail, instance and request id", async () => {
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
    const err = await client.getGroup("grp_0123456789abcdefghijkl").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 404,
      type: "https://cloudcost.dev/problems/not-found",
      title: "Not found",
      instance: "/api/v1/groups/grp_0123456789abcdefghijkl",
      requestId: expect.stringMatching(/^req_/),
      detail: expect.stringContaining("grp_0123456789abcdefghijkl"),
    });
  });

  it("a failed connection keeps what the transport threw as its cause", async () => {
    const client = new CloudCostClient({ baseUrl: "http://127.0.0.1:9/api/v1", auth: { apiToken: token }, retry: { maxAttempts: 1 } });
    const err = await client.getOrganization().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const { status, detail, cause } = err as ApiError;
    expect(status).toBe(0);
    // The detail summarises the cause; the cause itself is kept, not replaced.
    const { code, message } = cause as { code?: string; message?: string };
    expect(code ?? message).toBeTruthy();
    expect(detail).toContain(String(code ?? message));
  });

  it("follows nextCursor through every page", async () => {
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
    const names = ["Page a", "Page b", "Page c", "Page d", "Page e"];
    for (const name of names) await client.createGroup({ name });
    const rec = recorder();
    const paging = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token }, onRequest: rec.onRequest });
    const seen: string[] = [];
    for await (const g of paging.paginate("listGroups", 2)) seen.push(g.name);
    expect(seen).toEqual(expect.arrayContaining(names));
    expect(new Set(seen).size).toBe(seen.length);
    // One request per page of two; the server may or may not know that a full last page is the last.
    expect(rec.count("GET /groups")).toBeGreaterThanOrEqual(Math.ceil(seen.length / 2));
    expect(rec.count("GET /groups")).toBeLessThanOrEqual(Math.ceil(seen.length / 2) + 1);
  });

  it("turns a validation problem into an ApiError with field errors and the request id, without the token", async () => {
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
    const err = (await client
      .createAlert({ name: "x", amount: -5, currency: "USD", period: "monthly", thresholds: [{ percent: 100, basis: "actual" }] })
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([400, 422]).toContain(err.status);
    expect(err.errors?.map((f) => f.path)).toContain("body.amount");
    expect(err.requestId).toMatch(/^req_/);
    expect(err.message).toContain(err.requestId);
    expect(err.message).not.toContain(token);
  });

  it("sends a body over the 1 MiB limit once and reports the sandbox's 413 problem", async () => {
    const rec = recorder();
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token }, onRequest: rec.onRequest });
    const err = (await client
      .createGroup({ name: "Too big", description: "x".repeat(2 * MAX_REQUEST_BODY_BYTES) })
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 413, type: "https://cloudcost.dev/problems/payload-too-large", attempts: 1 });
    expect(rec.events.map((e) => e.status)).toEqual([413]);
  });

  it("reports a rejected API token as a 401 ApiError that does not echo the token", async () => {
    const revoked = await sandbox.token();
    expect((await sandbox.cli(["token", "revoke", "--org", "demo", revoked])).code).toBe(0);
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: revoked } });
    const err = (await client.getCostSummary({ from: "2026-10-01", to: "2026-10-31" }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(err.attempts).toBe(1);
    expect(err.message).not.toContain(revoked);
  });

  it("client credentials: one token request shared by concurrent calls", async () => {
    const oauth = await sandbox.client();
    const rec = recorder();
    const client = new CloudCostClient({
      baseUrl: sandbox.baseUrl,
      auth: { clientId: oauth.client_id, clientSecret: oauth.client_secret },
      onRequest: rec.onRequest,
    });
    await Promise.all(Array.from({ length: 8 }, () => client.getCostSummary({ from: "2026-10-01", to: "2026-10-31" })));
    await client.getCostByService({ from: "2026-10-01", to: "2026-10-31" });
    expect(rec.count("POST /oauth/token")).toBe(1);
    expect(rec.count("GET /cost/summary")).toBe(8);
  });

  it("client credentials: a deleted client fails with the OAuth error, not the secret", async () => {
    const oauth = await sandbox.client("read");
    const r = await sandbox.cli(["client", "delete", "--org", "demo", oauth.client_id]);
    expect(r.code).toBe(0);
    const client = new CloudCostClient({
      baseUrl: sandbox.baseUrl,
      auth: { clientId: oauth.client_id, clientSecret: oauth.client_secret },
    });
    const err = (await client
      .listAccounts()
      .next()
      .catch((e: unknown) => e)) as ApiError;
    expect(err.oauthError).toBe("invalid_client");
    expect(err.message).toContain("invalid_client");
    expect(err.message).not.toContain(oauth.client_secret);
  });
});

describe("client credentials with short-lived tokens (serve --token-ttl 2)", () => {
  let sandbox: RunningSandbox;
  let creds: { client_id: string; client_secret: string };
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--token-ttl", "2"] });
    creds = await sandbox.client("read");
  });
  afterAll(() => sandbox.dispose());
  afterEach(() => jest.restoreAllMocks());

  const summary = (c: CloudCostClient) => c.getCostSummary({ from: "2026-10-01", to: "2026-10-31" });

  // What each test asserts is what its second request does: the first one only fills the client's cache. (On a loaded
  // machine the first request can stall past the server's 2-s expiry and meet a 401 and a refresh of its own.)
  const after = (rec: ReturnType<typeof recorder>, from: number) => rec.events.slice(from).map((e) => `${e.operation} ${e.status}`);

  it("fetches a new token once the cached one is due to expire", async () => {
    const rec = recorder();
    const client = new CloudCostClient({
      baseUrl: sandbox.baseUrl,
      auth: { clientId: creds.client_id, clientSecret: creds.client_secret },
      onRequest: rec.onRequest,
    });
    await summary(client);
    const from = rec.events.length;
    // The client's clock 2.1 s ahead: past the renewal point of a 2-s token (90% of its lifetime), by the clock the
    // client decides with. The new token comes before the request, so the request never meets a 401.
    const now = Date.now.bind(Date);
    jest.spyOn(Date, "now").mockImplementation(() => now() + 2_100);
    await summary(client);
    expect(after(rec, from)).toEqual(["POST /oauth/token 200", "GET /cost/summary 200"]);
  });

  it("refreshes exactly once after a 401 for a token the client still believed valid", async () => {
    const rec = recorder();
    const client = new CloudCostClient({
      baseUrl: sandbox.baseUrl,
      auth: { clientId: creds.client_id, clientSecret: creds.client_secret },
      onRequest: rec.onRequest,
    });
    const issuedAt = Date.now();
    await summary(client);
    const from = rec.events.length;
    // At least 2.2 s after the cached token was issued, the server's token has expired; the client's clock is held
    // back so it still trusts its cache.
    await new Promise((r) => setTimeout(r, 2_200));
    jest.spyOn(Date, "now").mockReturnValue(issuedAt);
    await summary(client);
    expect(after(rec, from)).toEqual(["GET /cost/summary 401", "POST /oauth/token 200", "GET /cost/summary 200"]);
  });
});

describe("retries against injected faults", () => {
  it("a create retried after faults (reset-after included) never duplicates", async () => {
    const sandbox = await startSandbox({
      args: ["--faults", "0.4", "--fault-seed", "11", "--fault-kinds", "429,503,reset,reset-after", "--fault-latency-ms", "10"],
    });
    try {
      const rec = recorder();
      const client = new CloudCostClient({
        baseUrl: sandbox.baseUrl,
        auth: { apiToken: await sandbox.token() },
        retry: { maxAttempts: 8, baseDelayMs: 5, maxDelayMs: 20 },
        onRequest: rec.onRequest,
      });
      const names = Array.from({ length: 12 }, (_, i) => `Faulty ${i}`);
      for (const name of names) await client.createGroup({ name });
      const clean = new CloudCostClient({
        baseUrl: sandbox.baseUrl,
        auth: { apiToken: await sandbox.token() },
        retry: { maxAttempts: 8, baseDelayMs: 5 },
      });
      const all: string[] = [];
      for await (const g of clean.listGroups()) all.push(g.name);
      expect(all.filter((n) => n.startsWith("Faulty")).sort()).toEqual([...names].sort());
      expect(rec.events.filter((e) => e.operation === "POST /groups" && e.status !== 201).length).toBeGreaterThan(0);
    } finally {
      await sandbox.dispose();
    }
  });

  describe("every request answered 503", () => {
    let sandbox: RunningSandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ args: ["--faults", "1", "--fault-kinds", "503"] });
    });
    afterAll(() => sandbox.dispose());
    const client = () => new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: "ccpat_unused" }, retry: { maxAttempts: 2 } });

    it("retries an idempotent GET up to the attempt budget", async () => {
      const err = (await client()
        .getGroup("grp_0123456789")
        .catch((e: unknown) => e)) as ApiError;
      expect(err).toMatchObject({ status: 503, attempts: 2 });
      expect(err.requestId).toBeDefined();
    });
    it("retries a create, which carries an Idempotency-Key", async () => {
      await expect(client().createGroup({ name: "x" })).rejects.toMatchObject({ status: 503, attempts: 2 });
    });
    it("gives up at once when Retry-After is longer than the client will wait", async () => {
      const impatient = new CloudCostClient({
        baseUrl: sandbox.baseUrl,
        auth: { apiToken: "ccpat_unused" },
        retry: { maxAttempts: 5, maxRetryAfterMs: 500 },
      });
      await expect(impatient.getGroup("grp_0123456789")).rejects.toMatchObject({ status: 503, attempts: 1 });
    });
    it("retries the group PATCH, which sets absolute values", async () => {
      await expect(client().updateGroup("grp_0123456789", { name: "y" })).rejects.toMatchObject({ status: 503, attempts: 2 });
    });
  });

  it("retries a 429 for any method, honouring Retry-After, and gives up at the budget", async () => {
    const sandbox = await startSandbox({ args: ["--faults", "1", "--fault-kinds", "429"] });
    try {
      const rec = recorder();
      const client = new CloudCostClient({
        baseUrl: sandbox.baseUrl,
        auth: { apiToken: "ccpat_unused" },
        retry: { maxAttempts: 2 },
        onRequest: rec.onRequest,
      });
      await expect(client.updateGroup("grp_0123456789", { name: "y" })).rejects.toMatchObject({ status: 429, attempts: 2 });
      expect(rec.events.map((e) => e.status)).toEqual([429, 429]);
    } finally {
      await sandbox.dispose();
    }
  });

  it("bounds the time of each attempt", async () => {
    const sandbox = await startSandbox({ args: ["--faults", "1", "--fault-kinds", "latency", "--fault-latency-ms", "1500"] });
    try {
      const client = new CloudCostClient({
        baseUrl: sandbox.baseUrl,
        auth: { apiToken: "ccpat_unused" },
        timeoutMs: 200,
        retry: { maxAttempts: 2, baseDelayMs: 1 },
      });
      await expect(client.getGroup("grp_0123456789")).rejects.toMatchObject({ status: 0, title: "request timed out", attempts: 2 });
    } finally {
      // The timed-out requests' connections stay open until the late answers arrive and then idle in the
      // pool; the sandbox's graceful close would wait for them (about 10 s), so the client lets go first.
      await closeAllPools();
      await sandbox.dispose();
    }
  });

  it("does not retry a broken connection for a body over the limit, which no attempt can get accepted", async () => {
    // A server on 127.0.0.1 that resets every connection as soon as a request arrives.
    const resetter = createServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => resetter.listen(0, "127.0.0.1", resolve));
    try {
      const rec = recorder();
      const client = new CloudCostClient({
        baseUrl: `http://127.0.0.1:${(resetter.address() as AddressInfo).port}/api/v1`,
        auth: { apiToken: "ccpat_unused" },
        retry: { maxAttempts: 2, baseDelayMs: 1 },
        onRequest: rec.onRequest,
      });
      await expect(client.createGroup({ name: "small" })).rejects.toMatchObject({ status: 0, attempts: 2 });
      const big = { name: "big", description: "x".repeat(2 * MAX_REQUEST_BODY_BYTES) };
      await expect(client.createGroup(big)).rejects.toMatchObject({ status: 0, attempts: 1 });
      expect(rec.count("POST /groups")).toBe(3);
    } finally {
      await closeAllPools();
      await new Promise((resolve) => resetter.close(resolve));
    }
  });

  it("reports a refused connection after retrying idempotent calls", async () => {
    const client = new CloudCostClient({
      baseUrl: "http://127.0.0.1:9/api/v1",
      auth: { apiToken: "ccpat_unused" },
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const err = (await client.getGroup("grp_0123456789").catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ status: 0, title: "connection failed", attempts: 2 });
    expect(err.message).toContain("ECONNREFUSED");
  });
});
