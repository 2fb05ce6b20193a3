import { execFile, spawn, type ChildProcess } from "node:child_process";
import { noteCommandEnd, readyLine, stopChild, takeSignalDeaths } from "@cloudcost/testkit";

/**
 * The harness's own rule for child processes: a death by a signal the harness did not send (an abort in
 * native code, as better-sqlite3 ≤ 12 did on Node 24, often only while exiting) is a failure. Real
 * Node processes that abort the way a failed native assertion does (`process.abort()` raises SIGABRT).
 */

/** A Node process that sets up `behaviour` (signal handlers first), then prints "ready". */
function nodeChild(behaviour: string): ChildProcess {
  return spawn(process.execPath, ["-e", `${behaviour} console.log("ready");`], { stdio: ["ignore", "pipe", "pipe"] });
}

const ready = (child: ChildProcess, what: string) =>
  readyLine(
    child,
    what,
    (line) => (line === "ready" ? true : undefined),
    () => "",
  );
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

afterEach(() => {
  // Whatever a test here provoked on purpose must not fail the next one.
  takeSignalDeaths();
});

describe("child processes started through the test harness", () => {
  it("stopping a child that aborts while shutting down fails, naming the process and the signal", async () => {
    const child = nodeChild(`process.on("SIGTERM", () => process.abort()); setInterval(() => {}, 1000);`);
    await ready(child, "aborting server");
    await expect(stopChild(child)).rejects.toThrow(/aborting server \(pid \d+\) died by SIGABRT/);
    // Reported once, by stopChild, not a second time by the end-of-test check.
    expect(takeSignalDeaths()).toEqual([]);
  });

  it("a child that aborts on its own is recorded for the end-of-test check, and stopping it later still fails", async () => {
    const child = nodeChild(`setTimeout(() => process.abort(), 50);`);
    await ready(child, "crashing host");
    await exited(child);
    await expect(stopChild(child)).rejects.toThrow(/crashing host .* died by SIGABRT/);

    const other = nodeChild(`setTimeout(() => process.abort(), 50);`);
    await ready(other, "crashing pack");
    await exited(other);
    expect(takeSignalDeaths()).toEqual([{ what: "crashing pack", pid: other.pid, signal: "SIGABRT" }]);
  });

  it("signals the harness sends itself — SIGTERM to stop, SIGKILL to crash — are not failures", async () => {
    const stopped = nodeChild(`setInterval(() => {}, 1000);`);
    await ready(stopped, "server");
    await expect(stopChild(stopped)).resolves.toBeUndefined();
    expect(stopped.signalCode).toBe("SIGTERM");

    const killed = nodeChild(`process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);`);
    await ready(killed, "server");
    await expect(stopChild(killed, "SIGKILL")).resolves.toBeUndefined();
    expect(takeSignalDeaths()).toEqual([]);
  });

  it("a one-shot command that aborts is recorded; one killed by its own timeout is not", async () => {
    const run = (script: string, timeout: number) =>
      new Promise<ReturnType<typeof noteCommandEnd>>((resolve) =>
        execFile(process.execPath, ["-e", script], { timeout, killSignal: "SIGKILL" }, (err) =>
          resolve(noteCommandEnd("cli", err, "SIGKILL")),
        ),
      );
    expect(await run("process.abort()", 20_000)).toEqual({ what: "cli", pid: undefined, signal: "SIGABRT" });
    expect(await run("setInterval(() => {}, 1000)", 200)).toBeUndefined();
    expect(await run("process.exit(3)", 20_000)).toBeUndefined();
    expect(takeSignalDeaths()).toEqual([{ what: "cli", pid: undefined, signal: "SIGABRT" }]);
  });
});
