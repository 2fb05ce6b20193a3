import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import { openContext } from "../service/open-context";
import { DEFAULT_SCAN_STEP_MS } from "../store/scans";
import { dataDir, dataPath, type Values } from "./arguments";
import { dataFolderError } from "./startup-errors";

function open(values: Values): SandboxContext {
  // The commands only read and write rows; origin and lifetimes matter to `serve` alone.
  try {
    return openContext({
      dataDir: dataDir(values),
      origin: "",
      accessTokenTtlSeconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
      scanStepMs: DEFAULT_SCAN_STEP_MS,
    });
  } catch (error) {
    throw dataFolderError(error, dataPath(values));
  }
}

/** Runs `work` on the data folder of `--data` (beside a running `serve`: SQLite WAL) and closes it again. */
export function withContext<T>(values: Values, work: (ctx: SandboxContext) => T): T {
  const ctx = open(values);
  try {
    return work(ctx);
  } finally {
    ctx.db.close();
  }
}

/** {@link withContext} for work that finishes later (the database stays open until it has). */
export async function withContextAsync<T>(values: Values, work: (ctx: SandboxContext) => Promise<T>): Promise<T> {
  const ctx = open(values);
  try {
    return await work(ctx);
  } finally {
    ctx.db.close();
  }
}
