import timeZones from "./time-zones.json";
import { z } from "./zod";

/** Scopes (decision, see README "Contract decisions"): `read` for every GET, `write` for every change, `run` to start a scan. */
export const Scope = z.enum(["read", "write", "run"]).openapi("Scope");
export type Scope = z.infer<typeof Scope>;
export const ALL_SCOPES: readonly Scope[] = Scope.options;

export const Timestamp = z
  .string()
  .datetime({ offset: true })
  .openapi({ description: "RFC 3339 timestamp, UTC", example: "2026-11-22T09:30:00.000Z" });

/** A calendar date in the form YYYY-MM-DD that exists in the proleptic Gregorian calendar. */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date in the form YYYY-MM-DD")
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    "is not a real calendar date",
  )
  .openapi({ example: "2026-10-01", format: "date" });

export const Provider = z.enum(["aws", "azure"]).openapi("CloudProvider");
export type Provider = z.infer<typeof Provider>;

/** AWS account IDs are exactly 12 digits. */
export const AwsAccountId = z
  .string()
  .regex(/^\d{12}$/, "must be a 12-digit AWS account ID")
  .openapi({ example: "123456789012" });
/** Azure subscription IDs are GUIDs; they compare case-insensitively, so the contract lower-cases them. */
export const AzureSubscriptionId = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be an Azure subscription ID (a GUID)")
  .transform((s) => s.toLowerCase())
  .openapi({ example: "0b1f6471-1bf0-4dda-aec3-cb9272f09590" });

export const Email = z.string().trim().toLowerCase().email("must be an e-mail address").max(254).openapi({
  example: "finops@example.com",
  description: "an e-mail address; surrounding whitespace is removed and it is stored in lower case",
});

/** Money in a currency's major unit, as the service reports it. */
export const Money = z.number().finite().openapi({ example: 1250.5 });

/**
 * Whole cents: `n` is a whole number of hundredths, up to the rounding a double carries. The tolerance is
 * relative (a few units in the last place of `n * 100`, as zod's own `multipleOf` allows), so every
 * `cents / 100` up to 10^12 passes and float noise like 0.1 + 0.2 does too, while any real third decimal
 * fails, however small the amount (0.000000001 is 1e-7 cents away from 0: refused). A fixed absolute
 * tolerance let tiny amounts through, and one on `n * 100` refused valid amounts above about 10^8.
 */
function hasAtMostTwoDecimals(n: number): boolean {
  const hundredths = n * 100;
  return Math.abs(hundredths - Math.round(hundredths)) <= 4 * Number.EPSILON * Math.max(1, Math.abs(hundredths));
}

/**
 * Money a client sends: at most two decimal places, stated in the document as `multipleOf: 0.01`. A
 * validator must compare decimally: 1.15 / 0.01 is not an integer in binary floating point, so e.g. Ajv
 * needs its `multipleOfPrecision` option to accept it.
 */
export const TwoDecimalMoney = Money.refine(hasAtMostTwoDecimals, "must have at most two decimal places").openapi({
  multipleOf: 0.01,
  description: "at most two decimal places (`multipleOf: 0.01`, compared decimally)",
});

/**
 * ISO 4217 alphabetic codes the service accepts: the list of ICU 74 (Node 20), frozen here so that the
 * document and the validation do not change with the runtime's ICU data.
 */
export const CURRENCY_CODES: readonly string[] = (
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY " +
  "COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR " +
  "ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP " +
  "MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG " +
  "SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST " +
  "XAF XCD XCG XDR XOF XPF XSU YER ZAR ZMW ZWG ZWL"
).split(" ");
const CURRENCY_SET: ReadonlySet<string> = new Set(CURRENCY_CODES);
export const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code in upper case, e.g. USD")
  .refine((c) => CURRENCY_SET.has(c), "is not an ISO 4217 currency code")
  .openapi({ example: "USD", enum: [...CURRENCY_CODES], description: "ISO 4217 alphabetic code, upper case" });

/**
 * Time zones (decision, issue 37): every name the IANA time zone database gives, a zone or a link,
 * canonical or alias (`Asia/Kolkata` and `Asia/Calcutta`, `Europe/Kyiv` and `Europe/Kiev`), spelled exactly
 * as the database does, and kept as written. The list is one file for every door (`time-zones.json`,
 * written by `npm run time-zones` from moment-timezone's copy of the latest tz release; the Go provider
 * holds a copy to it), not the runtime's ICU: `Intl` lists CLDR's older canonical names only (no
 * `Asia/Kolkata`) and accepts names the database does not give (`PST`, `IST`, any case).
 */
export const TIME_ZONES: readonly string[] = timeZones.names;
const TIME_ZONE_SET: ReadonlySet<string> = new Set(TIME_ZONES);
/** The IANA link targets: the zone an alias stands for (a runtime whose ICU predates a new name computes with its target). */
export const TIME_ZONE_LINKS: Readonly<Record<string, string>> = timeZones.links;
export const TimeZone = z
  .string()
  .refine((tz) => TIME_ZONE_SET.has(tz), "must be an IANA time-zone name, e.g. Europe/Berlin (case-sensitive)")
  .openapi({
    example: "Europe/Berlin",
    description: `a name of the IANA time zone database (release ${timeZones.release}): a zone or a link, e.g. \`Europe/Berlin\`, \`Asia/Kolkata\` or its older \`Asia/Calcutta\`, or \`UTC\`; case-sensitive, kept as written`,
  });

