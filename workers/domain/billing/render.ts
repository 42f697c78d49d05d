/**
 * A statement of account as a PDF (A4, the PDF kit of platform/pdf.ts: names print in any script) and as
 * an Excel workbook (platform/xlsx.ts), labelled in the reader's language.
 */
import type { PDFPage, RGB } from '@cantoo/pdf-lib';
import { loadLanguages, translate } from '../../platform/i18n';
import { PdfWriter, rgb, runsWidth, type AssetReader, type FontWeight } from '../../platform/pdf';
import { buildWorkbook } from '../../platform/xlsx';
import { AGING_BUCKETS } from '../invoices/status';
import { britishDate } from '../formats';
import { money } from '../policy-documents/render';
import type { StatementOfAccount } from './statement';

const A4 = { w: 595.28, h: 841.89 };
const MARGIN = 40;
const INK = rgb(0.09, 0.13, 0.2);
const MUTED = rgb(0.36, 0.4, 0.47);
const BRAND = rgb(0.07, 0.25, 0.45);
const LINE = rgb(0.78, 0.81, 0.86);
const SHADE = rgb(0.95, 0.96, 0.98);

/** The file name of a statement's download: the client (and campus), the period and the extension. */
export function statementFileName(s: StatementOfAccount, ext: 'pdf' | 'xlsx'): string {
  const who = [s.target.client.name, s.target.campus?.name]
    .filter(Boolean)
    .join(' ')
    .normalize('NFKD')
    .replace(/[^\w]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `statement-${who || 'client'}-${s.from}-${s.to}.${ext}`;
}

const label = (lang: string) => (key: string, params?: Record<string, string | number>) =>
  translate(lang, `billing.${key}`, params);

/** A line's detail as a reader reads it: a credit note's invoice, a payment's way. */
function detailOf(
  t: ReturnType<typeof label>,
  e: StatementOfAccount['currencies'][number]['entries'][number],
) {
  if (!e.detail) return e.due_at ? t('statement.due_on', { date: britishDate(e.due_at) }) : '';
  if (e.kind === 'credit_note') return t('statement.credit_for', { number: e.detail });
  return t(`statement.ways.${e.detail}`);
}

interface TextOpts {
  size: number;
  weight?: FontWeight;
  color?: RGB;
  align?: 'left' | 'right';
  maxWidth?: number;
}

async function text(pdf: PdfWriter, page: PDFPage, value: string, x: number, y: number, o: TextOpts) {
  const runs = await pdf.runs(value, o.weight ?? 'regular');
  let size = o.size;
  let width = runsWidth(runs, size);
  if (o.maxWidth && width > o.maxWidth) {
    size = Math.max(o.size * 0.6, (o.size * o.maxWidth) / width);
    width = runsWidth(runs, size);
  }
  let at = o.align === 'right' ? x - width : x;
  for (const r of runs) {
    page.drawText(r.text, { x: at, y, size, font: r.font, color: o.color ?? INK });
    at += r.font.widthOfTextAtSize(r.text, size);
  }
}

/** The statement as a PDF. */
export async function renderStatementPdf(
  s: StatementOfAccount,
  lang: string,
  read: AssetReader,
  now: Date,
): Promise<Uint8Array> {
  await loadLanguages([lang]);
  const t = label(lang);
  const who = [s.target.client.name, s.target.campus?.name].filter(Boolean).join(' — ');
  const pdf = await PdfWriter.create(read, {
    title: `${t('statement.title')} ${who}`,
    author: s.target.company.name,
    now,
  });
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const newPage = async () => {
    page = pdf.doc.addPage([A4.w, A4.h]);
    pages.push(page);
    y = A4.h - MARGIN;
    await text(pdf, page, s.target.company.name, MARGIN, y - 4, { size: 10, color: MUTED });
    await text(pdf, page, t('statement.title'), A4.w - MARGIN, y - 4, {
      size: 10,
      color: MUTED,
      align: 'right',
    });
    y -= 24;
  };
  const room = async (needed: number) => {
    if (y - needed < MARGIN + 20) await newPage();
  };

  await newPage();
  await text(pdf, page, t('statement.title'), MARGIN, y - 14, { size: 20, weight: 'bold', color: BRAND });
  y -= 36;
  await text(pdf, page, who, MARGIN, y, { size: 13, weight: 'bold', maxWidth: A4.w - 2 * MARGIN });
  y -= 18;
  await text(
    pdf,
    page,
    t('statement.period', { from: britishDate(s.from), to: britishDate(s.to) }),
    MARGIN,
    y,
    {
      size: 10,
      color: MUTED,
    },
  );
  y -= 14;
  await text(
    pdf,
    page,
    t('statement.made_on', { date: britishDate(now.toISOString().slice(0, 10)) }),
    MARGIN,
    y,
    {
      size: 10,
      color: MUTED,
    },
  );
  y -= 24;

  // Columns: date, type, reference, detail, debit, credit, balance (right edges for money).
  const cols = { date: MARGIN, kind: MARGIN + 58, ref: MARGIN + 138, detail: MARGIN + 218 };
  const right = { debit: A4.w - MARGIN - 150, credit: A4.w - MARGIN - 75, balance: A4.w - MARGIN };
  const header = async () => {
    page.drawRectangle({ x: MARGIN, y: y - 5, width: A4.w - 2 * MARGIN, height: 16, color: SHADE });
    const o = { size: 8, weight: 'bold' as const, color: MUTED };
    await text(pdf, page, t('statement.columns.date'), cols.date + 2, y, o);
    await text(pdf, page, t('statement.columns.type'), cols.kind, y, o);
    await text(pdf, page, t('statement.columns.reference'), cols.ref, y, o);
    await text(pdf, page, t('statement.columns.detail'), cols.detail, y, o);
    await text(pdf, page, t('statement.columns.debit'), right.debit, y, { ...o, align: 'right' });
    await text(pdf, page, t('statement.columns.credit'), right.credit, y, { ...o, align: 'right' });
    await text(pdf, page, t('statement.columns.balance'), right.balance - 2, y, { ...o, align: 'right' });
    y -= 18;
  };
  const balanceLine = async (name: string, amount: string) => {
    await room(20);
    page.drawLine({ start: { x: MARGIN, y: y + 10 }, end: { x: A4.w - MARGIN, y: y + 10 }, color: LINE });
    await text(pdf, page, name, cols.date + 2, y, { size: 9, weight: 'bold' });
    await text(pdf, page, amount, right.balance - 2, y, { size: 9, weight: 'bold', align: 'right' });
    y -= 18;
  };

  if (!s.currencies.length) {
    await text(pdf, page, t('statement.empty'), MARGIN, y, { size: 10, color: MUTED });
  }
  for (const c of s.currencies) {
    await room(90);
    if (s.currencies.length > 1) {
      await text(pdf, page, t('statement.currency', { currency: c.currency }), MARGIN, y, {
        size: 12,
        weight: 'bold',
        color: BRAND,
      });
      y -= 20;
    }
    await header();
    await balanceLine(
      t('statement.opening', { date: britishDate(s.from) }),
      money(c.opening_minor, c.currency),
    );
    for (const e of c.entries) {
      if (y - 14 < MARGIN + 20) {
        await newPage();
        await header();
      }
      const o = { size: 8.5 };
      await text(pdf, page, britishDate(e.date), cols.date + 2, y, o);
      await text(pdf, page, t(`statement.kinds.${e.kind}`), cols.kind, y, { ...o, maxWidth: 76 });
      await text(pdf, page, e.reference, cols.ref, y, { ...o, maxWidth: 78 });
      await text(pdf, page, detailOf(t, e), cols.detail, y, { ...o, color: MUTED, maxWidth: 100 });
      if (e.debit_minor)
        await text(pdf, page, money(e.debit_minor, c.currency), right.debit, y, { ...o, align: 'right' });
      if (e.credit_minor)
        await text(pdf, page, money(e.credit_minor, c.currency), right.credit, y, { ...o, align: 'right' });
      await text(pdf, page, money(e.balance_minor, c.currency), right.balance - 2, y, {
        ...o,
        align: 'right',
      });
      y -= 14;
    }
    await balanceLine(
      t('statement.closing', { date: britishDate(s.to) }),
      money(c.closing_minor, c.currency),
    );

    // The aging at the end date.
    await room(70);
    y -= 6;
    await text(pdf, page, t('statement.aging_at', { date: britishDate(s.to) }), MARGIN, y, {
      size: 10,
      weight: 'bold',
    });
    y -= 18;
    const keys = [...AGING_BUCKETS, 'unapplied_credit', 'total'] as const;
    const width = (A4.w - 2 * MARGIN) / keys.length;
    page.drawRectangle({ x: MARGIN, y: y - 5, width: A4.w - 2 * MARGIN, height: 16, color: SHADE });
    for (const [i, k] of keys.entries())
      await text(pdf, page, t(`aging.${k}`), MARGIN + (i + 1) * width - 4, y, {
        size: 7.5,
        weight: 'bold',
        color: MUTED,
        align: 'right',
        maxWidth: width - 6,
      });
    y -= 16;
    for (const [i, k] of keys.entries()) {
      const minor = k === 'unapplied_credit' ? c.aging.credit : c.aging[k];
      await text(pdf, page, money(minor, c.currency), MARGIN + (i + 1) * width - 4, y, {
        size: 8.5,
        weight: k === 'total' ? 'bold' : 'regular',
        align: 'right',
        maxWidth: width - 6,
      });
    }
    y -= 30;
  }

  for (const [i, p] of pages.entries())
    await text(
      pdf,
      p,
      t('statement.page', { page: i + 1, pages: pages.length }),
      A4.w - MARGIN,
      MARGIN - 14,
      {
        size: 8,
        color: MUTED,
        align: 'right',
      },
    );
  return pdf.save();
}

/** The statement as an Excel workbook: one sheet of lines (per currency in turn) and one of the aging. */
export async function renderStatementXlsx(s: StatementOfAccount, lang: string): Promise<ArrayBuffer> {
  await loadLanguages([lang]);
  const t = label(lang);
  const amount = (minor: number) => minor / 100;
  const lines: Record<string, unknown>[] = [];
  for (const c of s.currencies) {
    lines.push({
      detail: t('statement.opening', { date: britishDate(s.from) }),
      currency: c.currency,
      balance: amount(c.opening_minor),
    });
    for (const e of c.entries)
      lines.push({
        date: britishDate(e.date),
        kind: t(`statement.kinds.${e.kind}`),
        reference: e.reference,
        detail: detailOf(t, e),
        currency: c.currency,
        debit: e.debit_minor ? amount(e.debit_minor) : null,
        credit: e.credit_minor ? amount(e.credit_minor) : null,
        balance: amount(e.balance_minor),
      });
    lines.push({
      detail: t('statement.closing', { date: britishDate(s.to) }),
      currency: c.currency,
      balance: amount(c.closing_minor),
    });
  }
  const keys = [...AGING_BUCKETS, 'unapplied_credit', 'total'] as const;
  return buildWorkbook([
    {
      name: t('statement.title'),
      columns: [
        { header: t('statement.columns.date'), key: 'date', width: 12 },
        { header: t('statement.columns.type'), key: 'kind', width: 16 },
        { header: t('statement.columns.reference'), key: 'reference', width: 16 },
        { header: t('statement.columns.detail'), key: 'detail', width: 34 },
        { header: t('statement.columns.currency'), key: 'currency', width: 10 },
        { header: t('statement.columns.debit'), key: 'debit', width: 14 },
        { header: t('statement.columns.credit'), key: 'credit', width: 14 },
        { header: t('statement.columns.balance'), key: 'balance', width: 14 },
      ],
      rows: lines,
    },
    {
      name: t('aging.title'),
      columns: [
        { header: t('statement.columns.currency'), key: 'currency', width: 10 },
        ...keys.map((k) => ({ header: t(`aging.${k}`), key: k, width: 16 })),
      ],
      rows: s.currencies.map((c) => ({
        currency: c.currency,
        ...Object.fromEntries(
          keys.map((k) => [k, amount(k === 'unapplied_credit' ? c.aging.credit : c.aging[k])]),
        ),
      })),
    },
  ]);
}
