/**
 * Paces one identity's requests by the server's rate-limit headers (IETF draft "RateLimit header fields
 * for HTTP": `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` in delta-seconds; RFC 6585 §4 and
 * RFC 9110 §10.2.3 for `429` + `Retry-After`), so a burst waits for the next window instead of being
 * refused. The budget is per identity on the server (sandbox README "Rate limit"), so there is one pacer
 * per client instance, i.e. per credentials. A server that sends no such headers is never paced.
 *
 * The budget of the current window: the lowest `Remaining` heard, less the requests still in flight
 * (they may not be counted in it yet), less those sent since. `Reset` is rounded UP to whole seconds,
 * so each answer received at t gives an upper bound t + Reset·1000 of the window's end; the smallest of
 * them is when the next window surely has begun.
 */
export class RatePacer {
  private limit: number | undefined;
  private budget: number | undefined;
  /** Upper bound of the current window's end (ms since epoch); undefined until a response said. */
  private windowEnd: number | undefined;
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** Resolves when a request may be sent now without exceeding the known budget. */
  async acquire(): Promise<void> {
    for (;;) {
      this.rollWindow(Date.now());
      if (this.budget === undefined || this.budget > 0) break;
      await this.waitForChange();
    }
    if (this.budget !== undefined) this.budget--;
    this.inFlight++;
  }

  /** Records the answer to a request sent after `acquire` (headers undefined when none arrived). */
  release(status: number, header: (name: string) => string | undefined, receivedAt: number = Date.now()): void {
    this.inFlight--;
    const limit = toCount(header("ratelimit-limit"));
    const remaining = toCount(header("ratelimit-remaining"));
    const reset = toCount(header("ratelimit-reset")) ?? (status === 429 ? toCount(header("retry-after")) : undefined);
    if (limit === undefined || remaining === undefined || reset === undefined) return this.wake();
    this.limit = limit;
    const end = receivedAt + reset * 1000;
    // An answer whose window ends a second or more after the one known is from the next window.
    if (this.windowEnd === undefined || end >= this.windowEnd + 1000) {
      this.windowEnd = end;
      this.budget = remaining - this.inFlight;
    } else {
      this.windowEnd = Math.min(this.windowEnd, end);
      this.budget = Math.min(this.budget ?? remaining, remaining - this.inFlight);
    }
    if (status === 429) this.budget = Math.min(this.budget, 0);
    this.wake();
  }

  /** Past the known window's end, the budget is the whole limit again (less what is still in flight). */
  private rollWindow(now: number): void {
    if (this.windowEnd !== undefined && now >= this.windowEnd && this.limit !== undefined) {
      this.budget = this.limit - this.inFlight;
      this.windowEnd = undefined;
    }
  }

  private waitForChange(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (this.windowEnd !== undefined && this.timer === undefined) {
        // Not unref'd: a request waiting for the next window is work the caller awaits. Unref'd, a command
        // with nothing else in flight (cloudcost-pulumi pending) ended mid-run with exit code 0 and no output.
        this.timer = setTimeout(() => this.wake(), Math.max(0, this.windowEnd - Date.now()));
      }
    });
  }

  private wake(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function toCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
