import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Loaded before every test file (jest `setupFilesAfterEnv`) when `CLOUDCOST_TEST_TIMES` names a folder (CI does):
 * records which worker process runs this file and the CPU it had used so far, its own and its reaped children's
 * (`/proc/self/stat`: utime, stime, cutime, cstime — the Pulumi CLI, `tofu`, sandboxes and compilers the file
 * starts). test/file-times-reporter.js reads the same counters when the file's result arrives; the difference is
 * the file's CPU time, which, unlike its wall time, barely changes when the machine is busy.
 */
const folder = process.env.CLOUDCOST_TEST_TIMES;
if (folder) {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const ticks = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    // Fields 14–17 of proc(5), counted from the state (field 3) after the command's closing parenthesis.
    .slice(11, 15)
    .reduce((sum, field) => sum + Number(field), 0);
  const record = { file: expect.getState().testPath, pid: process.pid, ticks, at: Date.now() };
  appendFileSync(join(folder, "starts.jsonl"), `${JSON.stringify(record)}\n`);
}
