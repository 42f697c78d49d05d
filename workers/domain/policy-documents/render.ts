/**
 * The two documents of a policy, drawn as PDF: the insurance card (an A4 sheet with the card's front and
 * back at bank-card size, 85.6 x 54 mm, to print, cut out and keep with a passport) and the certificate
 * of insurance (A4). Labels are in the client's language; names print in any script (platform/pdf.ts).
 */
import type { PDFPage, RGB } from '@cantoo/pdf-lib';
import { loadLanguages, translate } from '../../platform/i18n';
import { britishDate } from '../formats';
import { PdfWriter, rgb, runsWidth, type AssetReader, type FontWeight } from '../../platform/pdf';
import type { PolicyDocumentKind } from '../../../drizzle/schema/policy-enums';

/** What a policy document shows (read by documents.ts from the policy, its product, client and company). */
export interface PolicyDocumentData {
  policy_number: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  start_date: string;
  end_date: string;
  product: {
    name: string;
    code: string;
    master_certificate_number: string | null;
    claim_phone: string | null;
    claim_email: string | null;
    medical_assistance_phone: string | null;
    medical_assistance_email: string | null;
  };
  insurer: string | null;
  company: string;
  client: string;
  campus: string;
  destination: string | null;
  premium_minor: number;
  tax_minor: number;
  currency: string;
  version: number;
  /** The day the document was made, YYYY-MM-DD. */
  issued_on: string;
  lang: string;
}

const MM = 72 / 25.4;
const A4 = { w: 595.28, h: 841.89 };
const CARD = { w: 85.6 * MM, h: 54 * MM };
const INK = rgb(0.09, 0.13, 0.2);
const MUTED = rgb(0.36, 0.4, 0.47);
const BRAND = rgb(0.07, 0.25, 0.45);
const LINE = rgb(0.78, 0.81, 0.86);
const WHITE = rgb(1, 1, 1);

