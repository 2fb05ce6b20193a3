import { startConfiguredHost, ProviderHost, startSandbox, RunningSandbox } from "@cloudcost/testkit";
import { send } from "./support/http";
import { expectedLive, liveByName } from "./support/live-state";
import { UNLIMITED } from "./support/orgs";
import { createAll, deleteAll, desiredStack, failures, readAll, updateAll, values } from "./support/provider-run";
import { PARALLELISM, RESOURCES } from "./support/soak";

/** Deterministic fault injection before the handler runs: 429 with Retry-After, 503, connection resets, latency. */
const FAULTS = ["--faults", "0.2", "--fault-seed", "20261122", "--fault-kinds", "429,503,reset,latency"];

/**
 * A whole stack created, edited (a second `up`), refreshed and destroyed through the real
 * dynamic-provider host while the sandbox fails 20% of API requests. The provider must hide every
 * fault: no failed operation, no duplicate, the service ends up exactly as declared, and empty again
 * after the destroy.
 *
 * The faulty sandbox serves the provider; a second sandbox process on the same data folder, without
 * faults, is the observer the test reads the truth from (SQLite in WAL mode serves both).
 */
describe(`chaos: ${RESOURCES} resources at parallelism ${PARALLELISM} with 20% injected faults`, () => {
  let faulty: RunningSandbox;
  let observer: RunningSandbox;
  let host: ProviderHost;
  let token: string;

  beforeAll(async () => {
    faulty = await startSandbox({ args: [...UNLIMITED, ...FAULTS] });
    observer = await startSandbox({ dataDir: faulty.dataDir, args: UNLIMITED });
    token = await faulty.token();
    host = await startConfiguredHost(faulty.baseUrl, token);
  });
  afterAll(async () => {
    await host?.stop();
    await observer?.stop();
    await faulty?.dispose();
  });

  test("the sandbox really fails requests", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      statuses.push(
        await send(faulty.baseUrl, { method: "GET", path: "/groups?limit=1" }, { token }).then(
          (r) => r.status,
          () => 0,
        ),
      );
    }
    const failed = statuses.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(3);
    expect(new Set(failed)).toEqual(new Set([0, 429, 503]));
  });

  test("create, update, refresh and destroy: zero failed operations, zero duplicates, final state as declared, then empty", async () => {
    const prefix = `chaos${Date.now().toString(36)}`;
    const stack = desiredStack(RESOURCES, prefix);
    const createdOutcomes = await createAll(host, stack, PARALLELISM);
    expect(failures(createdOutcomes)).toEqual([]);
    expect(values(createdOutcomes)).toHaveLength(RESOURCES);
    const updatedOutcomes = await updateAll(host, values(createdOutcomes), PARALLELISM);
    expect(failures(updatedOutcomes)).toEqual([]);
    const created = values(updatedOutcomes);

    const live = await liveByName(observer.baseUrl, token);
    const ours = [...live.entries()].filter(([name]) => name.startsWith(prefix));
    expect(ours.filter(([, objects]) => objects.length > 1).map(([name]) => name)).toEqual([]);
    expect(ours).toHaveLength(RESOURCES);
    for (const c of created) {
      const [object] = live.get(c.inputs.name as string) ?? [];
      expect(object).toMatchObject({ ...expectedLive(c), id: c.id });
    }

    const reads = await readAll(host, created, PARALLELISM);
    expect(failures(reads)).toEqual([]);
    expect(values(reads).map((r) => r.id)).toEqual(created.map((c) => c.id));

    expect(failures(await deleteAll(host, created, PARALLELISM))).toEqual([]);
    const after = await liveByName(observer.baseUrl, token);
    expect([...after.keys()].filter((name) => name.startsWith(prefix))).toEqual([]);
  });
});
