import { describeSignalDeaths, takeSignalDeaths } from "@cloudcost/testkit";

/**
 * Loaded before every test file (jest `setupFilesAfterEnv`): a process the harness started that died by
 * a signal it did not send (an abort, a segfault) fails the test during which it died — or, for a death
 * after the last test, the file — even when every assertion passed. Deaths while a test stops a child
 * are reported by `stopChild` itself.
 */
function failOnSignalDeaths(): void {
  const deaths = takeSignalDeaths();
  if (deaths.length > 0)
    throw new Error(`${describeSignalDeaths(deaths)}: a child process must never die by a signal the test harness did not send`);
}

afterEach(failOnSignalDeaths);
afterAll(failOnSignalDeaths);
