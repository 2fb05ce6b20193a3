import type { FieldError, z } from "@cloudcost/api/contract";
import { ServiceError } from "../errors";
import { fieldErrors } from "../validation";
import { html, type SafeHtml } from "../web/html";

/** A submitted (or prefilled) form: the values to show again and the errors to show next to them. */
export interface FormState {
  values: Readonly<Record<string, unknown>>;
  /** Paths relative to the input object (`name`, `thresholds.0.percent`), messages exactly as the API words them. */
  errors: readonly FieldError[];
}

export const blankForm = (values: Readonly<Record<string, unknown>> = {}): FormState => ({ values, errors: [] });

/** The first string value of a form field ("" when absent). */
export function text(values: Readonly<Record<string, unknown>>, name: string): string {
  const value = values[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : "";
}

/** A text field as the contract takes it: absent stays absent (so the schema says "required"), anything else as typed. */
export const optionalText = (values: Readonly<Record<string, unknown>>, name: string): string | undefined =>
  typeof values[name] === "string" ? text(values, name) : undefined;

/** A number field: blank is absent; a decimal number is a number; anything else stays text for the schema to refuse. */
export function numberField(values: Readonly<Record<string, unknown>>, name: string): number | string | undefined {
  const raw = text(values, name).trim();
  if (raw === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
}

/** One entry per non-blank line (or comma): how a person types a list of e-mail addresses. */
export const listField = (values: Readonly<Record<string, unknown>>, name: string): string[] =>
  text(values, name)
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");

/**
 * Parses a form's candidate input with the contract's own schema (the API's request body or query): the
 * same rules and messages as the API, paths without the API's `body.`/`query.` prefix.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  candidate: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldError[] } {
  const result = schema.safeParse(candidate);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: withoutPrefix(fieldErrors(result.error.issues, "body")) };
}

const withoutPrefix = (errors: readonly FieldError[]): FieldError[] =>
  errors.map((e) => ({ ...e, path: e.path.replace(/^(body|query|params)\.?/, "") }));

/** What a service call refused (duplicate name, unknown group…), as form errors; anything else is not the form's fault. */
export function serviceErrors(error: unknown): { status: number; errors: FieldError[] } {
  if (!(error instanceof ServiceError) || error.status >= 500) throw error;
  // The problem's detail first (it says what to do), then each field's own message, as the API answers them.
  return { status: error.status, errors: [{ path: "", code: error.slug, message: error.message }, ...withoutPrefix(error.errors ?? [])] };
}

const idOf = (key: string): string => `f-${key.replace(/[^A-Za-z0-9]/g, "-")}`;

/** Messages for the field `key`: errors on it or inside it (`recipients.2` belongs to `recipients`). */
function messagesFor(state: FormState, key: string): string[] {
  // Distinct messages only: a list of 500 bad addresses says "must be an e-mail address" once beside it.
  return [...new Set(state.errors.filter((e) => e.path === key || e.path.startsWith(`${key}.`)).map((e) => e.message))];
}

/** Problems listed at the top at most; a form can carry thousands (one per list entry), the page stays small. */
const SUMMARY_LIMIT = 20;

function describedError(state: FormState, key: string): { attrs: SafeHtml; message: SafeHtml } {
  const messages = messagesFor(state, key);
  if (messages.length === 0) return { attrs: html``, message: html`` };
  return {
    attrs: html` aria-invalid="true" aria-describedby="${idOf(key)}-error"`,
    message: html`<span class="field-error" id="${idOf(key)}-error">${messages.join("; ")}</span>`,
  };
}

interface Control {
  /** Form field name; also the error path it shows unless `errorKey` says otherwise. */
  name: string;
  label: string;
  errorKey?: string;
  hint?: string;
}

const hintOf = (c: Control): SafeHtml => (c.hint ? html` <small>${c.hint}</small>` : html``);

export function inputField(
  state: FormState,
  c: Control & { type?: "text" | "email" | "url" | "date" | "time"; inputmode?: "decimal" | "numeric"; required?: boolean },
): SafeHtml {
  const e = describedError(state, c.errorKey ?? c.name);
  return html`<div class="field"><label for="${idOf(c.name)}">${c.label}${hintOf(c)}</label><input id="${idOf(c.name)}" name="${c.name}" type="${c.type ?? "text"}"${c.inputmode ? html` inputmode="${c.inputmode}"` : ""}${c.required ? html` required` : ""} value="${text(state.values, c.name)}"${e.attrs}>${e.message}</div>`;
}

export function selectField(state: FormState, c: Control & { options: readonly (readonly [string, string])[] }): SafeHtml {
  const e = describedError(state, c.errorKey ?? c.name);
  const current = text(state.values, c.name);
  return html`<div class="field"><label for="${idOf(c.name)}">${c.label}${hintOf(c)}</label><select id="${idOf(c.name)}" name="${c.name}"${e.attrs}>${c.options.map(
    ([value, label]) =>
      value === current ? html`<option value="${value}" selected>${label}</option>` : html`<option value="${value}">${label}</option>`,
  )}</select>${e.message}</div>`;
}

export function textareaField(state: FormState, c: Control): SafeHtml {
  const e = describedError(state, c.errorKey ?? c.name);
  return html`<div class="field"><label for="${idOf(c.name)}">${c.label}${hintOf(c)}</label><textarea id="${idOf(c.name)}" name="${c.name}" rows="3"${e.attrs}>${text(state.values, c.name)}</textarea>${e.message}</div>`;
}

export function checkboxField(state: FormState, c: Control): SafeHtml {
  const checked = text(state.values, c.name) !== "";
  return html`<div class="field"><label><input type="checkbox" name="${c.name}" value="on"${checked ? html` checked` : ""}> ${c.label}</label></div>`;
}

/** Every problem at the top (announced), each with the field it belongs to; the same messages also stand next to their fields. */
export function errorSummary(state: FormState, outcome = "The form was not saved."): SafeHtml {
  if (state.errors.length === 0) return html``;
  const more = state.errors.length - SUMMARY_LIMIT;
  return html`<div class="error panel" role="alert"><p><strong>${outcome}</strong> Correct the fields below:</p><ul>${state.errors
    .slice(0, SUMMARY_LIMIT)
    .map(
      (e) => html`<li>${e.path === "" ? "" : html`<code>${e.path}</code>: `}${e.message}</li>`,
    )}${more > 0 ? html`<li>and ${more} more</li>` : ""}</ul></div>`;
}
