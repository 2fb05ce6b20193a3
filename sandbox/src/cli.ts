#!/usr/bin/env node
import { CommanderError } from "commander";
import { buildProgram } from "./cli/program";
import { UsageError } from "./errors";

/** Commander's own exits that are not errors: `--help` and `--version`. */
const CLEAN_EXITS = new Set(["commander.helpDisplayed", "commander.version"]);

/**
 * Exit codes: 0 done, 1 the command failed (e.g. unknown organization), 2 bad arguments (commander's
 * usage errors — including no command at all — and values that break a rule). Never a stack trace.
 */
async function main(argv: readonly string[]): Promise<void> {
  try {
    await buildProgram((line) => console.log(line)).parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) process.exit(CLEAN_EXITS.has(error.code) ? 0 : 2); // commander printed it
    const message = error instanceof Error ? error.message : String(error);
    console.error(`error: ${message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}

void main(process.argv.slice(2));
