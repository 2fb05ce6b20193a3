import { KNOWN_SERVICES, providerOfService, type FieldError, type Provider } from "@cloudcost/api/contract";

const PROVIDER_NAMES: Readonly<Record<Provider, string>> = { aws: "AWS", azure: "Azure" };

/** A name as a person might mistype it: case, spaces and punctuation ignored (`AmazonEC2` ~ `Amazon EC2`). */
const folded = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Levenshtein distance, for names close enough to suggest. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The known services a name is close to (same letters and digits, one containing the other, or a few typos), closest first. */
export function closeServices(name: string, candidates: readonly string[]): string[] {
  const typed = folded(name);
  if (typed === "") return [];
  return candidates
    .map((service) => {
      const known = folded(service);
      const d = known.includes(typed) || typed.includes(known) ? Math.abs(known.length - typed.length) / 100 : distance(typed, known);
      return { service, d };
    })
    .filter(({ d }) => d <= Math.max(2, Math.floor(typed.length / 4)))
    .sort((x, y) => x.d - y.d)
    .map(({ service }) => service);
}

/**
 * Why spend on `service` cannot be booked on an account of `provider`, or undefined when it can: the cost
 * data names only the contract's known services, each of one provider, and every budget, report and cost
 * read filters on those names — spend under any other name would count in no service, region or tag filter.
 */
export function serviceProblem(provider: Provider, accountId: string, service: string, path: string): FieldError | undefined {
  const own = KNOWN_SERVICES[provider];
  if (own.includes(service)) return undefined;
  const label = PROVIDER_NAMES[provider];
  if ([...KNOWN_SERVICES.aws, ...KNOWN_SERVICES.azure].includes(service)) {
    const other = PROVIDER_NAMES[providerOfService(service)];
    return {
      path,
      code: "service_of_other_provider",
      message: `is an ${other} service, and ${accountId} is an ${label} account (its services: ${own.join(", ")})`,
    };
  }
  const close = closeServices(service, own);
  return {
    path,
    code: "unknown_service",
    message: close.length
      ? `is not a service the cost data names; did you mean ${close.map((s) => `"${s}"`).join(" or ")}?`
      : `is not a service the cost data names (${label} services: ${own.join(", ")})`,
  };
}
