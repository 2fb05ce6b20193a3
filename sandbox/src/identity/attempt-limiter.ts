/** One counter of a fixed window. */
interface Window {
  count: number;
  resetAt: number;
}

/** Above this many live keys, expired windows are swept before a new key is added (bounded memory). */
const SWEEP_ABOVE = 10_000;

/**
 * Counts attempts per key in fixed windows, in memory. `take` counts an attempt *before* the work it
 * guards (a password check) and in the same synchronous step as the check, so parallel attempts cannot
 * all pass a limit that only sequential ones respect; `giveBack` un-counts an attempt that succeeded,
 * so only failures use up the allowance.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0 when an attempt is allowed now. */
  waitSeconds(key: string, now = Date.now()): number {
    const w = this.live(key, now);
    return w !== undefined && w.count >= this.max ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
  }

  count(key: string, now = Date.now()): void {
    const w = this.live(key, now);
    if (w) w.count += 1;
    else {
      if (this.windows.size >= SWEEP_ABOVE) this.sweep(now);
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    }
  }

  giveBack(key: string, now = Date.now()): void {
    const w = this.live(key, now);
    if (w && w.count > 0) w.count -= 1;
  }

  private live(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * Takes one attempt from every (limiter, key) pair at once, or from none: the seconds to wait when any of
 * them is used up, else 0. Synchronous, hence atomic on Node's single thread.
 */
export function takeAttempt(pairs: readonly (readonly [AttemptLimiter, string])[]): number {
  const now = Date.now();
  const wait = Math.max(0, ...pairs.map(([limiter, key]) => limiter.waitSeconds(key, now)));
  if (wait === 0) for (const [limiter, key] of pairs) limiter.count(key, now);
  return wait;
}

export function giveBackAttempt(pairs: readonly (readonly [AttemptLimiter, string])[]): void {
  for (const [limiter, key] of pairs) limiter.giveBack(key);
}
