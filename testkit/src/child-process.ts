import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * How long a started process may take to print its ready line before it counts as hung, and the shortest hang guard a
 * test gives any child process (test/harness-checks/test-bounds.test.ts). A guard against a hang, never a verdict on
 * speed: a machine under load (CI on two shared cores) may be slow, not wrong. (A cold CI run beside four busy
 * processes took over 90 s to start three Prism proxies at once: issue 39.) A test's own bound is jest.config.js's.
 */
export const START_TIMEOUT_MS = 300_000;

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * A child that died by a signal the harness did not send: SIGABRT from a native assertion (better-sqlite3
 * ≤ 12 on Node 24 aborted in a destructor, sometimes only while the process was exiting), SIGSEGV, or a
 * SIGKILL from outside. Such a death is a failure even when every assertion of the test passed.
 */
export interface SignalDeath {
  what: string;
  pid: number | undefined;
  signal: NodeJS.Signals;
}

/** The signals the harness itself sent to each child: a death by one of those was asked for. */
const sent = new WeakMap<ChildProcess, Set<NodeJS.Signals>>();
const unexpected: SignalDeath[] = [];
const names = new WeakMap<ChildProcess, string>();

export function describeSignalDeaths(deaths: readonly SignalDeath[]): string {
  return deaths.map((d) => `${d.what} (pid ${d.pid ?? "?"}) died by ${d.signal}`).join("; ");
}

/** Every unexpected signal death seen since the last call, once each (the jest setup file fails the test on them). */
export function takeSignalDeaths(): SignalDeath[] {
  return unexpected.splice(0, unexpected.length);
}

/** Sends `signal` to `child`, remembering that the harness asked for it. */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals): void {
  const signals = sent.get(child) ?? new Set<NodeJS.Signals>();
  signals.add(signal);
  sent.set(child, signals);
  child.kill(signal);
}

/**
 * What a one-shot command's result says when its own `timeout` killed it (`execFile`'s callback error): a killed
 * command has often printed nothing, and "Command failed" alone does not tell a slow command from a broken one.
 */
export function killedByBound(err: { killed?: boolean } | null, timeoutMs: number): string {
  return err?.killed ? `(killed: no result within ${timeoutMs / 1000} s)` : "";
}

/**
 * Records how a one-shot command ended (`execFile`'s callback error): a death by a signal other than
 * the `killSignal` of its own `timeout` counts like any other unexpected signal death. Returns it, if any.
 */
export function noteCommandEnd(
  what: string,
  err: { signal?: NodeJS.Signals | null; killed?: boolean } | null,
  timeoutSignal: NodeJS.Signals = "SIGTERM",
): SignalDeath | undefined {
  if (!err?.signal || (err.killed && err.signal === timeoutSignal)) return undefined;
  const death: SignalDeath = { what, pid: undefined, signal: err.signal };
  unexpected.push(death);
  return death;
}

/**
 * Children started through the harness never outlive this process: when it exits (a test worker ending,
 * the demo interrupted mid-story), each one still running gets SIGTERM — the sandbox then closes
 * gracefully on its own, so its data stays intact. Each exit is watched for a signal nobody sent.
 */
function ownUntilExit(child: ChildProcess, what: string): void {
  if (names.has(child)) return;
  names.set(child, what);
  live.add(child);
  child.once("exit", (_code, signal) => {
    live.delete(child);
    if (signal !== null && !sent.get(child)?.has(signal)) unexpected.push({ what, pid: child.pid, signal });
  });
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => live.forEach((c) => signalChild(c, "SIGTERM")));
}

/**
 * Resolves with the first stdout line of `child` that `parse` accepts (a server announcing its address
 * or port). Rejects when the child exits or cannot be spawned first, or stays silent for START_TIMEOUT_MS (a
 * hang guard, the same for every start: no caller picks a verdict on speed); then the child is killed, so a failed
 * start leaves no process behind to keep a test worker alive. Stdout keeps being drained afterwards, so a chatty
 * child never blocks on a full pipe.
 */
export function readyLine<T>(child: ChildProcess, what: string, parse: (line: string) => T | undefined, stderr: () => string): Promise<T> {
  ownUntilExit(child, what);
  return new Promise<T>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const settle = (outcome: () => void): void => {
      clearTimeout(timer);
      lines.off("line", onLine);
      child.off("exit", onExit);
      child.off("error", onError);
      outcome();
    };
    const onLine = (line: string): void => {
      const value = parse(line);
      if (value !== undefined) settle(() => resolve(value));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      settle(() => reject(new Error(`${what} exited (${code ?? signal}) before it was ready: ${stderr()}`)));
    const onError = (err: Error): void => settle(() => reject(new Error(`${what} could not be started: ${err.message}`)));
    const timer = setTimeout(() => {
      signalChild(child, "SIGKILL");
      settle(() => reject(new Error(`${what} was not ready within ${START_TIMEOUT_MS / 1000} s: ${stderr()}`)));
    }, START_TIMEOUT_MS);
    lines.on("line", onLine);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}

/** Takes this child's unexpected signal death off the list (it is reported here instead) and returns it. */
function claimDeath(child: ChildProcess): SignalDeath | undefined {
  const index = unexpected.findIndex((d) => d.pid !== undefined && d.pid === child.pid && d.signal === child.signalCode);
  return index < 0 ? undefined : unexpected.splice(index, 1)[0];
}

function deathError(death: SignalDeath): Error {
  return new Error(`${describeSignalDeaths([death])}, a signal the test harness did not send`);
}

/**
 * Sends `signal` unless the child has already exited (or never started), and resolves once it has.
 * Rejects when the child died — now or earlier — by a signal the harness did not send: an abort while
 * shutting down fails the test that stopped it.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    signalChild(child, signal);
    await exited;
  }
  const death = claimDeath(child);
  if (death) throw deathError(death);
}
