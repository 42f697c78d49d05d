/**
 * An invoice (or credit note) as an A4 PDF: the company's letterhead, the billing address, the header,
 * the lines (as many pages as they need, the column heads repeated), the tax lines and totals, the
 * payments and refunds, and the bank details with the payment reference. Names print in any script
 * (platform/pdf.ts embeds the fonts the characters need).
 */
import type { PDFFont, PDFPage, RGB, StandardFonts } from '@cantoo/pdf-lib';
import { loadLanguages, translate } from '../../platform/i18n';
import { britishDate } from '../formats';
import { FastText, PdfWriter, rgb, runsWidth, type AssetReader, type FontWeight } from '../../platform/pdf';
import type { InvoiceDocument } from './document';

const A4 = { w: 595.28, h: 841.89 };
const INK = rgb(0.09, 0.13, 0.2);
const MUTED = rgb(0.36, 0.4, 0.47);
const BRAND = rgb(0.07, 0.25, 0.45);
const LINE = rgb(0.78, 0.81, 0.86);
const LEFT = 42;
const RIGHT = A4.w - 42;
const BOTTOM = 56;

const ukDate = (value: string | Date | null | undefined) => britishDate(value, '—');

export function formatMoney(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.round(minor));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${currency} ${whole}.${String(abs % 100).padStart(2, '0')}`;
}

const rate = (bp: number | null) => (bp == null ? '' : `${(bp / 100).toFixed(bp % 100 ? 2 : 0)} %`);

interface TextOpts {
  size: number;
  weight?: FontWeight;
  color?: RGB;
  maxWidth?: number;
  align?: 'left' | 'right';
  /** Figures and codes (ASCII): drawn with the standard Helvetica, measured from its metrics. */
  plain?: boolean;
}

/** Wide characters (CJK and the like) take up to a full em; others well under 0.7 em. */
const WIDE = /[\u1100-\uffff]/;

class Layout {
  page!: PDFPage;
  y = 0;
  /** The runs of each text drawn (names and descriptions repeat across lines: cut once). */
  private cache = new Map<string, Awaited<ReturnType<PdfWriter['runs']>>>();
  plainFonts!: Record<FontWeight, PDFFont>;
  constructor(
    readonly pdf: PdfWriter,
    readonly t: (key: string, p?: Record<string, string | number>) => string,
    readonly footer: string,
  ) {}

  newPage() {
    this.page = this.pdf.doc.addPage([A4.w, A4.h]);
    this.fast.begin(this.page);
    this.y = A4.h - 48;
  }

  async fonts() {
    this.plainFonts = {
      regular: await this.pdf.doc.embedFont('Helvetica' as StandardFonts),
      bold: await this.pdf.doc.embedFont('Helvetica-Bold' as StandardFonts),
    };
  }

  private async runsOf(value: string, weight: FontWeight) {
    const key = `${weight}\u0000${value}`;
    let runs = this.cache.get(key);
    if (!runs) {
      runs = await this.pdf.runs(value, weight);
      this.cache.set(key, runs);
    }
    return runs;
  }

  async text(value: string, x: number, y: number, o: TextOpts): Promise<number> {
    if (!value) return 0;
    if (o.plain && /^[\x20-\x7e]*$/.test(value)) {
      const font = this.plainFonts[o.weight ?? 'regular'];
      const width = font.widthOfTextAtSize(value, o.size);
      const at = o.align === 'right' ? x - width : x;
      this.page.drawText(value, { x: at, y, size: o.size, font, color: o.color ?? INK });
      return width;
    }
    const weight = o.weight ?? 'regular';
    const runs = await this.runsOf(value, weight);
    let size = o.size;
    // Left-aligned text surely narrower than its room is not measured (measuring lays the text out).
    const surelyFits =
      o.align !== 'right' &&
      (!o.maxWidth || [...value].length * o.size * (WIDE.test(value) ? 1.05 : 0.72) <= o.maxWidth);
    let width = surelyFits ? 0 : runsWidth(runs, size);
    if (o.maxWidth && width > o.maxWidth) {
      // Shrink (to 70 %), then cut with an ellipsis, estimated from the widths rather than char by char.
      size = Math.max(o.size * 0.7, (o.size * o.maxWidth) / width);
      width = runsWidth(runs, size);
      if (width > o.maxWidth) {
        const chars = [...value];
        let keep = Math.max(1, Math.floor((chars.length * o.maxWidth) / width) - 1);
        while (
          keep > 1 &&
          runsWidth(await this.runsOf(`${chars.slice(0, keep).join('')}…`, weight), size) > o.maxWidth
        )
          keep -= 1;
        return this.text(`${chars.slice(0, keep).join('')}…`, x, y, { ...o, size, maxWidth: undefined });
      }
    }
    let at = o.align === 'right' ? x - width : x;
    for (const r of runs) {
      this.page.drawText(r.text, { x: at, y, size, font: r.font, color: o.color ?? INK });
      at += r.font.widthOfTextAtSize(r.text, size);
    }
    return width;
  }

  /** Writes straight into the page's content stream (the lines table: thousands of cells). */
  readonly fast = new FastText();

  /**
   * `text` with the same placement, shrinking and ellipsis as `text`, written through `fast`: one
   * operator string per page instead of a pdf-lib call per cell.
   */
  async cell(value: string, x: number, y: number, o: TextOpts): Promise<void> {
    if (!value) return;
    const color = o.color ?? INK;
    const rgbOf: [number, number, number] = [color.red, color.green, color.blue];
    if (o.plain && /^[\x20-\x7e]*$/.test(value)) {
      const font = this.plainFonts[o.weight ?? 'regular'];
      const at = o.align === 'right' ? x - font.widthOfTextAtSize(value, o.size) : x;
      this.fast.draw(font, value, at, y, o.size, rgbOf);
      return;
    }
    const weight = o.weight ?? 'regular';
    let runs = await this.runsOf(value, weight);
    let size = o.size;
    let width = this.fast.runsWidth(runs, size);
    if (o.maxWidth && width > o.maxWidth) {
      size = Math.max(o.size * 0.7, (o.size * o.maxWidth) / width);
      width = this.fast.runsWidth(runs, size);
      if (width > o.maxWidth) {
        const chars = [...value];
        let keep = Math.max(1, Math.floor((chars.length * o.maxWidth) / width) - 1);
        while (
          keep > 1 &&
          this.fast.runsWidth(await this.runsOf(`${chars.slice(0, keep).join('')}…`, weight), size) >
            o.maxWidth
        )
          keep -= 1;
        runs = await this.runsOf(`${chars.slice(0, keep).join('')}…`, weight);
        width = this.fast.runsWidth(runs, size);
      }
    }
    let at = o.align === 'right' ? x - width : x;
    for (const r of runs) {
      this.fast.draw(r.font, r.text, at, y, size, rgbOf);
      at += this.fast.width(r.font, r.text, size);
    }
  }

  rule(y: number, color = LINE) {
    this.page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.6, color });
  }

  /** Room for `height` more points on this page, else a new page (with `onNew` drawn at its top). */
  async need(height: number, onNew?: () => Promise<void>) {
    if (this.y - height >= BOTTOM) return;
    this.newPage();
    if (onNew) await onNew();
  }
}

/** Columns of the lines table: x positions (right edge for the figures). */
const PLAIN_COL = {
  policy: LEFT,
  insured: LEFT + 62,
  insuredWidth: 112,
  description: LEFT + 190,
  unit: 395,
  tax: 450,
  rate: 488,
  stamp: null as number | null,
  total: RIGHT,
};
/**
 * With a stamp-duty column (an invoice whose lines carry stamp duty: their totals include it, so it is
 * shown beside premium and tax and each line adds up), taken from the insured's and the figures' room.
 */
const COL_STAMP: typeof PLAIN_COL = {
  ...PLAIN_COL,
  insuredWidth: 94,
  description: LEFT + 160,
  unit: 360,
  tax: 405,
  rate: 437,
  stamp: 492,
};

export async function renderInvoicePdf(
  doc: InvoiceDocument,
  read: AssetReader,
  now: Date,
): Promise<Uint8Array> {
  const lang = doc.lang;
  await loadLanguages([lang]);
  const t = (key: string, p?: Record<string, string | number>) => translate(lang, `invoices.${key}`, p);
  const inv = doc.invoice;
  const credit = inv.type === 'credit_note';
  const title = credit ? t('pdf.credit_note') : t('pdf.invoice');
  const pdf = await PdfWriter.create(read, {
    title: `${title} ${inv.number}`,
    author: doc.company.name,
    now,
  });
  const L = new Layout(pdf, t, `${doc.company.name} · ${title} ${inv.number}`);
  await L.fonts();
  const cur = inv.currency;
  const m = (minor: number) => formatMoney(minor, cur);
  /** The document's own figures: a credit note's are credits, printed negative (as on its page). */
  const own = (minor: number) => m(credit && minor ? -minor : minor);
  L.newPage();

  // Letterhead: the company on the left, the document's title and number on the right.
  await L.text(doc.company.name, LEFT, L.y, { size: 15, weight: 'bold', color: BRAND, maxWidth: 300 });
  await L.text(title, RIGHT, L.y, { size: 20, weight: 'bold', align: 'right' });
  let y = L.y - 16;
  for (const line of doc.company.address) {
    await L.text(line, LEFT, y, { size: 9, color: MUTED, maxWidth: 300 });
    y -= 11;
  }
  if (doc.company.registration_number) {
    await L.text(t('pdf.registration', { number: doc.company.registration_number }), LEFT, y, {
      size: 9,
      color: MUTED,
    });
    y -= 11;
  }
  // The header facts, right.
  const facts: [string, string][] = [
    [t('fields.number'), inv.number],
    [t('fields.date'), ukDate(inv.date)],
    ...(credit ? [] : ([[t('fields.due_at'), ukDate(inv.due_at)]] as [string, string][])),
    ...(inv.credit_for
      ? ([[t('fields.credit_for'), inv.credit_for.number ?? '']] as [string, string][])
      : []),
    ...(inv.order_number ? ([[t('fields.order_number'), inv.order_number]] as [string, string][]) : []),
    ...(credit ? [] : ([[t('fields.payment_reference'), inv.payment_reference]] as [string, string][])),
    [t('fields.status'), t(`statuses.${inv.status}`)],
  ];
  let fy = L.y - 22;
  for (const [label, value] of facts) {
    await L.text(label, 345, fy, { size: 9, color: MUTED, maxWidth: 95 });
    await L.text(value, RIGHT, fy, { size: 9, weight: 'bold', align: 'right', maxWidth: 110 });
    fy -= 12;
  }
  L.y = Math.min(y, fy) - 14;

  // Bill to.
  await L.text(t('pdf.bill_to'), LEFT, L.y, { size: 9, weight: 'bold', color: BRAND });
  L.y -= 13;
  await L.text(inv.client.name, LEFT, L.y, { size: 10, weight: 'bold', maxWidth: 330 });
  L.y -= 12;
  if (inv.campus) {
    await L.text(inv.campus.name ?? '', LEFT, L.y, { size: 9, maxWidth: 330 });
    L.y -= 12;
  }
  if (doc.bill_to.length)
    for (const line of doc.bill_to) {
      await L.text(line, LEFT, L.y, { size: 9, maxWidth: 330 });
      L.y -= 11;
    }
  else {
    await L.text(t('no_billing_address'), LEFT, L.y, { size: 9, color: MUTED });
    L.y -= 11;
  }
  if (inv.void_reason || inv.voided_at) {
    L.y -= 6;
    await L.text(t('pdf.void_notice', { reason: inv.void_reason ?? '' }), LEFT, L.y, {
      size: 11,
      weight: 'bold',
      color: rgb(0.7, 0.1, 0.1),
      maxWidth: RIGHT - LEFT,
    });
    L.y -= 12;
  }
  L.y -= 14;

  // Lines.
  const COL = doc.lines.some((l) => l.stamp_duty_minor !== 0) ? COL_STAMP : PLAIN_COL;
  const head = async () => {
    await L.cell(t('pdf.col_policy'), COL.policy, L.y, { size: 8, weight: 'bold', color: MUTED });
    await L.cell(t('pdf.col_insured'), COL.insured, L.y, { size: 8, weight: 'bold', color: MUTED });
    await L.cell(t('pdf.col_description'), COL.description, L.y, { size: 8, weight: 'bold', color: MUTED });
    await L.cell(t('pdf.col_premium'), COL.unit, L.y, {
      size: 8,
      weight: 'bold',
      color: MUTED,
      align: 'right',
    });
    await L.cell(t('pdf.col_tax'), COL.tax, L.y, { size: 8, weight: 'bold', color: MUTED, align: 'right' });
    await L.cell(t('pdf.col_rate'), COL.rate, L.y, { size: 8, weight: 'bold', color: MUTED, align: 'right' });
    if (COL.stamp != null)
      await L.cell(translate(lang, 'taxes.lines.stamp_duty'), COL.stamp, L.y, {
        size: 8,
        weight: 'bold',
        color: MUTED,
        align: 'right',
      });
    await L.cell(t('pdf.col_total'), COL.total, L.y, {
      size: 8,
      weight: 'bold',
      color: MUTED,
      align: 'right',
    });
    L.rule(L.y - 4);
    L.y -= 15;
  };
  await head();
  for (const line of doc.lines) {
    await L.need(12, head);
    await L.cell(line.policy_number ?? '', COL.policy, L.y, { size: 8, maxWidth: 58, plain: true });
    await L.cell(line.insured ?? '', COL.insured, L.y, { size: 8, maxWidth: COL.insuredWidth });
    await L.cell(line.description, COL.description, L.y, {
      size: 8,
      maxWidth: COL.unit - 58 - COL.description,
    });
    await L.cell(own(line.unit_minor * line.quantity), COL.unit, L.y, {
      size: 8,
      align: 'right',
      plain: true,
    });
    await L.cell(own(line.tax_minor), COL.tax, L.y, { size: 8, align: 'right', plain: true });
    await L.cell(rate(line.tax_rate_bp), COL.rate, L.y, { size: 8, align: 'right', plain: true });
    if (COL.stamp != null)
      await L.cell(own(line.stamp_duty_minor), COL.stamp, L.y, { size: 8, align: 'right', plain: true });
    await L.cell(own(line.total_minor), COL.total, L.y, { size: 8, align: 'right', plain: true });
    L.y -= 12;
  }
  await L.fast.done();
  if (!doc.lines.length) {
    await L.text(t('no_items'), LEFT, L.y, { size: 9, color: MUTED });
    L.y -= 12;
  }
  L.rule(L.y + 6);
  L.y -= 8;

  // Totals.
  const totals: [string, string, boolean?][] = [[t('totals.premium'), own(inv.insurance_cost_minor)]];
  for (const line of doc.tax_lines) {
    const label =
      line.kind === 'tax'
        ? `${translate(lang, line.label)}${line.rate_bp != null ? ` (${rate(line.rate_bp)})` : ''}`
        : `${translate(lang, line.label)} (${line.count})`;
    totals.push([label, own(line.amount_minor)]);
  }
  if (inv.admin_fee_minor) totals.push([t('totals.admin_fee'), own(inv.admin_fee_minor)]);
  totals.push([t('totals.total'), own(inv.total_minor), true]);
  if (!credit) {
    if (inv.credited_minor) totals.push([t('totals.credited'), m(-inv.credited_minor)]);
    if (inv.paid_minor) totals.push([t('totals.paid'), m(-inv.paid_minor)]);
    if (inv.refunded_minor) totals.push([t('totals.refunded'), m(inv.refunded_minor)]);
    totals.push([t('totals.balance'), m(inv.balance_minor), true]);
    if (inv.account_credit_minor) totals.push([t('totals.account_credit'), m(inv.account_credit_minor)]);
  } else if (doc.credited_invoice) {
    const number = doc.credited_invoice.number;
    totals.push([t('totals.invoice_balance', { number }), m(doc.credited_invoice.balance_minor)]);
    if (doc.credited_invoice.account_credit_minor)
      totals.push([t('totals.invoice_credit', { number }), m(doc.credited_invoice.account_credit_minor)]);
  }
  await L.need(totals.length * 14 + 10);
  for (const [label, value, strong] of totals) {
    await L.text(label, 330, L.y, { size: 9, weight: strong ? 'bold' : 'regular', maxWidth: 150 });
    await L.text(value, RIGHT, L.y, { size: 9, weight: strong ? 'bold' : 'regular', align: 'right' });
    L.y -= 14;
  }
  const kept = doc.stamp_duty_not_refunded;
  if (kept) {
    L.y -= 4;
    await L.need(14);
    await L.text(
      translate(lang, 'taxes.stamp_duty_not_refunded', {
        count: kept.count,
        amount: m(kept.amount_minor),
      }),
      LEFT,
      L.y,
      { size: 9, maxWidth: RIGHT - LEFT },
    );
    L.y -= 14;
  }

  // Payments and refunds.
  const money = doc.transactions.filter((x) => x.status === 'succeeded' || x.status === 'pending');
  if (money.length) {
    L.y -= 8;
    await L.need(30 + money.length * 12);
    await L.text(t('sections.payments'), LEFT, L.y, { size: 10, weight: 'bold', color: BRAND });
    L.y -= 14;
    for (const x of money) {
      await L.need(12);
      await L.text(ukDate(x.paid_on ?? new Date(x.created_at)), LEFT, L.y, { size: 8 });
      await L.text(t(`transaction_kinds.${x.kind}`), LEFT + 70, L.y, { size: 8 });
      await L.text(t(`gateways.${x.gateway}`), LEFT + 150, L.y, { size: 8 });
      await L.text(t(`transaction_statuses.${x.status}`), LEFT + 260, L.y, { size: 8 });
      await L.text(m(x.kind === 'refund' ? -x.amount_minor : x.amount_minor), RIGHT, L.y, {
        size: 8,
        align: 'right',
      });
      L.y -= 12;
    }
  }

  // How to pay.
  const bank = doc.company.bank;
  if (!credit && bank && (bank.iban || bank.account_number)) {
    L.y -= 10;
    const rows: [string, string | null][] = [
      [t('bank.bank_name'), bank.bank_name],
      [t('bank.iban'), bank.iban],
      [t('bank.bic'), bank.bic],
      [t('bank.branch_code'), bank.branch_code],
      [t('bank.account_number'), bank.account_number],
      [t('fields.payment_reference'), inv.payment_reference],
    ];
    const shown = rows.filter(([, v]) => v);
    await L.need(24 + shown.length * 12);
    await L.text(t('pdf.how_to_pay'), LEFT, L.y, { size: 10, weight: 'bold', color: BRAND });
    L.y -= 14;
    for (const [label, value] of shown) {
      await L.text(label, LEFT, L.y, { size: 9, color: MUTED });
      await L.text(value ?? '', LEFT + 120, L.y, { size: 9, weight: 'bold' });
      L.y -= 12;
    }
  }

  // Footer on every page: the company, the number, page n of N.
  const pages = pdf.doc.getPages();
  for (const [n, page] of pages.entries()) {
    L.page = page;
    L.fast.begin(page);
    await L.cell(L.footer, LEFT, 30, { size: 7, color: MUTED, maxWidth: 380 });
    await L.cell(t('pdf.page', { page: n + 1, pages: pages.length }), RIGHT, 30, {
      size: 7,
      color: MUTED,
      align: 'right',
    });
  }
  await L.fast.done();
  return pdf.save();
}
