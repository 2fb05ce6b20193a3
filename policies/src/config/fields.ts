import { z } from "@cloudcost/api";

/** Configuration fields shared by several policies. */

/** A DNS domain name, compared case-insensitively; plain patterns only (the CLI's validator has no look-arounds). */
export const EmailDomain = z
  .string()
  .max(253)
  .regex(/^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, "must be a domain name such as example.com");

export const allowedEmailDomains = () =>
  z.array(EmailDomain).default([]).describe("E-mail domains recipients may use; a domain also allows its subdomains. Empty: any domain.");

/** ISO 4217 code as a config key or value; the service checks the code itself. */
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code in upper case, e.g. USD");

/** An amount per month for each currency: amounts are only ever compared within one currency. */
export const perCurrencyAmounts = (defaults: Record<string, number>, description: string) =>
  z.record(CurrencyCode, z.number().gt(0)).default(defaults).describe(description);
