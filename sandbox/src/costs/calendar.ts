/** Calendar arithmetic on `YYYY-MM-DD` strings, always in UTC (cost data is per UTC day). */
const DAY_MS = 86_400_000;

export function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

export function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOf(dayNumber(date) + days);
}

/** Every date from `from` to `to`, inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = dayNumber(from); d <= dayNumber(to); d++) out.push(dateOf(d));
  return out;
}

/** Today in UTC: actual cost exists up to the day before. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
