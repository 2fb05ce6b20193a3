import { BudgetAlert, CloudGroup, CloudGroupPage, IdempotencyRecordPage, Problem, ScanRun, ScanRunPage } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, alertBody, call } from "./api-client";

describe("ETag / If-Match and Idempotency-Key", () => {
  let sandbox: RunningSandbox;
  let token: string;
  let n = 0;
  const newGroup = async () => {
    const r = await call(sandbox, "POST", "/groups", { token, json: { name: `Etag ${++n}` } });
    return { group: CloudGroup.parse(r.body), etag: r.headers.get("etag")! };
  };
  const groupNames = async () =>
    CloudGroupPage.parse((await call(sandbox, "GET", "/groups?limit=200", { token })).body).items.map((g) => g.name);

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  describe("If-Match", () => {
    it("gives the same strong ETag on create and read, and a new one after a change", async () => {
      const { group, etag } = await newGroup();
      expect((await call(sandbox, "GET", `/groups/${group.id}`, { token })).headers.get("etag")).toBe(etag);
      const patched = await call(sandbox, "PATCH", `/groups/${group.id}`, {
        token,
        json: { description: "v2" },
        headers: { "if-match": etag },
      });
      expect(patched.status).toBe(200);
      expect(patched.headers.get("etag")).not.toBe(etag);
      expect((await call(sandbox, "GET", `/groups/${group.id}`, { token })).headers.get("etag")).toBe(patched.headers.get("etag"));
    });

    it.each([
      ["PATCH", "", { description: "lost update" }],
      ["DELETE", "", undefined],
      ["PUT", "/members", { members: [] }],
      ["DELETE", `/members/aws/${DEMO_AWS[0]}`, undefined],
    ])("refuses %s%s with a stale ETag (412) and changes nothing", async (method, suffix, json) => {
      const { group, etag } = await newGroup();
      const current = await call(sandbox, "POST", `/groups/${group.id}/members`, {
        token,
        json: { provider: "aws", accountId: DEMO_AWS[0] },
      });
      const r = await call(sandbox, method, `/groups/${group.id}${suffix}`, { token, json, headers: { "if-match": etag } });
      expect(r.status).toBe(412);
      expect(Problem.parse(r.body).status).toBe(412);
      const after = await call(sandbox, "GET", `/groups/${group.id}`, { token });
      expect(after.body).toEqual(current.body);
      expect(after.headers.get("etag")).toBe(current.headers.get("etag"));
    });

    it("accepts *, a list containing the current tag, and refuses a weak tag", async () => {
      const { group, etag } = await newGroup();
      expect(
        (
          await call(sandbox, "PATCH", `/groups/${group.id}`, {
            token,
            json: { description: "weak" },
            headers: { "if-match": `W/${etag}` },
          })
        ).status,
      ).toBe(412);
      const listed = await call(sandbox, "PATCH", `/groups/${group.id}`, {
        token,
        json: { description: "listed" },
        headers: { "if-match": `"nope", ${etag}` },
      });
      expect(listed.status).toBe(200);
      expect((await call(sandbox, "DELETE", `/groups/${group.id}`, { token, headers: { "if-match": "*" } })).status).toBe(204);
      expect((await call(sandbox, "DELETE", `/groups/${group.id}`, { token, headers: { "if-match": "*" } })).status).toBe(404);
    });

    it("guards alert replacement the same way", async () => {
      const created = await call(sandbox, "POST", "/alerts", { token, json: alertBody() });
      const id = BudgetAlert.parse(created.body).id;
      const etag = created.headers.get("etag")!;
      expect(
        (await call(sandbox, "PUT", `/alerts/${id}`, { token, json: alertBody({ amount: 1 }), headers: { "if-match": etag } })).status,
      ).toBe(200);
      expect(
        (await call(sandbox, "PUT", `/alerts/${id}`, { token, json: alertBody({ amount: 2 }), headers: { "if-match": etag } })).status,
      ).toBe(412);
      expect(BudgetAlert.parse((await call(sandbox, "GET", `/alerts/${id}`, { token })).body).amount).toBe(1);
    });
  });

  describe("Idempotency-Key", () => {
    it("replays the first response (status, body, ETag) for a retry and creates nothing new", async () => {
      const headers = { "idempotency-key": "create-group-1" };
      const first = await call(sandbox, "POST", "/groups", { token, json: { name: "Once" }, headers });
      const retry = await call(sandbox, "POST", "/groups", { token, json: { name: "Once" }, headers });
      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
      expect(retry.headers.get("location")).toBe(first.headers.get("location"));
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect((await groupNames()).filter((x) => x === "Once")).toHaveLength(1);
    });

    it("treats the same JSON in another key order as the same body", async () => {
      const headers = { "idempotency-key": "alert-order" };
      const first = await call(sandbox, "POST", "/alerts", { token, json: alertBody(), headers });
      const reordered = Object.fromEntries(Object.entries(alertBody()).reverse());
      const retry = await call(sandbox, "POST", "/alerts", { token, json: reordered, headers });
      expect(retry.body).toEqual(first.body);
    });

    it("rejects the same key with another body (422) and creates nothing", async () => {
      const headers = { "idempotency-key": "create-group-2" };
      expect((await call(sandbox, "POST", "/groups", { token, json: { name: "First body" }, headers })).status).toBe(201);
      const other = await call(sandbox, "POST", "/groups", { token, json: { name: "Second body" }, headers });
      expect(other.status).toBe(422);
      expect(Problem.parse(other.body).errors).toEqual([
        expect.objectContaining({ path: "header.Idempotency-Key", code: "idempotency_key_reused" }),
      ]);
      expect(await groupNames()).not.toContain("Second body");
    });

    it("does not remember failures: a retry after fixing nothing fails the same way", async () => {
      const headers = { "idempotency-key": "dup-name" };
      await call(sandbox, "POST", "/groups", { token, json: { name: "Taken" } });
      expect((await call(sandbox, "POST", "/groups", { token, json: { name: "Taken" }, headers })).status).toBe(409);
      expect((await call(sandbox, "POST", "/groups", { token, json: { name: "Taken" }, headers })).status).toBe(409);
    });

    it("starts one scan per key", async () => {
      const headers = { "idempotency-key": "scan-1" };
      const first = ScanRun.parse((await call(sandbox, "POST", "/scans", { token, headers })).body);
      const retry = await call(sandbox, "POST", "/scans", { token, headers });
      expect(retry.status).toBe(202);
      expect(ScanRun.parse(retry.body).runId).toBe(first.runId);
      const runs = ScanRunPage.parse((await call(sandbox, "GET", "/scans?limit=200", { token })).body).items;
      expect(runs.filter((r) => r.runId === first.runId)).toHaveLength(1);
      expect(runs).toHaveLength(1);
    });

    it("keeps keys per organization", async () => {
      expect((await sandbox.cli(["org", "create", "keyed"])).code).toBe(0);
      const { token: other } = await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "keyed", "--json"]);
      const headers = { "idempotency-key": "shared-key" };
      const mine = await call(sandbox, "POST", "/groups", { token, json: { name: "Shared key" }, headers });
      const theirs = await call(sandbox, "POST", "/groups", { token: other, json: { name: "Shared key" }, headers });
      expect(theirs.status).toBe(201);
      expect(CloudGroup.parse(theirs.body).id).not.toBe(CloudGroup.parse(mine.body).id);
    });

    it("forgets a key once its object is deleted: the same create then makes a new object", async () => {
      const headers = { "idempotency-key": "recreated-after-delete" };
      for (const [path, json] of [
        ["/groups", { name: "Deleted then declared again" }],
        ["/alerts", alertBody()],
      ] as const) {
        const first = await call(sandbox, "POST", path, {
          token,
          json,
          headers: { "idempotency-key": `${headers["idempotency-key"]}${path}` },
        });
        const id = (first.body as { id: string }).id;
        expect((await call(sandbox, "DELETE", `${path}/${id}`, { token })).status).toBe(204);
        const again = await call(sandbox, "POST", path, {
          token,
          json,
          headers: { "idempotency-key": `${headers["idempotency-key"]}${path}` },
        });
        expect(again.status).toBe(201);
        expect(again.headers.get("idempotent-replayed")).toBeNull();
        expect((again.body as { id: string }).id).not.toBe(id);
        // …and the new object is what the key answers from now on.
        const retry = await call(sandbox, "POST", path, {
          token,
          json,
          headers: { "idempotency-key": `${headers["idempotency-key"]}${path}` },
        });
        expect((retry.body as { id: string }).id).toBe((again.body as { id: string }).id);
      }
    });

    it("lists the keys that begin with a prefix, with the objects they made, and leaves out deleted ones", async () => {
      const made: string[] = [];
      for (const name of ["Listed-A", "Listed-B", "Listed-C"]) {
        const r = await call(sandbox, "POST", "/groups", { token, json: { name }, headers: { "idempotency-key": `stack-x.${name}` } });
        expect(r.status).toBe(201);
        made.push((r.body as { id: string }).id);
      }
      await call(sandbox, "POST", "/groups", { token, json: { name: "Other stack" }, headers: { "idempotency-key": "stack-y.1" } });
      await call(sandbox, "POST", "/groups", { token, json: { name: "Percent" }, headers: { "idempotency-key": "stack-%.1" } });
      expect((await call(sandbox, "DELETE", `/groups/${made[1]}`, { token })).status).toBe(204);

      const listed = IdempotencyRecordPage.parse((await call(sandbox, "GET", "/idempotency-keys?prefix=stack-x.", { token })).body);
      expect(listed.items.map((r) => [r.key, r.resourceId, r.status])).toEqual([
        ["stack-x.Listed-A", made[0], 201],
        ["stack-x.Listed-C", made[2], 201],
      ]);
      const [record] = listed.items;
      expect(Date.parse(record!.expiresAt) - Date.parse(record!.createdAt)).toBe(24 * 60 * 60 * 1000);
      // The prefix is literal text, not a pattern.
      const percent = IdempotencyRecordPage.parse((await call(sandbox, "GET", "/idempotency-keys?prefix=stack-%25", { token })).body);
      expect(percent.items.map((r) => r.key)).toEqual(["stack-%.1"]);
      // Pages of one repeat nothing and skip nothing.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `/idempotency-keys?prefix=stack-&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page = IdempotencyRecordPage.parse((await call(sandbox, "GET", q, { token })).body);
        paged.push(...page.items.map((r) => r.key));
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged).toEqual(["stack-x.Listed-A", "stack-x.Listed-C", "stack-y.1", "stack-%.1"]);
    });

    it("keeps another organization's keys out of the list", async () => {
      expect((await sandbox.cli(["org", "create", "listing"])).code).toBe(0);
      const { token: other } = await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "listing", "--json"]);
      await call(sandbox, "POST", "/groups", { token: other, json: { name: "Theirs" }, headers: { "idempotency-key": "theirs.1" } });
      const mine = IdempotencyRecordPage.parse((await call(sandbox, "GET", "/idempotency-keys?prefix=theirs.", { token })).body);
      expect(mine.items).toEqual([]);
    });

    it.each([
      ["an empty prefix", "prefix="],
      ["a prefix over 255 characters", `prefix=${"x".repeat(256)}`],
      ["an unknown parameter", "resourceId=grp_1"],
    ])("answers 400 for %s", async (_what, query) => {
      const r = await call(sandbox, "GET", `/idempotency-keys?${query}`, { token });
      expect(r.status).toBe(400);
      expect(Problem.parse(r.body).errors?.[0]?.path).toMatch(/^query\./);
    });

    it.each([
      ["empty", ""],
      ["too long", "x".repeat(256)],
    ])("rejects a key that is %s", async (_what, key) => {
      const r = await call(sandbox, "POST", "/groups", { token, json: { name: "Bad key" }, headers: { "idempotency-key": key } });
      expect(r.status).toBe(400);
      expect(Problem.parse(r.body).errors?.[0]?.path).toBe("header.Idempotency-Key");
      expect(await groupNames()).not.toContain("Bad key");
    });
  });
});
