// The analytics summary as a self-contained HTML email: inline styles (mail clients drop <style>
// often), tables for layout, and every piece of data escaped.
import { escapeHtml } from '../src/domain/text.ts';
import { formatInZone } from '../src/format.ts';
import type { AnalyticsSummary } from '../src/analytics-summary/summary.ts';

const CELL = 'padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:left;';
const HEAD = `${CELL}background:#f3f4f6;font-weight:600;`;

function row(cells: readonly string[], style = CELL): string {
  return `<tr>${cells.map((c) => `<td style="${style}">${escapeHtml(c)}</td>`).join('')}</tr>`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    '<table role="presentation" cellspacing="0" cellpadding="0" style="border-collapse:collapse;margin:12px 0;">',
    row(head, HEAD),
    ...rows.map((r) => row(r)),
    '</table>',
  ].join('\n');
}

/** `zone`: the schedule's, for the time the email was sent. */
export function buildAnalyticsSummaryEmail(
  summary: AnalyticsSummary,
  zone: string,
): { subject: string; html: string } {
  const subject = `${summary.title} (${summary.period})`;
  const body: string[] = [`<h1 style="font-size:20px;margin:0 0 4px;">${escapeHtml(summary.title)}</h1>`];
  if (summary.isEmpty) {
    body.push(
      `<p>No data for ${escapeHtml(summary.period)}. The property recorded nothing in that range, or its data is not processed yet.</p>`,
    );
  } else {
    body.push(
      `<p style="margin:0 0 8px;color:#4b5563;">${escapeHtml(`${summary.period} compared with ${summary.comparedWith}`)}</p>`,
    );
    body.push(
      table(
        ['Metric', 'Value', 'Change', 'Trend'],
        summary.metrics.map((m) => [m.label, m.value, m.change, m.trend]),
      ),
    );
    if (summary.top) {
      body.push(`<h2 style="font-size:16px;margin:16px 0 0;">${escapeHtml(summary.top.title)}</h2>`);
      body.push(
        table(
          ['#', 'Name', 'Value', 'Share'],
          summary.top.rows.map((r, i) => [String(i + 1), r.name, r.value, r.share ?? '']),
        ),
      );
    }
    body.push(`<p style="color:#6b7280;font-size:12px;">${escapeHtml(summary.trendNote)}</p>`);
  }
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title>`,
    '</head>',
    '<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;color:#111827;">',
    ...body,
    `<p style="color:#9ca3af;font-size:12px;">Sent by herald at ${escapeHtml(formatInZone(new Date(summary.generatedAt), zone))}</p>`,
    '</body>',
    '</html>',
  ].join('\n');
  return { subject, html };
}