/**
 * A name: surrounding whitespace is removed, then 1 to `max` characters must remain. JSON Schema cannot
 * trim, so the document states the blank rule as a pattern (a non-whitespace character somewhere) and the
 * lengths as sent without padding.
 *
 * Decisions (issue 37), one definition for every door: whitespace is ECMAScript's (WhiteSpace and
 * LineTerminator, ECMA-262 §12.2–12.3: what `String.prototype.trim` removes, U+FEFF included, U+0085 not);
 * a character is a Unicode code point, as zod's `max` and JSON Schema's `maxLength` count (an emoji outside
 * the Basic Multilingual Plane is one character, not two UTF-16 units).
 */
/** The rule of {@link TrimmedName} as the document says it. */
export const nameRule = (max: number) =>
  `must not be blank; surrounding whitespace (JavaScript's \`trim\`: U+FEFF included) is removed, then 1 to ${max} characters (Unicode code points) remain`;

export function TrimmedName(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .openapi({ pattern: "\\S", description: nameRule(max) });
}

/** RFC 9110 §5.6.2 visible ASCII (VCHAR), 1–255 characters: a key a client can resend byte for byte. */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 visible ASCII characters")
  .openapi({
    pattern: "^[!-~]{1,255}$",
    description:
      "a retry with the same key, method, path and body within 24 hours returns the first response again (`Idempotent-Replayed: true`); the same key with another request is a 422",
    example: "5f8d0d55-0b8a-4a8e-9a3c-1f2e3d4c5b6a",
  });

/** A refinement for lists that are sets: no two elements share `key`. */
export function uniqueBy<T>(key: (t: T) => string): (list: readonly T[]) => boolean {
  return (list) => new Set(list.map(key)).size === list.length;
}

/** Recipients of an alert or a report: e-mail addresses, at most {@link MAX_RECIPIENTS}. */
export const MAX_RECIPIENTS = 50;
const RECIPIENTS = { uniqueItems: true, description: "e-mail addresses, each at most once (compared case-insensitively, after trimming)" };
/** A set of recipients (alerts may have none and default to none; a report needs at least one). */
export const recipientSet = <S extends z.ZodType<string[], string[] | undefined>>(list: S) =>
  list
    .refine(
      uniqueBy((e: string) => e),
      "must not contain the same address twice",
    )
    .openapi(RECIPIENTS);

/** An object's ID: `<prefix>_` and 10 to 40 lower-case letters or digits (every door checks it before sending: issue 37). */
export const ResourceId = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{10,40}$`), `must be an ID starting with ${prefix}_`);

/** The longest request body the API accepts; a longer one is answered 413 (RFC 9110 §15.5.14). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

// ---- Paging (decision: opaque cursor, limit 1..200, default 50) ----
export const MAX_PAGE_LIMIT = 200;
export const DEFAULT_PAGE_LIMIT = 50;
export const PageQuery = z
  .object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PAGE_LIMIT)
      .default(DEFAULT_PAGE_LIMIT)
      .openapi({ description: `1..${MAX_PAGE_LIMIT}, default ${DEFAULT_PAGE_LIMIT}` }),
    cursor: z.string().min(1).max(200).optional().openapi({ description: "`nextCursor` of the previous page" }),
  })
  .strict();
export type PageQuery = z.infer<typeof PageQuery>;

export function page<T extends z.ZodTypeAny>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      nextCursor: z.string().nullable().openapi({ description: "pass as `cursor` to read the next page; null on the last page" }),
    })
    .openapi(name);
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// ---- Errors: RFC 9457 problem details ----
export const FieldError = z
  .object({
    path: z.string().openapi({ description: "where the problem is: `body.thresholds.1.percent`, `query.from`, …" }),
    message: z.string(),
    code: z.string().openapi({ description: "machine-readable reason, e.g. `too_small`, `invalid_format`, `unknown_account`" }),
  })
  .openapi("FieldError");
export type FieldError = z.infer<typeof FieldError>;

export const Problem = z
  .object({
    type: z.string().openapi({ description: "URI identifying the problem type", example: "https://cloudcost.dev/problems/validation" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    requestId: z.string().openapi({ description: "also sent as the `X-Request-Id` header; quote it in support requests" }),
    errors: z.array(FieldError).optional().openapi({ description: "field-level failures (validation problems only)" }),
  })
  .openapi("Problem");
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_TYPE_BASE = "https://cloudcost.dev/problems/";

/**
 * An input object's fields as a response describes them: a field with a default is always present in
 * what the service returns, so the default (which makes it optional to send) is removed.
 */
export function asReturned<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: S[K] extends z.ZodDefault<infer T> ? T : S[K] } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v])) as never;
}
