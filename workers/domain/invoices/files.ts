/**
 * An invoice's files: the PDF and the Excel, each named by the invoice number, and the ZIP of
 * several ('Error downloading invoice(s)' when one cannot be made: the caller shows it). The ZIP holds
 * one file per invoice (`INV0000042.pdf`), made in the request (at most MAX_DOWNLOAD_INVOICES; more are
 * made by a queued job, zip-job.ts).
 */
import { makeZip } from 'client-zip';
import { and, asc } from 'drizzle-orm';
import { invoices } from '../../../drizzle/schema';
import { loadLanguages, translate } from '../../platform/i18n';
import { assetReader } from '../../platform/pdf';
import { contentDisposition } from '../../platform/storage';
import { inJson } from '../../platform/db';
import { buildWorkbook, XLSX_CONTENT_TYPE } from '../../platform/xlsx';
import { requirePermission } from '../access/actor';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import { documentOf, invoiceDocument, type InvoiceDocument } from './document';
import { formatMoney, renderInvoicePdf } from './pdf';
import { INVOICE_ACCESS, joinedInvoices, type InvoiceView, type JoinedInvoice } from './queries';
import { MAX_DOWNLOAD_INVOICES, type InvoiceDownloadInput, type InvoiceFormat } from './schema';

export const DOWNLOAD_FAILED = 'invoices.errors.download_failed';

const money = (minor: number) => Math.round(minor) / 100;

/** The Excel of an invoice: its lines, and its figures (header, tax lines, totals, payments). */
export async function invoiceWorkbook(doc: InvoiceDocument): Promise<ArrayBuffer> {
  await loadLanguages([doc.lang]);
  const t = (key: string, p?: Record<string, string | number>) => translate(doc.lang, `invoices.${key}`, p);
  const inv = doc.invoice;
  /** The document's own figures: a credit note's are credits, negative (as on its page and PDF). */
  const own = (minor: number) => money(inv.type === 'credit_note' ? -minor : minor) || 0;
  const figures: { field: string; value: string | number }[] = [
    { field: t('fields.number'), value: inv.number },
    { field: t('fields.type'), value: t(`types.${inv.type}`) },
    { field: t('fields.date'), value: inv.date },
    { field: t('fields.due_at'), value: inv.due_at },
    { field: t('fields.status'), value: t(`statuses.${inv.status}`) },
    { field: t('fields.client'), value: inv.client.name },
    { field: t('fields.campus'), value: inv.campus?.name ?? '' },
    { field: t('fields.order_number'), value: inv.order_number ?? '' },
    { field: t('fields.payment_reference'), value: inv.payment_reference },
    { field: t('fields.currency'), value: inv.currency },
    ...(inv.credit_for ? [{ field: t('fields.credit_for'), value: inv.credit_for.number ?? '' }] : []),
    { field: t('fields.billing_address'), value: doc.bill_to.join(', ') || t('no_billing_address') },
    { field: t('totals.premium'), value: own(inv.insurance_cost_minor) },
    ...doc.tax_lines.map((l) => ({
      field:
        l.kind === 'tax'
          ? `${translate(doc.lang, l.label)}${l.rate_bp != null ? ` (${l.rate_bp / 100} %)` : ''}`
          : `${translate(doc.lang, l.label)} (${l.count})`,
      value: own(l.amount_minor),
    })),
    ...(doc.stamp_duty_not_refunded
      ? [
          {
            field: translate(doc.lang, 'taxes.lines.stamp_duty'),
            value: translate(doc.lang, 'taxes.stamp_duty_not_refunded', {
              count: doc.stamp_duty_not_refunded.count,
              amount: formatMoney(doc.stamp_duty_not_refunded.amount_minor, inv.currency),
            }),
          },
        ]
      : []),
    ...(inv.admin_fee_minor ? [{ field: t('totals.admin_fee'), value: own(inv.admin_fee_minor) }] : []),
    { field: t('totals.total'), value: own(inv.total_minor) },
    { field: t('totals.credited'), value: money(inv.credited_minor) },
    { field: t('totals.paid'), value: money(inv.paid_minor) },
    { field: t('totals.refunded'), value: money(inv.refunded_minor) },
    { field: t('totals.balance'), value: money(inv.balance_minor) },
  ];
  return buildWorkbook([
    {
      name: t('excel.lines_sheet'),
      columns: [
        { header: t('pdf.col_policy'), key: 'policy', width: 14 },
        { header: t('pdf.col_insured'), key: 'insured', width: 28 },
        { header: t('pdf.col_description'), key: 'description', width: 36 },
        { header: t('excel.dates'), key: 'dates', width: 24 },
        { header: t('pdf.col_premium'), key: 'premium', width: 12 },
        { header: t('pdf.col_rate'), key: 'rate', width: 10 },
        { header: t('pdf.col_tax'), key: 'tax', width: 12 },
        { header: t('excel.stamp_duty'), key: 'stamp', width: 12 },
        { header: t('pdf.col_total'), key: 'total', width: 12 },
        { header: t('fields.currency'), key: 'currency', width: 10 },
      ],
      rows: doc.lines.map((l) => ({
        policy: l.policy_number ?? '',
        insured: l.insured ?? '',
        description: l.description,
        dates: l.dates ?? '',
        premium: own(l.unit_minor * l.quantity),
        rate: l.tax_rate_bp == null ? '' : l.tax_rate_bp / 100,
        tax: own(l.tax_minor),
        stamp: own(l.stamp_duty_minor),
        total: own(l.total_minor),
        currency: inv.currency,
      })),
    },
    {
      name: t('excel.invoice_sheet'),
      columns: [
        { header: t('excel.field'), key: 'field', width: 32 },
        { header: t('excel.value'), key: 'value', width: 40 },
      ],
      rows: figures,
    },
    {
      name: t('sections.payments'),
      columns: [
        { header: t('fields.date'), key: 'date', width: 14 },
        { header: t('excel.kind'), key: 'kind', width: 12 },
        { header: t('excel.gateway'), key: 'gateway', width: 16 },
        { header: t('fields.status'), key: 'status', width: 14 },
        { header: t('excel.amount'), key: 'amount', width: 12 },
      ],
      rows: doc.transactions.map((x) => ({
        date: x.paid_on ?? '',
        kind: t(`transaction_kinds.${x.kind}`),
        gateway: t(`gateways.${x.gateway}`),
        status: t(`transaction_statuses.${x.status}`),
        amount: money(x.amount_minor),
      })),
    },
  ]);
}

