import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Preloaded (`NODE_OPTIONS=--require <this file>`) into every Node process a `pulumi` command of the engine
 * and doors benches starts. In the three it recognizes by their script — the dynamic provider
 * (`@pulumi/pulumi/cmd/dynamic-provider`, started by the CLI's `pulumi-resource-pulumi-nodejs`), the native
 * plugin (`native/dist/plugin/main.js`, started by its launcher `native/bin/pulumi-resource-cloudcost`) and
 * the program (`@pulumi/pulumi/cmd/run`, started by the language host) — it writes the process's own CPU time
 * (`process.cpuUsage()`: user and system, all threads) to `$BENCH_ENGINE_CPU_DIR/<role>-<pid>.json` as the
 * process ends. The program exits by itself; the CLI ends a provider with SIGINT to its process group
 * (sdk/go/common/resource/plugin/plugin.go: `InterruptChildren`, SIGKILL only after 5 s), so the probe
 * writes on SIGINT and then lets the signal do what it would have done: it removes its listener and
 * raises SIGINT again. Every other process (e.g. the `node -e` that resolves the provider's script) only
 * loads this file.
 */
const dir = process.env.BENCH_ENGINE_CPU_DIR;
const script = process.argv[1] ?? "";
const provider = /cmd[\\/]dynamic-provider|native[\\/]dist[\\/]plugin[\\/]main\.js$/;
const role = provider.test(script) ? "provider" : /cmd[\\/]run/.test(script) ? "program" : undefined;

if (dir && role) {
  let written = false;
  const record = () => {
    if (written) return;
    written = true;
    const { user, system } = process.cpuUsage();
    writeFileSync(join(dir, `${role}-${process.pid}.json`), JSON.stringify({ role, pid: process.pid, userUs: user, systemUs: system }));
  };
  const onSigint = () => {
    record();
    process.removeListener("SIGINT", onSigint);
    process.kill(process.pid, "SIGINT");
  };
  process.on("SIGINT", onSigint);
  process.on("exit", record);
}
