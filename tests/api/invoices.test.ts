/**
 * The invoice calls of issue 10 (H2) through the API: summary, export, download (ZIP), PDF and Excel,
 * void, credit note, a client's and a campus's invoices, with good and bad input.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { invoiceItems } from '../../drizzle/schema';
import { apiToken, call } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { db, day, insertInvoice, type InvoiceRow } from '../support/billing';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

let w: ContractsWorld;
let finance: string;
let stranger: string;
let school: string;
let a: InvoiceRow;
let b: InvoiceRow;

async function withLine(row: InvoiceRow) {
  await db()
    .insert(invoiceItems)
    .values({
      invoice_id: row.id,
      description: 'Cover',
      unit_minor: row.total_minor - row.tax_minor,
      tax_minor: row.tax_minor,
      total_minor: row.total_minor,
      tax_rate_bp: 2000,
    });
  return row;
}

beforeAll(async () => {
  w = await seedContractsWorld();
  const base = { company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id };
  a = await withLine(await insertInvoice({ ...base, total_minor: 12_000, tax_minor: 2000, due_at: day(-5) }));
  b = await withLine(await insertInvoice({ ...base, total_minor: 6000, tax_minor: 1000, currency: 'EUR' }));
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  stranger = await apiToken(STRANGER.companyUser);
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
}, SETUP_TIMEOUT_MS);

describe('invoice calls', () => {
  it('GET invoices filters by status overdue and GET invoices/summary sums per currency', async () => {
    const list = await call<{ data: { invoices: { items: { number: string; due_state: string }[] } } }>(
      `/api/company/invoices?status=overdue&number=${a.number}`,
      { token: finance },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.invoices.items).toEqual([
      expect.objectContaining({ number: a.number, due_state: 'overdue' }),
    ]);
    const summary = await call<{ data: { summary: { currency: string; balance_minor: number }[] } }>(
      '/api/company/invoices/summary?currency=EUR',
      { token: finance },
    );
    expect(summary.status).toBe(200);
    expect(summary.body.data.summary).toEqual([
      expect.objectContaining({ currency: 'EUR', balance_minor: 6000 }),
    ]);
  });

  it('GET invoices/export answers an .xlsx; GET invoices/{id}/pdf and /excel are named by the number', async () => {
    const x = await call('/api/company/invoices/export?currency=EUR', { token: finance });
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toContain('spreadsheetml');
    const pdf = await call(`/api/company/invoices/${a.public_id}/pdf`, { token: finance });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toContain(`${a.number}.pdf`);
    const xlsx = await call(`/api/company/invoices/${a.public_id}/excel`, { token: finance });
    expect(xlsx.headers.get('content-disposition')).toContain(`${a.number}.xlsx`);
    const other = await call(`/api/company/invoices/${a.public_id}/pdf`, { token: stranger });
    expect(other.status).toBe(404);
  });

  it('POST invoices/download answers one ZIP of the chosen; a bad format or no ids is refused', async () => {
    const zip = await call('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: [a.public_id, b.public_id], format: 'pdf' },
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    // Stored entries: both names are in the archive's text, the local headers and the directory.
    expect(String(zip.body)).toContain(`${a.number}.pdf`);
    expect(String(zip.body)).toContain(`${b.number}.pdf`);
    const bad = await call('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: [], format: 'doc' },
    });
    expect(bad.status).toBe(422);
  });

  it('POST invoices/{id}/credit-note issues a CN; POST invoices/{id}/void refuses one without a reason and a credited one', async () => {
    const noReason = await call(`/api/company/invoices/${a.public_id}/void`, {
      method: 'POST',
      token: finance,
      json: {},
    });
    expect(noReason.status).toBe(422);
    const note = await call<{ data: { credit_note: { number: string } } }>(
      `/api/company/invoices/${a.public_id}/credit-note`,
      { method: 'POST', token: finance, json: { reason: 'Wrong price' } },
    );
    expect(note.status).toBe(201);
    expect(note.body.data.credit_note.number).toMatch(/^CN\d{7}$/);
    const voided = await call(`/api/company/invoices/${a.public_id}/void`, {
      method: 'POST',
      token: finance,
      json: { reason: 'x' },
    });
    expect(voided.status).toBe(409);
    const ok = await call<{ data: { invoice: { status: string } } }>(
      `/api/company/invoices/${b.public_id}/void`,
      {
        method: 'POST',
        token: finance,
        json: { reason: 'Raised twice' },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.invoice.status).toBe('void');
    const forbidden = await call(`/api/company/invoices/${b.public_id}/void`, {
      method: 'POST',
      token: school,
      json: { reason: 'x' },
    });
    expect(forbidden.status).toBe(403);
  });

  it("GET clients/{id}/invoices(/{invoice_id}) and campuses/{id}/invoices(/{invoice_id}): the owner's, not another's", async () => {
    const mine = await call<{ data: { invoices: { items: unknown[] } } }>(
      `/api/company/clients/${w.oakwood.public_id}/invoices`,
      { token: finance },
    );
    expect(mine.status).toBe(200);
    expect(mine.body.data.invoices.items.length).toBeGreaterThanOrEqual(2);
    const one = await call<{ data: { invoice: { number: string; tax_lines: unknown[] } } }>(
      `/api/company/campuses/${w.north.public_id}/invoices/${a.public_id}`,
      { token: finance },
    );
    expect(one.status).toBe(200);
    expect(one.body.data.invoice.number).toBe(a.number);
    const wrongCampus = await call(`/api/company/campuses/${w.south.public_id}/invoices/${a.public_id}`, {
      token: finance,
    });
    expect(wrongCampus.status).toBe(404);
    const theirs = await call(`/api/company/clients/${w.oakwood.public_id}/invoices`, { token: stranger });
    expect(theirs.status).toBe(404);
    const detail = await call(`/api/company/clients/${w.oakwood.public_id}/invoices/${a.public_id}`, {
      token: finance,
    });
    expect(detail.status).toBe(200);
  });
});
