import { html, type SafeHtml } from "../web/html";

/** A header cell with no visible text (a column of buttons), still named for screen readers. */
export const ACTIONS = Symbol("actions");

/**
 * A table that becomes one card per row on a phone: each cell carries its column's name (`data-label`),
 * which the layout's narrow-screen rule shows before the value instead of the header row. The markup stays a
 * real table with `scope="col"` headers, so screen readers announce the same either way.
 */
export function dataTable(
  headers: readonly (string | typeof ACTIONS)[],
  rows: readonly (readonly (SafeHtml | string)[])[],
  /** `cards: false` keeps a narrow table (a few short columns) a table on a phone too. */
  options: { cards?: boolean } = {},
): SafeHtml {
  // An actions cell has no label: its buttons name themselves.
  const label = (h: string | typeof ACTIONS | undefined): string => (h === ACTIONS || h === undefined ? "" : h);
  return html`<table${options.cards === false ? "" : html` class="cards"`}><thead><tr>${headers.map((h) =>
    h === ACTIONS ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : html`<th scope="col">${h}</th>`,
  )}</tr></thead><tbody>${rows.map(
    (cells) => html`<tr>${cells.map((cell, i) => html`<td data-label="${label(headers[i])}">${cell}</td>`)}</tr>`,
  )}</tbody></table>`;
}
