/** Markup that is already safe to emit (built by `html`), as opposed to text that must be escaped. */
export class SafeHtml {
  constructor(readonly markup: string) {}
}

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Value): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** Tagged template: every interpolated value is HTML-escaped unless it is itself `html` output. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ""), ""));
}
