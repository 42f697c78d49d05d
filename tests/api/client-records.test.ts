/**
 * A client's documents (`GET clients/{id}/documents`, `POST clients/{id}/documents/download` with
 * `document_id`) and MFA activity (`GET clients/{id}/mfa_activities`): the answers in the list envelope,
 * paging and filters, a download's bytes, type and name, and the refusals: another tenant's client 404,
 * a user without the permission 403, bad input 422.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { campuses, mfaEvents, serviceAgreements, users } from '../../drizzle/schema';
import { publicId } from '../../workers/platform/crypto';
import { setClientFile } from '../../workers/domain/clients/files';
import { addClientNote } from '../../workers/domain/clients/notes';
import { addCampusNote } from '../../workers/domain/campuses/service';
import { addAgreementDocuments } from '../../workers/domain/service-agreements/documents';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_PASSWORD } from '../../drizzle/seed/builders';
import {
  actorCtx,
  db,
  DEMO_ACCOUNTS,
  lastPinFor,
  otherPin,
  SETUP_TIMEOUT_MS,
  uniqueIp,
} from '../support/world';
import { CLIENT_STRANGERS, seedClientsWorld, type ClientsWorld } from '../support/clients';
import { fileOf, pdfBytes, pngBytes } from '../support/files';

import type { ListMeta } from '../../workers/domain/list-query';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Meta = ListMeta;
interface Doc {
  id: string;
  source: string;
  file_name: string;
  content_type: string;
  size: number | null;
  note: { id: number; title: string } | null;
  campus: { id: string; name: string } | null;
  service_agreement: { id: string; name: string } | null;
}
interface Activity {
  id: number;
  event: string;
  purpose: string;
  channel: string;
  user: { id: string; full_name: string; email: string };
  ip: string | null;
  device: string | null;
  created_at: string;
}

let w: ClientsWorld;
let admin: string;
let external: string;
let stranger: string;
const note = (title: string) => ({
  title,
  note: `${title}, kept on file`,
  date: '2026-01-05',
  source: 'email' as const,
  type: 'admin_note' as const,
});

beforeAll(async () => {
  w = await seedClientsWorld();
  admin = await apiToken(DEMO_ACCOUNTS.admin);
  external = await apiToken(DEMO_ACCOUNTS.external);
  stranger = await apiToken(CLIENT_STRANGERS.permissiveCompanyUser);
}, SETUP_TIMEOUT_MS);

const base = (client: string) => `/api/company/clients/${client}`;

describe("a client's documents", () => {
  let agreementDoc: string;
  let campusNoteDoc: string;
  let clientNoteDoc: string;

  beforeAll(async () => {
    // Each file added a second after the one before, so "newest first" has one answer.
    const start = Date.now() - 10_000;
    const at = (second: number) =>
      actorCtx(DEMO_ACCOUNTS.seniorAdmin, { now: new Date(start + second * 1000) });
    const ctx = await at(0);
    const id = w.oakwood.public_id;
    await setClientFile(ctx, id, 'return_policy', fileOf(pdfBytes('Refunds'), 'Return policy 2026.pdf'));
    const clientNote = await addClientNote(
      await at(1),
      id,
      note('Signed onboarding form'),
      fileOf(pdfBytes('Onboarding'), 'onboarding.pdf'),
    );
    await addClientNote(await at(2), id, note('Call without a file'));
    const [north] = await db()
      .select()
      .from(campuses)
      .where(and(eq(campuses.client_id, w.oakwood.id), eq(campuses.name, 'Oakwood North Campus')));
    const campusNote = await addCampusNote(
      await at(3),
      north.public_id,
      note('Campus floor plan'),
      fileOf(pngBytes(), 'floor-plan.png'),
    );
    const [sa] = await db()
      .insert(serviceAgreements)
      .values({
        public_id: publicId(),
        client_id: w.oakwood.id,
        company_id: w.albion.id,
        name: 'Agreement 2026',
        start_date: '2026-01-01',
      })
      .returning();
    const view = await addAgreementDocuments(await at(4), sa.public_id, [
      fileOf(pdfBytes('Terms'), 'Signed terms.pdf'),
    ]);
    expect(view).toBeTruthy();
    clientNoteDoc = `note-${clientNote.id}`;
    campusNoteDoc = `note-${campusNote.id}`;
    const listed = await call<{ data: { documents: { items: Doc[] } } }>(
      `${base(id)}/documents?source=service_agreement`,
      { token: admin },
    );
    agreementDoc = listed.body.data.documents.items[0].id;
  }, SETUP_TIMEOUT_MS);

  const list = async (query = '', token = admin) => {
    const r = await call<{ data: { documents: { items: Doc[]; meta: Meta } } }>(
      `${base(w.oakwood.public_id)}/documents?${query}`,
      { token },
    );
    expect(r.status).toBe(200);
    return r.body.data.documents;
  };

  it('lists every file kept for the client: the return policy first, then the newest', async () => {
    const { items, meta } = await list();
    expect(items.map((d) => [d.source, d.file_name])).toEqual([
      ['return_policy', 'Return-policy-2026.pdf'],
      ['service_agreement', 'Signed terms.pdf'],
      ['campus_note', 'floor-plan.png'],
      ['note', 'onboarding.pdf'],
    ]);
    expect(meta).toMatchObject({ total: 4, from: 1, to: 4, current_page: 1, last_page: 1 });
    const [policy, agreement, campusNote, clientNote] = items;
    expect(policy).toMatchObject({ id: 'return_policy', content_type: 'application/pdf', note: null });
    expect(agreement).toMatchObject({
      id: agreementDoc,
      content_type: 'application/pdf',
      service_agreement: { name: 'Agreement 2026' },
    });
    expect(agreement.size).toBeGreaterThan(0);
    expect(campusNote).toMatchObject({
      id: campusNoteDoc,
      content_type: 'image/png',
      note: { title: 'Campus floor plan' },
      campus: { name: 'Oakwood North Campus' },
    });
    expect(clientNote).toMatchObject({ id: clientNoteDoc, note: { title: 'Signed onboarding form' } });
  });

  it('searches file names and titles, filters by source, and pages', async () => {
    expect((await list('search=onboarding')).items.map((d) => d.id)).toEqual([clientNoteDoc]);
    expect((await list('search=north campus')).items.map((d) => d.id)).toEqual([campusNoteDoc]);
    expect((await list('search=agreement 2026')).items.map((d) => d.id)).toEqual([agreementDoc]);
    expect((await list('search=%25')).items).toEqual([]);
    expect((await list('source=note')).items.map((d) => d.id)).toEqual([clientNoteDoc]);
    const second = await list('items=3&page=2');
    expect(second.items.map((d) => d.id)).toEqual([clientNoteDoc]);
    expect(second.meta).toMatchObject({ from: 4, to: 4, per_page: 3, total: 4, last_page: 2 });
    const bad = await call<ErrorEnvelope>(`${base(w.oakwood.public_id)}/documents?source=email`, {
      token: admin,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.key)).toEqual(['source']);
  });

  it('downloads each document with its type and name', async () => {
    const download = (document_id: unknown, token = admin, client = w.oakwood.public_id) =>
      call<string>(`${base(client)}/documents/download`, { method: 'POST', json: { document_id }, token });
    const policy = await download('return_policy');
    expect(policy.status).toBe(200);
    expect(policy.headers.get('content-type')).toBe('application/pdf');
    expect(policy.headers.get('content-disposition')).toContain('filename="Return-policy-2026.pdf"');
    expect(policy.body).toContain('% Refunds');
    const agreement = await download(agreementDoc);
    expect(agreement.headers.get('content-disposition')).toContain('filename="Signed terms.pdf"');
    expect(agreement.body).toContain('% Terms');
    const campusNote = await download(campusNoteDoc);
    expect(campusNote.headers.get('content-type')).toBe('image/png');
    expect(campusNote.headers.get('content-disposition')).toMatch(/^attachment; filename="floor-plan.png"/);
    expect((await download(clientNoteDoc)).body).toContain('% Onboarding');

    // Not this client's, no such document, another tenant's client: not found.
    expect((await download(clientNoteDoc, admin, w.maple.public_id)).status).toBe(404);
    const missing = await download('note-999999');
    expect(missing.status).toBe(404);
    expect((missing.body as unknown as ErrorEnvelope).message).toBe('Document not found.');
    expect((await download(clientNoteDoc, stranger)).status).toBe(404);
    expect((await download('return_policy', stranger, w.heather.public_id)).status).toBe(404);

    const badId = await call<ErrorEnvelope>(`${base(w.oakwood.public_id)}/documents/download`, {
      method: 'POST',
      json: { document_id: 'note-abc' },
      token: admin,
    });
    expect(badId.status).toBe(422);
    expect(badId.body.errors).toEqual([
      {
        key: 'document_id',
        message: 'Name a document of this client: return_policy, agreement-<number> or note-<number>.',
      },
    ]);
    const numeric = await call<ErrorEnvelope>(`${base(w.oakwood.public_id)}/documents/download`, {
      method: 'POST',
      json: { document_id: 12 },
      token: admin,
    });
    expect(numeric.status).toBe(422);
    expect(numeric.body.errors).toEqual(badId.body.errors);
    const none = await call<ErrorEnvelope>(`${base(w.oakwood.public_id)}/documents/download`, {
      method: 'POST',
      json: {},
      token: admin,
    });
    expect(none.status).toBe(422);
  });

  it("answers 404 for another tenant's client and 403 without read_document", async () => {
    expect((await call(`${base(w.heather.public_id)}/documents`, { token: admin })).status).toBe(404);
    expect((await call(`${base(w.oakwood.public_id)}/documents`, { token: stranger })).status).toBe(404);
    expect((await call(`${base(w.oakwood.public_id)}/documents`, { token: external })).status).toBe(403);
    const refused = await call(`${base(w.oakwood.public_id)}/documents/download`, {
      method: 'POST',
      json: { document_id: 'return_policy' },
      token: external,
    });
    expect(refused.status).toBe(403);
  });
});

describe("a client's MFA activity", () => {
  const activities = async (query = '', token = admin, client = w.oakwood.public_id) =>
    call<{ data: { mfa_activities: { items: Activity[]; meta: Meta } } }>(
      `${base(client)}/mfa_activities?${query}`,
      { token },
    );

  it("records each PIN sent and tried by the client's users, with where it came from", async () => {
    const email = DEMO_ACCOUNTS.campusEmployee;
    const ip = uniqueIp();
    const headers = {
      'user-agent':
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    };
    const signIn = (json: Record<string, string>) =>
      call('/api/company/auth/sign-in', { method: 'POST', json, ip, headers });
    const before = Date.now();
    expect((await signIn({ email, password: DEMO_PASSWORD })).status).toBe(202);
    const pin = await lastPinFor(email);
    expect((await signIn({ email, password: DEMO_PASSWORD, pin: otherPin(pin) })).status).toBe(422);
    expect((await signIn({ email, password: DEMO_PASSWORD, pin })).status).toBe(200);

    const r = await activities(`search=${encodeURIComponent(email)}&items=3`);
    expect(r.status).toBe(200);
    const { items } = r.body.data.mfa_activities;
    expect(items.map((a) => a.event)).toEqual(['verified', 'failed', 'sent']);
    for (const a of items) {
      expect(a).toMatchObject({
        purpose: 'login',
        channel: 'email',
        ip,
        device: 'Safari on macOS',
        user: { email, full_name: 'Carl Campus' },
      });
      expect(Date.parse(a.created_at)).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it('filters by user, event, purpose and days, and pages', async () => {
    const [employee] = await db().select().from(users).where(eq(users.email, DEMO_ACCOUNTS.campusEmployee));
    const locked = await activities(`event=locked&user=${employee.public_id}`);
    expect(locked.body.data.mfa_activities.items.map((a) => [a.event, a.user.email])).toEqual([
      ['locked', DEMO_ACCOUNTS.campusEmployee],
    ]);
    const resets = await activities('purpose=reset_phone');
    expect(resets.body.data.mfa_activities.items.map((a) => [a.event, a.channel])).toEqual([
      ['verified', 'phone'],
      ['sent', 'phone'],
    ]);
    const all = await db().select().from(mfaEvents);
    const today = new Date().toISOString().slice(0, 10);
    const fromToday = await activities(`from=${today}&to=${today}&items=100`);
    expect(fromToday.body.data.mfa_activities.items.length).toBeGreaterThanOrEqual(3);
    expect(fromToday.body.data.mfa_activities.items.every((a) => a.created_at.startsWith(today))).toBe(true);
    const page = await activities('items=5&page=2');
    expect(page.body.data.mfa_activities.meta).toMatchObject({
      from: 6,
      to: 10,
      per_page: 5,
      current_page: 2,
    });
    expect(page.body.data.mfa_activities.meta.total).toBeLessThanOrEqual(all.length);
    expect(page.body.data.mfa_activities.meta.total).toBeGreaterThan(20);

    const bad = await call<ErrorEnvelope>(
      `${base(w.oakwood.public_id)}/mfa_activities?event=hacked&from=yesterday`,
      {
        token: admin,
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.key).sort()).toEqual(['event', 'from']);
  });

  it("shows no other client's users, answers 404 for another tenant's client and 403 without the logs right", async () => {
    await apiToken(CLIENT_STRANGERS.schoolUser);
    const maple = await activities('items=100', admin, w.maple.public_id);
    expect(maple.status).toBe(200);
    expect(maple.body.data.mfa_activities.items.map((a) => [a.event, a.user.email])).toEqual([
      ['verified', CLIENT_STRANGERS.schoolUser],
      ['sent', CLIENT_STRANGERS.schoolUser],
    ]);
    const oakwood = await activities('items=100');
    expect(oakwood.body.data.mfa_activities.items.some((a) => a.user.email.endsWith('@maple.test'))).toBe(
      false,
    );
    expect((await activities('', admin, w.heather.public_id)).status).toBe(404);
    expect((await activities('', stranger)).status).toBe(404);
    expect((await activities('', external)).status).toBe(403);
    expect((await activities('', '')).status).toBe(401);
  });
});
