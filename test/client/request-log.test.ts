/**
 * The client's request log (issue 38): one entry per HTTP attempt, token requests included, with method, path,
 * query, status, request id, attempt, the wait before a retry, replay and the page of a listing — and nothing
 * from a header or a body. Against the real sandbox (with injected faults for the retries).
 */
import { CloudCostClient, closeAllPools, requestLogLine, type RequestLogEntry } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

afterAll(() => closeAllPools());

function logged(): { entries: RequestLogEntry[]; requestLog: (e: RequestLogEntry) => void } {
  const entries: RequestLogEntry[] = [];
  return { entries, requestLog: (e) => entries.push(e) };
}

describe("against the sandbox", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => void (sandbox = await startSandbox()));
  afterAll(() => sandbox.dispose());

  it("logs each page of a listing with its query and number, and a replayed create as a replay", async () => {
    const log = logged();
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: await sandbox.token() }, requestLog: log.requestLog });
    for (const name of ["Logged 1", "Logged 2", "Logged 3"])
      await client.createGroup({ name }, { idempotencyKey: `log-${name.replace(" ", "-")}` });
    await client.createGroup({ name: "Logged 1" }, { idempotencyKey: "log-Logged-1" });
    const listed = [];
    for await (const group of client.listGroups(2)) listed.push(group);

    const creates = log.entries.filter((e) => e.method === "POST");
    expect(creates.map((e) => [e.path, e.status, e.replay])).toEqual([
      ["/api/v1/groups", 201, false],
      ["/api/v1/groups", 201, false],
      ["/api/v1/groups", 201, false],
      ["/api/v1/groups", 201, true],
    ]);
    const pages = log.entries.filter((e) => e.method === "GET");
    expect(pages).toHaveLength(Math.ceil(listed.length / 2));
    expect(pages.map((e) => e.page)).toEqual(pages.map((_, i) => i + 1));
    expect(pages[0]!.query).toBe("limit=2");
    expect(pages[1]!.query).toMatch(/^limit=2&cursor=./);
    for (const e of log.entries) {
      expect(e).toMatchObject({ attempt: 1, requestId: expect.stringMatching(/^req_/) });
      expect(e.retryInMs).toBeUndefined();
    }
    expect(requestLogLine(pages[1]!)).toMatch(
      /^cloudcost API request: method=GET path=\/api\/v1\/groups query=limit=2&cursor=\S+ status=200 request_id=req_\w+ attempt=1 retry=false replay=false page=2$/,
    );
  });

  it("logs the token request of client credentials, and no entry holds the secret or the token", async () => {
    const oauth = await sandbox.client("read");
    const log = logged();
    const client = new CloudCostClient({
      baseUrl: sandbox.baseUrl,
      auth: { clientId: oauth.client_id, clientSecret: oauth.client_secret },
      requestLog: log.requestLog,
    });
    await client.getOrganization();
    expect(log.entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(["POST /oauth/token 200", "GET /api/v1/organization 200"]);
    const text = log.entries.map(requestLogLine).join("\n");
    expect(text).not.toContain(oauth.client_secret);
    expect(text).not.toContain(oauth.client_id);
    expect(text).not.toMatch(/ccat_|Bearer|Basic/);
  });
});

describe("retries", () => {
  it("logs each attempt of a retried call, with the wait before the next one", async () => {
    const sandbox = await startSandbox({ args: ["--faults", "1", "--fault-kinds", "503"] });
    try {
      const log = logged();
      const client = new CloudCostClient({
        baseUrl: sandbox.baseUrl,
        auth: { apiToken: "ccpat_unused" },
        retry: { maxAttempts: 2, baseDelayMs: 5 },
        requestLog: log.requestLog,
      });
      await expect(client.getGroup("grp_0123456789")).rejects.toMatchObject({ status: 503, attempts: 2 });
      expect(log.entries.map((e) => [e.attempt, e.status, typeof e.retryInMs])).toEqual([
        [1, 503, "number"],
        [2, 503, "undefined"],
      ]);
      expect(requestLogLine(log.entries[1]!)).toContain(" attempt=2 retry=true ");
    } finally {
      await sandbox.dispose();
    }
  });

  it("logs an attempt that got no answer with the error's code", async () => {
    const log = logged();
    const client = new CloudCostClient({
      baseUrl: "http://127.0.0.1:9/api/v1",
      auth: { apiToken: "ccpat_unused" },
      retry: { maxAttempts: 2, baseDelayMs: 1 },
      requestLog: log.requestLog,
    });
    await expect(client.getGroup("grp_0123456789")).rejects.toMatchObject({ status: 0 });
    expect(log.entries.map((e) => [e.attempt, e.status, e.error, typeof e.retryInMs])).toEqual([
      [1, 0, "ECONNREFUSED", "number"],
      [2, 0, "ECONNREFUSED", "undefined"],
    ]);
  });
});
