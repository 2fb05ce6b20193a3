import { CloudCostClient, type ClientOptions, type CostFiltersInput, type CostForecast } from "@cloudcost/api";
import type { DateWindow } from "@cloudcost/api";

/** How long a forecast (or a failure to get one) is reused: one `pulumi preview` asks once per scope and period. */
const CACHE_MS = 60_000;

interface Entry {
  at: number;
  forecast: Promise<CostForecast>;
}

/**
 * Reads forecasts through the typed API client, one request per API, scope and window however many
 * alerts share them (a stack of thousands of alerts must not send thousands of requests).
 */
export class ForecastSource {
  private readonly clients = new Map<string, CloudCostClient>();
  private readonly cache = new Map<string, Entry>();

  /** The forecast of a scope: a group (or the organization) narrowed by `filters` (issue 27), as the alert counts it. */
  forecast(
    options: ClientOptions,
    groupId: string | null,
    window: DateWindow,
    now = Date.now(),
    filters: CostFiltersInput = {},
  ): Promise<CostForecast> {
    const clientKey = JSON.stringify([options.baseUrl, options.auth, options.timeoutMs]);
    const key = JSON.stringify([clientKey, groupId, window.from, window.to, filters]);
    const hit = this.cache.get(key);
    if (hit && now - hit.at < CACHE_MS) return hit.forecast;
    let client = this.clients.get(clientKey);
    if (!client) {
      client = new CloudCostClient(options);
      this.clients.set(clientKey, client);
    }
    const forecast = client.getCostForecast({ ...window, ...(groupId ? { groupId } : {}), filters });
    // A rejected promise is cached too, but must never be reported as unhandled.
    forecast.catch(() => undefined);
    this.cache.set(key, { at: now, forecast });
    return forecast;
  }
}
