import type { ReportFields } from "@cloudcost/api/contract";
import type { Attachment } from "../store/outbox";
import type { ReportTable } from "./report-table";

/** RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled. */
const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** RFC 4180 CSV: the header row, then one row per line, CRLF line ends. */
export function toCsv(table: ReportTable): Buffer {
  const lines = [table.columns, ...table.rows].map((row) => row.map(csvField).join(","));
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
}

/**
 * A one-page-per-screenful PDF (pdfkit): title, caption and the table in a fixed-width font. pdfkit and its fonts are
 * loaded on the first PDF, not with the sandbox: every `cloudcost-sandbox` command and server loads this module, few
 * render a PDF, and loading them cost each process ~0.04 CPU s (Node 26, compile cache on).
 */
export async function toPdf(table: ReportTable): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: table.title, Creator: "cloudcost sandbox" } });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.font("Helvetica-Bold").fontSize(16).text(table.title);
    doc.moveDown(0.3).font("Helvetica").fontSize(9).text(table.caption);
    doc.moveDown();
    const widths = table.columns.map((c, i) => Math.max(c.length, ...table.rows.map((r) => (r[i] ?? "").length)));
    const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ");
    doc.font("Courier-Bold").fontSize(8).text(line(table.columns));
    doc.font("Courier");
    for (const row of table.rows) doc.text(line(row));
    doc.end();
  });
}

/** The file a report run attaches: `<name>-<from>-<to>.csv|pdf`. */
export async function reportAttachment(
  report: Pick<ReportFields, "name" | "format">,
  table: ReportTable,
  from: string,
  to: string,
): Promise<Attachment> {
  const base =
    report.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "report";
  const bytes = report.format === "pdf" ? await toPdf(table) : toCsv(table);
  return {
    filename: `${base}-${from}-${to}.${report.format}`,
    contentType: report.format === "pdf" ? "application/pdf" : "text/csv; charset=utf-8",
    size: bytes.length,
    bytes,
  };
}
