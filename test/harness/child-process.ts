import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Children started through the harness never outlive this process: when it exits (a test worker ending,
 * the demo interrupted mid-story), each one still running gets SIGTERM — the sandbox then closes
 * gracefully on its own, so its data stays intact.
 */
function ownUntilExit(child: ChildProcess): void {
  live.add(child);
  child.once("exit", () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => live.forEach((c) => c.kill("SIGTERM")));
}

/**
 * Resolves with the first stdout line of `child` that `parse` accepts (a server announcing its address
 * or port). Rejects when the child exits or cannot be spawned first, or stays silent for `timeoutMs`;
 * in that last case the child is killed, so a failed start leaves no process behind to keep a test
 * worker alive. Stdout keeps being drained afterwards, so a chatty child never blocks on a full pipe.
 */
export function readyLine<T>(child: ChildProcess, what: string, timeoutMs: number, parse: (line: string) => T | undefined, stderr: () => string): Promise<T> {
  ownUntilExit(child);
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
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => settle(() => reject(new Error(`${what} exited (${code ?? signal}) before it was ready: ${stderr()}`)));
    const onError = (err: Error): void => settle(() => reject(new Error(`${what} could not be started: ${err.message}`)));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle(() => reject(new Error(`${what} was not ready within ${timeoutMs / 1000} s: ${stderr()}`)));
    }, timeoutMs);
    lines.on("line", onLine);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}

/** Sends `signal` unless the child has already exited (or never started), and resolves once it has. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  return exited;
}
