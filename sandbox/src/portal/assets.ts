import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";
import { COST_CHARTS_SCRIPT } from "./cost-charts-script";

/** Chart.js's UMD build, from the sandbox's own dependency: the portal loads nothing from another origin (CSP `script-src 'self'`). */
export const CHART_JS_URL = "/portal/assets/chart.umd.min.js";
export const COST_CHARTS_URL = "/portal/assets/cost-charts.js";

/** `chart.js` exports only its entry points; the UMD bundle sits beside the CommonJS entry in `dist/`. */
function chartJsSource(): string {
  return readFileSync(join(dirname(require.resolve("chart.js")), "chart.umd.min.js"), "utf8");
}

/** The scripts of the Costs page; read once, on first use, so a sandbox that never shows a chart never reads them. */
export function registerPortalAssets(scope: FastifyInstance): void {
  let chartJs: string | undefined;
  const sendScript = (reply: FastifyReply, source: string): FastifyReply =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=3600").send(source);
  scope.get(CHART_JS_URL, (_request, reply) => sendScript(reply, (chartJs ??= chartJsSource())));
  scope.get(COST_CHARTS_URL, (_request, reply) => sendScript(reply, COST_CHARTS_SCRIPT));
}
