import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { areas } from "./areas";

/**
 * `npm run bench [-- AREA ...]`: runs each benchmark area (all when none is named), prints one JSON
 * summary and merges it into bench/results.json. Every area measures its own baseline in the same run
 * and reports ratios against it, so figures are comparable across machines.
 */
async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const unknown = wanted.filter((w) => !(w in areas));
  if (unknown.length) {
    console.error(`unknown benchmark area(s): ${unknown.join(", ")}; known: ${Object.keys(areas).join(", ")}`);
    process.exit(2);
  }
  const names = wanted.length ? wanted : Object.keys(areas);
  const summary: Record<string, unknown> = {};
  for (const name of names) {
    const started = Date.now();
    const figures = await areas[name]!();
    const elapsed = Math.round((Date.now() - started) / 100) / 10;
    // An area whose own figure is called `seconds` (refresh: the refresh's wall time) keeps it; its run time is then `areaSeconds`.
    summary[name] = "seconds" in figures ? { ...figures, areaSeconds: elapsed } : { ...figures, seconds: elapsed };
  }
  // Compiled to bench/dist/bench/src: results live beside the sources in bench/results.json.
  const file = join(__dirname, "..", "..", "..", "results.json");
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { areas?: Record<string, unknown> }) : {};
  const result = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    areas: { ...previous.areas, ...summary },
  };
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify({ ...result, areas: summary }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