export function money(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${currency} ${Math.floor(abs / 100).toLocaleString('en-GB')}.${String(abs % 100).padStart(2, '0')}`;
}

const dash = (v: string | null | undefined) => (v && v.trim() ? v.trim() : '—');

interface TextOpts {
  size: number;
  weight?: FontWeight;
  color?: RGB;
  /** Shrinks the size (down to 60 %) so the text fits this width. */
  maxWidth?: number;
  align?: 'left' | 'right' | 'center';
}

/** Draws text in runs of one font each; answers the width drawn. */
async function text(pdf: PdfWriter, page: PDFPage, value: string, x: number, y: number, o: TextOpts) {
  const runs = await pdf.runs(value, o.weight ?? 'regular');
  let size = o.size;
  let width = runsWidth(runs, size);
  if (o.maxWidth && width > o.maxWidth) {
    size = Math.max(o.size * 0.6, (o.size * o.maxWidth) / width);
    width = runsWidth(runs, size);
  }
  let at = o.align === 'right' ? x - width : o.align === 'center' ? x - width / 2 : x;
  for (const r of runs) {
    page.drawText(r.text, { x: at, y, size, font: r.font, color: o.color ?? INK });
    at += r.font.widthOfTextAtSize(r.text, size);
  }
  return width;
}

/** Splits a paragraph into lines no wider than `width` (by words). */
async function wrap(pdf: PdfWriter, value: string, size: number, width: number): Promise<string[]> {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && runsWidth(await pdf.runs(next), size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

function writer(data: PolicyDocumentData, read: AssetReader, kind: PolicyDocumentKind, now: Date) {
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(data.lang, `policy_documents.pdf.${key}`, params);
  return {
    t,
    pdf: PdfWriter.create(read, {
      title: `${t(kind === 'insurance_card' ? 'card_title' : 'certificate_title')} ${data.policy_number}`,
      author: data.company,
      now,
    }),
  };
}

const fullName = (d: PolicyDocumentData) => `${d.first_name} ${d.last_name}`.trim();

/** The insurance card: front (who, which policy, when) and back (whom to call). */
export async function renderInsuranceCard(
  data: PolicyDocumentData,
  read: AssetReader,
  now: Date,
): Promise<Uint8Array> {
  const w = writer(data, read, 'insurance_card', now);
  const { t } = w;
  const pdf = await w.pdf;
  const page = pdf.doc.addPage([A4.w, A4.h]);
  const left = 48;
  let y = A4.h - 64;
  await text(pdf, page, data.company, left, y, { size: 11, weight: 'bold', color: BRAND });
  y -= 30;
  await text(pdf, page, t('card_title'), left, y, { size: 22, weight: 'bold' });
  y -= 22;
  await text(pdf, page, t('card_instructions'), left, y, { size: 10, color: MUTED, maxWidth: A4.w - 96 });

  const top = y - 30;
  const gap = A4.w - 2 * left - 2 * CARD.w;
  const front = { x: left, y: top - CARD.h };
  const back = { x: left + CARD.w + gap, y: top - CARD.h };
  for (const c of [front, back]) {
    page.drawRectangle({
      x: c.x,
      y: c.y,
      width: CARD.w,
      height: CARD.h,
      borderColor: LINE,
      borderWidth: 0.8,
      borderDashArray: [3, 2],
      color: WHITE,
    });
    page.drawRectangle({ x: c.x, y: c.y + CARD.h - 26, width: CARD.w, height: 26, color: BRAND });
  }
  const inner = CARD.w - 20;

  // Front
  let fx = front.x + 10;
  let fy = front.y + CARD.h - 17;
  await text(pdf, page, data.company, fx, fy, {
    size: 8,
    weight: 'bold',
    color: WHITE,
    maxWidth: inner - 70,
  });
  await text(pdf, page, t('card_title'), front.x + CARD.w - 10, fy, {
    size: 7,
    color: WHITE,
    align: 'right',
  });
  fy -= 27;
  await text(pdf, page, fullName(data), fx, fy, { size: 11, weight: 'bold', maxWidth: inner });
  fy -= 17;
  const pairs: [string, string][] = [
    [t('policy_number'), data.policy_number],
    [t('date_of_birth'), britishDate(data.date_of_birth)],
    [t('product'), data.product.name],
    [t('cover'), `${britishDate(data.start_date)} – ${britishDate(data.end_date)}`],
  ];
  for (const [label, value] of pairs) {
    await text(pdf, page, label, fx, fy, { size: 6.5, color: MUTED });
    await text(pdf, page, value, fx + 62, fy, { size: 7.5, weight: 'bold', maxWidth: inner - 62 });
    fy -= 13;
  }
  fx = front.x + 10;
  await text(
    pdf,
    page,
    t('version_line', { version: data.version, date: britishDate(data.issued_on) }),
    fx,
    front.y + 7,
    {
      size: 5.5,
      color: MUTED,
    },
  );

  // Back
  const bx = back.x + 10;
  let by = back.y + CARD.h - 17;
  await text(pdf, page, t('emergency'), bx, by, { size: 8, weight: 'bold', color: WHITE, maxWidth: inner });
  by -= 25;
  const contact = async (label: string, phone: string | null, email: string | null) => {
    await text(pdf, page, label, bx, by, { size: 6.5, color: MUTED, maxWidth: inner });
    by -= 10;
    await text(pdf, page, dash(phone), bx, by, { size: 9, weight: 'bold', maxWidth: inner });
    by -= 10;
    await text(pdf, page, dash(email), bx, by, { size: 7, maxWidth: inner });
    by -= 14;
  };
  await contact(
    t('medical_assistance'),
    data.product.medical_assistance_phone,
    data.product.medical_assistance_email,
  );
  await contact(t('claims'), data.product.claim_phone, data.product.claim_email);
  await text(pdf, page, `${t('insurer')}: ${dash(data.insurer)}`, bx, back.y + 7, {
    size: 6,
    color: MUTED,
    maxWidth: inner,
  });

  // Under the cards: what to do with them.
  let ny = front.y - 28;
  for (const line of await wrap(pdf, t('card_note', { policy: data.policy_number }), 9, A4.w - 96)) {
    await text(pdf, page, line, left, ny, { size: 9, color: MUTED });
    ny -= 13;
  }
  return pdf.save();
}

/** The certificate of insurance (A4). */
export async function renderCertificate(
  data: PolicyDocumentData,
  read: AssetReader,
  now: Date,
): Promise<Uint8Array> {
  const w = writer(data, read, 'certificate', now);
  const { t } = w;
  const pdf = await w.pdf;
  const page = pdf.doc.addPage([A4.w, A4.h]);
  const left = 56;
  const right = A4.w - 56;
  page.drawRectangle({ x: 0, y: A4.h - 8, width: A4.w, height: 8, color: BRAND });
  let y = A4.h - 64;
  await text(pdf, page, data.company, left, y, { size: 11, weight: 'bold', color: BRAND, maxWidth: 300 });
  await text(pdf, page, `${t('policy_number')} ${data.policy_number}`, right, y, {
    size: 9,
    color: MUTED,
    align: 'right',
  });
  y -= 34;
  await text(pdf, page, t('certificate_title'), left, y, { size: 24, weight: 'bold' });
  y -= 26;
  for (const line of await wrap(
    pdf,
    t('certificate_statement', {
      name: fullName(data),
      product: data.product.name,
      master: dash(data.product.master_certificate_number),
    }),
    10.5,
    right - left,
  )) {
    await text(pdf, page, line, left, y, { size: 10.5 });
    y -= 15;
  }
  y -= 14;

  const section = async (title: string) => {
    await text(pdf, page, title, left, y, { size: 11, weight: 'bold', color: BRAND });
    y -= 8;
    page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 0.8, color: LINE });
    y -= 18;
  };
  const row = async (label: string, value: string) => {
    await text(pdf, page, label, left, y, { size: 9.5, color: MUTED });
    await text(pdf, page, value, left + 170, y, { size: 10.5, weight: 'bold', maxWidth: right - left - 170 });
    y -= 19;
  };

  await section(t('insured_section'));
  await row(t('insured'), fullName(data));
  await row(t('date_of_birth'), britishDate(data.date_of_birth));
  await row(t('client'), data.client);
  await row(t('campus'), data.campus);
  await row(t('destination'), dash(data.destination));
  y -= 10;

  await section(t('cover_section'));
  await row(t('policy_number'), data.policy_number);
  await row(t('product'), `${data.product.name} (${data.product.code})`);
  await row(t('master_certificate'), dash(data.product.master_certificate_number));
  await row(t('insurer'), dash(data.insurer));
  await row(t('cover_from'), britishDate(data.start_date));
  await row(t('cover_to'), britishDate(data.end_date));
  await row(t('premium'), money(data.premium_minor + data.tax_minor, data.currency));
  y -= 10;

  await section(t('contacts_section'));
  await row(
    t('medical_assistance'),
    [data.product.medical_assistance_phone, data.product.medical_assistance_email]
      .filter(Boolean)
      .join(' · ') || '—',
  );
  await row(
    t('claims'),
    [data.product.claim_phone, data.product.claim_email].filter(Boolean).join(' · ') || '—',
  );

  page.drawLine({ start: { x: left, y: 86 }, end: { x: right, y: 86 }, thickness: 0.8, color: LINE });
  await text(pdf, page, t('issued_by', { company: data.company }), left, 68, {
    size: 9,
    color: MUTED,
    maxWidth: 330,
  });
  await text(
    pdf,
    page,
    t('version_line', { version: data.version, date: britishDate(data.issued_on) }),
    right,
    68,
    {
      size: 9,
      color: MUTED,
      align: 'right',
    },
  );
  return pdf.save();
}

export async function renderPolicyDocument(
  kind: PolicyDocumentKind,
  data: PolicyDocumentData,
  read: AssetReader,
  now: Date,
): Promise<Uint8Array> {
  await loadLanguages([data.lang]);
  return kind === 'insurance_card'
    ? renderInsuranceCard(data, read, now)
    : renderCertificate(data, read, now);
}
