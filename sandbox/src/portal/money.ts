/** One formatter per currency: building an Intl.NumberFormat costs far more than using one, and pages format many amounts. */
const formatters = new Map<string, Intl.NumberFormat>();

/** `$1,250.50`: an amount in its currency, for people. */
export function money(amount: number, currency: string): string {
  let format = formatters.get(currency);
  if (!format) formatters.set(currency, (format = new Intl.NumberFormat("en-US", { style: "currency", currency })));
  return format.format(amount);
}
