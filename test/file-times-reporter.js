"use strict";
/**
 * With `CLOUDCOST_TEST_TIMES` naming a folder (`.ci/run` gives each cell one): each test file's wall seconds and
 * CPU seconds, its own and those of the processes it started and waited for, appended as JSON lines to
 * `<folder>/files.jsonl` for `.ci/run` to rank. The CPU at the file's start is recorded by
 * test/setup/file-cpu-start.ts in the worker that runs it; the worker's counters are read again here, in the
 * parent, as soon as the file's result arrives (the worker waits for its next file meanwhile).
 */
const { appendFileSync, existsSync, readFileSync } = require("node:fs");
const { execFileSync } = require("node:child_process");
const { join, relative } = require("node:path");

/** utime + stime + cutime + cstime of a process (proc(5) fields 14–17), in clock ticks. */
function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .slice(11, 15)
    .reduce((sum, field) => sum + Number(field), 0);
}

class FileTimesReporter {
  constructor(globalConfig) {
    this.folder = process.env.CLOUDCOST_TEST_TIMES;
    this.root = globalConfig.rootDir;
    this.ticksPerSecond = this.folder ? Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) : 100;
  }

  /** The latest start recorded for `file` (a file runs once per jest run; retries append another). */
  startOf(file) {
    const starts = join(this.folder, "starts.jsonl");
    if (!existsSync(starts)) return undefined;
    const records = readFileSync(starts, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    return records.filter((r) => r.file === file).at(-1);
  }

  onTestFileResult(test, result) {
    if (!this.folder) return;
    const start = this.startOf(test.path);
    let cpu = null;
    try {
      if (start) cpu = (cpuTicks(start.pid) - start.ticks) / this.ticksPerSecond;
    } catch {
      // The worker has gone (a crash): its file's CPU is unknown, its wall time still counts.
    }
    const wall = (result.perfStats.end - result.perfStats.start) / 1000;
    const line = { file: relative(this.root, test.path), wall: Math.round(wall), cpu: cpu === null ? null : Math.round(cpu) };
    appendFileSync(join(this.folder, "files.jsonl"), `${JSON.stringify(line)}\n`);
  }
}
module.exports = FileTimesReporter;
