import { CloudGroupPage, Problem, type CloudGroup, type Page } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "./api-client";

describe("cursor paging", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const page = async (query: string) => {
    const r = await call(sandbox, "GET", `/groups?${query}`, { token });
    if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
    return CloudGroupPage.parse(r.body);
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
    for (let i = 0; i < 54; i++) await call(sandbox, "POST", "/groups", { token, json: { name: `Paged ${String(i).padStart(2, "0")}` } });
  });
  afterAll(() => sandbox.dispose());

  it("defaults to 50 items and walks every item once, in creation order", async () => {
    const first = await page("");
    expect(first.items).toHaveLength(50);
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const p: Page<CloudGroup> = await page(`limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      names.push(...p.items.map((g) => g.name));
      cursor = p.nextCursor;
    } while (cursor);
    expect(names).toEqual(["Production", ...Array.from({ length: 54 }, (_, i) => `Paged ${String(i).padStart(2, "0")}`)]);
  });

  it("ends with a null cursor on the last page", async () => {
    expect((await page("limit=200")).nextCursor).toBeNull();
  });

  it.each([
    ["limit=0", "query.limit"],
    ["limit=201", "query.limit"],
    ["limit=abc", "query.limit"],
    ["limit=1.5", "query.limit"],
    ["cursor=", "query.cursor"],
    ["cursor=bm90LWEtY3Vyc29y", "query.cursor"],
    ["cursor=!!", "query.cursor"],
    ["sort=name", "query.sort"],
  ])("rejects %s with a 400 naming %s", async (query, path) => {
    const r = await call(sandbox, "GET", `/groups?${query}`, { token });
    expect(r.status).toBe(400);
    expect(Problem.parse(r.body).errors?.map((e) => e.path)).toContain(path);
  });

  it("rejects a cursor of another list", async () => {
    const scansCursor = Buffer.from("scans:5").toString("base64url");
    expect((await call(sandbox, "GET", `/groups?cursor=${scansCursor}`, { token })).status).toBe(400);
    const groupsCursor = (await page("limit=1")).nextCursor!;
    expect((await call(sandbox, "GET", `/alerts?cursor=${groupsCursor}`, { token })).status).toBe(400);
  });
});
