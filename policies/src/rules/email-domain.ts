import type { Maybe } from "../inputs/raw";

/** The domain part of a normalised (lower-cased) e-mail address. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1);
}

/** An address is allowed when its domain is an allowed domain or a subdomain of one; an empty list allows any. */
export function isAllowedAddress(address: string, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  const domain = domainOf(address);
  return allowedDomains.some((allowed) => {
    const a = allowed.toLowerCase();
    return domain === a || domain.endsWith(`.${a}`);
  });
}

/**
 * Messages for recipients outside the allowed domains. They name the position and the domain, never the
 * whole address: an input may be a secret, and Analyze receives secrets already unwrapped.
 */
export function disallowedRecipientMessages(recipients: readonly Maybe<string>[], allowedDomains: readonly string[]): string[] {
  const messages: string[] = [];
  recipients.forEach((r, i) => {
    if (typeof r === "string" && !isAllowedAddress(r, allowedDomains)) {
      messages.push(
        `recipients[${i}] uses the domain "${domainOf(r)}", which is not allowed: use an address in ${allowedDomains.join(", ")}`,
      );
    }
  });
  return messages;
}
