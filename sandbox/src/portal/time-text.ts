import { html, type SafeHtml } from "../web/html";

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 hours ago", "in 2 days", "just now": how far `ms` is from `now`, in the largest whole unit. */
export function relativeTime(ms: number, now: number): string {
  const delta = ms - now;
  for (const [unit, size] of UNITS) if (Math.abs(delta) >= size) return RELATIVE.format(Math.trunc(delta / size), unit);
  return "just now";
}

/** A time for people, with the exact ISO 8601 time in the tooltip and in `datetime` for machines. */
export function timeText(ms: number | null, now: number, never = "never"): SafeHtml {
  if (ms === null) return html`${never}`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${relativeTime(ms, now)}</time>`;
}