export interface InvoiceFile {
  filename: string;
  contentType: string;
  body: Uint8Array | ArrayBuffer;
}

/** The PDF or the Excel of an invoice's document, named by its number. */
export async function invoiceFileOf(
  ctx: ActorCtx,
  doc: InvoiceDocument,
  format: InvoiceFormat,
): Promise<InvoiceFile> {
  const name = doc.invoice.number;
  if (format === 'pdf')
    return {
      filename: `${name}.pdf`,
      contentType: 'application/pdf',
      body: await renderInvoicePdf(doc, assetReader(ctx.env.ASSETS), ctx.now),
    };
  return { filename: `${name}.xlsx`, contentType: XLSX_CONTENT_TYPE, body: await invoiceWorkbook(doc) };
}

/** GET invoices/{id}/pdf and /excel: the file named by the invoice number. */
export async function invoiceFile(ctx: ActorCtx, id: string, format: InvoiceFormat): Promise<InvoiceFile> {
  return invoiceFileOf(ctx, await invoiceDocument(ctx, id), format);
}

export function fileResponse(file: InvoiceFile): Response {
  return new Response(file.body as BodyInit, {
    headers: {
      'content-type': file.contentType,
      'content-disposition': contentDisposition(file.filename),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  });
}

/**
 * POST invoices/download: the chosen invoices (in scope; an id that is not the actor's is left out, none
 * at all is not found) as one ZIP of PDFs or Excel files.
 */
export async function downloadInvoices(ctx: ActorCtx, input: InvoiceDownloadInput): Promise<Response> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  if (input.ids.length > MAX_DOWNLOAD_INVOICES)
    throw ValidationFailed.field('ids', msg('invoices.errors.too_many', { max: MAX_DOWNLOAD_INVOICES }));
  const rows = (await joinedInvoices(ctx)
    .where(and(visibleInvoices(ctx.actor), inJson(invoices.public_id, input.ids)))
    .orderBy(asc(invoices.number))) as JoinedInvoice[];
  if (!rows.length) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  const files: { name: string; input: Uint8Array; lastModified: Date }[] = [];
  for (const row of rows) {
    const file = await invoiceFileOf(ctx, await documentOf(ctx, row), input.format);
    files.push({ name: file.filename, input: new Uint8Array(file.body), lastModified: ctx.now });
  }
  return new Response(makeZip(files), {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': contentDisposition(
        `invoices-${input.format === 'pdf' ? 'pdf' : 'excel'}-${ctx.now.toISOString().slice(0, 10)}.zip`,
      ),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  });
}

/** The export's columns: [key, label key, width]. */
export const EXPORT_COLUMNS: [string, string, number][] = [
  ['number', 'fields.number', 14],
  ['type', 'fields.type', 14],
  ['date', 'fields.date', 12],
  ['due_at', 'fields.due_at', 12],
  ['client', 'fields.client', 28],
  ['campus', 'fields.campus', 24],
  ['status', 'fields.status', 14],
  ['due_state', 'fields.due_state', 12],
  ['payment_method', 'fields.payment_method', 18],
  ['currency', 'fields.currency', 10],
  ['total', 'totals.total', 12],
  ['paid', 'totals.paid', 12],
  ['credited', 'totals.credited', 12],
  ['refunded', 'totals.refunded', 12],
  ['balance', 'totals.balance', 12],
  ['payment_reference', 'fields.payment_reference', 22],
];

export function exportRow(r: InvoiceView, t: (key: string) => string): Record<string, unknown> {
  return {
    number: r.number,
    type: t(`types.${r.type}`),
    date: r.date,
    due_at: r.due_at,
    client: r.client.name,
    campus: r.campus?.name ?? '',
    status: t(`statuses.${r.status}`),
    due_state: r.due_state ? t(`statuses.${r.due_state}`) : '',
    payment_method: t(`methods.${r.payment_method}`),
    currency: r.currency,
    // A credit note's total is a credit: negative, as on its page, its PDF and the list.
    total: (r.type === 'credit_note' ? -r.total_minor : r.total_minor) / 100 || 0,
    paid: r.paid_minor / 100,
    credited: r.credited_minor / 100,
    refunded: r.refunded_minor / 100,
    balance: r.balance_minor / 100,
    payment_reference: r.payment_reference,
  };
}
