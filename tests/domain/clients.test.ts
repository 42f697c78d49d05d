import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { activityLogs, clients, contacts, notes } from '../../drizzle/schema';
import * as db_schema from '../../drizzle/schema';
import {
  CLIENT_LANGUAGES,
  CLIENT_STATUSES,
  CLIENT_TYPES,
  INVOICE_RULES,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
  canMoveClient,
  clientUpdateSchema,
  schoolClientSchema,
} from '../../workers/domain/clients/schema';
import { clientFileResponse, setClientFile } from '../../workers/domain/clients/files';
import { addClientNote, clientActivities } from '../../workers/domain/clients/notes';
import { getOwnClient, updateOwnClient } from '../../workers/domain/clients/profile';
import {
  createClient,
  getClient,
  updateClient,
  updateClientAddress,
} from '../../workers/domain/clients/service';
import {
  clientMetadata,
  clientSummary,
  exportClients,
  listClients,
} from '../../workers/domain/clients/queries';
import { applyClientAction, bulkClientAction, setClientStatus } from '../../workers/domain/clients/status';
import { Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import { noteSchema } from '../../workers/domain/notes/schema';
import { inJson } from '../../workers/platform/db';
import { formatMessage } from '../../workers/platform/i18n';
import { buildCampus, buildClient } from '../../drizzle/seed/builders';
import type { ActorCtx } from '../../workers/domain/context';
import {
  actorCtx,
  actorFor,
  ctx as baseCtx,
  db,
  DEMO_ACCOUNTS,
  SETUP_TIMEOUT_MS,
  testEnv,
} from '../support/world';
import { clientInput, OTHER_ACCOUNT_MANAGER, seedClientsWorld, type ClientsWorld } from '../support/clients';
import { fileOf, jpgBytes, pdfBytes, pngBytes } from '../support/files';

let world: ClientsWorld;
/** The senior admin looking at the demo company only (the top bar). */
let albionSenior: ActorCtx;

async function failure(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  const v = e as ValidationFailed;
  return { ...v, english: v.errors.map((x) => [x.key, formatMessage(x.message)]) };
}

beforeAll(async () => {
  world = await seedClientsWorld();
  albionSenior = {
    ...baseCtx(),
    actor: await actorFor(DEMO_ACCOUNTS.seniorAdmin, world.albion.id),
  } as ActorCtx;
}, SETUP_TIMEOUT_MS);

describe('client fields', () => {
  it('uses the value lists of the database columns, not copies', () => {
    expect(CLIENT_TYPES).toBe(db_schema.CLIENT_TYPES);
    expect(CLIENT_STATUSES).toBe(db_schema.CLIENT_STATUSES);
    expect(PAYMENT_TERMS).toBe(db_schema.PAYMENT_TERMS);
    expect(PAYMENT_METHODS).toBe(db_schema.PAYMENT_METHODS);
    expect(PAYMENT_FREQUENCIES).toBe(db_schema.PAYMENT_FREQUENCIES);
    expect(INVOICE_RULES).toBe(db_schema.INVOICE_RULES);
    expect(CLIENT_LANGUAGES).toBe(db_schema.LANGUAGES);
  });

  it('needs a phone number and its country together', () => {
    const r = clientUpdateSchema.safeParse({ phone_number: '01865000000' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), formatMessage(i.message)])).toEqual([
      ['phone_country', 'This field is required'],
    ]);
  });

  it('checks name, type, website, tax number and the fact-find answers', () => {
    const r = clientUpdateSchema.safeParse({
      name: '',
      type: 'college',
      website: 'riverside',
      tax_number: '#',
      fact_find: { international_students_per_year: 'many', renewal_month: '13' },
    });
    expect(r.success).toBe(false);
    const errors = Object.fromEntries(
      r.error!.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]),
    );
    expect(errors).toMatchObject({
      name: 'This field is required',
      type: 'Choose one of the options.',
      website: 'This value must be a valid URL',
      tax_number: 'A tax or VAT number has 2 to 30 letters, digits, spaces, dots, hyphens or slashes.',
      'fact_find.international_students_per_year': 'Value must be digit',
      'fact_find.renewal_month': 'Choose one of the options.',
    });
  });
});

describe('creating a client', () => {
  it('saves every field with contacts, addresses and fact-find, active by default, with its log row', async () => {
    const client = await createClient(albionSenior, clientInput({ name: 'Created Fully' }));
    expect(client).toMatchObject({
      name: 'Created Fully',
      status: 'active',
      type: 'school',
      payment_terms: 'monthly',
      invoice_rule: 'by_group',
      tax_number: 'GB123456789',
      billing_enabled: true,
      company: { name: world.albion.name },
      fact_find: { international_students_per_year: '120', renewal_month: '09' },
    });
    expect(client.contacts.owner).toMatchObject({ full_name: 'Olivia Owner', is_master_user: true });
    expect(client.contacts.accounting?.job_title).toBe('Bursar');
    expect(client.contacts.secondary).toHaveLength(1);
    expect(client.billing_address?.city).toBe('Oxford');
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'client'), eq(activityLogs.entity_id, client.id_numeric)));
    expect(log).toMatchObject({
      action: 'created',
      actor_user_id: albionSenior.actor.user_id,
      client_id: client.id_numeric,
    });
    expect(log.after).toMatchObject({
      name: 'Created Fully',
      owner_contact: 'Olivia Owner, olivia@riverside.test, master user',
    });
  });

  it('can be saved as a draft, which shows in the onboarding tab', async () => {
    const client = await createClient(albionSenior, clientInput({ name: 'Drafted', status: 'draft' }));
    expect(client.status).toBe('draft');
    const onboarding = await listClients(albionSenior, { tab: 'onboarding', search: 'Drafted' });
    expect(onboarding.items.map((c) => c.id)).toEqual([client.id]);
  });

  it('asks which company when the user looks at all of their companies', async () => {
    const all = { ...baseCtx(), actor: await actorFor(DEMO_ACCOUNTS.seniorAdmin, 0) } as ActorCtx;
    expect(all.actor.selected_company_id).toBeNull();
    const e = await failure(createClient(all, clientInput({ name: 'No Company' })));
    expect(e.english).toEqual([['company_id', 'Choose the company this client belongs to.']]);
    const made = await createClient(
      all,
      clientInput({ name: 'In Britannia', company_id: world.britannia.public_id }),
    );
    expect(made.company.name).toBe(world.britannia.name);
    const e2 = await failure(
      createClient(all, clientInput({ name: 'Stranger co', company_id: world.thistle.public_id })),
    );
    expect(e2.english).toEqual([['company_id', 'Choose one of your companies.']]);
  });

  it('takes as account manager only an account manager of the client company', async () => {
    const mark = await actorFor(DEMO_ACCOUNTS.accountManager);
    const e = await failure(
      createClient(
        albionSenior,
        clientInput({ name: 'Bad Manager', account_manager_id: albionSenior.actor.public_id }),
      ),
    );
    expect(e.english).toEqual([
      ['account_manager_id', "Choose an account manager of this client's company."],
    ]);
    const client = await createClient(
      albionSenior,
      clientInput({ name: 'Managed', account_manager_id: mark.public_id }),
    );
    expect(client.account_manager).toMatchObject({ id: mark.public_id, name: 'Mark Manager' });
    // Mark belongs to the demo company only: not a manager for a Britannia client.
    const all = { ...baseCtx(), actor: await actorFor(DEMO_ACCOUNTS.seniorAdmin, 0) } as ActorCtx;
    await failure(
      createClient(
        all,
        clientInput({
          name: 'Elsewhere',
          company_id: world.britannia.public_id,
          account_manager_id: mark.public_id,
        }),
      ),
    );
  });

  it('refuses users without create_client and writes nothing', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    await expect(createClient(finance, clientInput({ name: 'Finance made' }))).rejects.toBeInstanceOf(
      Forbidden,
    );
    expect(await db().select().from(clients).where(eq(clients.name, 'Finance made'))).toEqual([]);
  });

  it('leaves nothing behind when a file is refused', async () => {
    const e = await failure(
      createClient(albionSenior, clientInput({ name: 'Bad Logo' }), { logo: fileOf(pdfBytes(), 'logo.pdf') }),
    );
    expect(e.errors[0].key).toBe('logo');
    expect(await db().select().from(clients).where(eq(clients.name, 'Bad Logo'))).toEqual([]);
  });
});

describe("account managers' own clients are a list filter, not a wall", () => {
  it('opens their list on the clients they manage, clears it to all, and opens any client of their company', async () => {
    const mark = await actorCtx(DEMO_ACCOUNTS.accountManager);
    const own = await createClient(mark, clientInput({ name: 'Marks Own School' }));
    expect(own.account_manager?.name).toBe('Mark Manager');
    const listed = await listClients(mark, { items: 500 });
    expect(listed.items.map((c) => c.id)).toContain(own.id);
    expect(listed.items.every((c) => c.account_manager?.name === 'Mark Manager')).toBe(true);
    expect((await clientSummary(mark)).total).toBe(listed.meta.total);
    const all = await listClients(mark, { account_manager_clients: false, items: 500 });
    expect(all.items.map((c) => c.id)).toEqual(expect.arrayContaining([own.id, world.maple.public_id]));
    expect(all.items.map((c) => c.id)).not.toContain(world.heather.public_id);
    expect((await getClient(mark, world.maple.public_id)).name).toBe(world.maple.name);
    await expect(getClient(mark, world.heather.public_id)).rejects.toBeInstanceOf(NotFound);
    expect((await clientMetadata(mark)).account_manager_clients).toBe(true);
    // Others may ask for their own list with the account_manager_clients option.
    const mine = await listClients(albionSenior, { account_manager_clients: true });
    expect(mine.items).toEqual([]);
    const marks = await listClients(albionSenior, { account_manager: mark.actor.public_id, items: 500 });
    expect(marks.items.map((c) => c.id)).toContain(own.id);
  });

  it('may hand a client to another account manager and still open and edit it', async () => {
    const mark = await actorCtx(DEMO_ACCOUNTS.accountManager);
    const other = await actorFor(OTHER_ACCOUNT_MANAGER);
    const own = await createClient(mark, clientInput({ name: 'Marks Second' }));
    const handed = await updateClient(mark, own.id, { account_manager_id: other.public_id });
    expect(handed.account_manager?.name).toBe('Olive Other');
    expect((await listClients(mark, { items: 500 })).items.map((c) => c.id)).not.toContain(own.id);
    const edited = await updateClient(mark, own.id, {
      account_manager_id: other.public_id,
      name: 'Olives Now',
    });
    expect(edited).toMatchObject({ name: 'Olives Now', account_manager: { name: 'Olive Other' } });
  });
});

describe('updating a client', () => {
  it('changes only the given sections and logs only the changed fields', async () => {
    const client = await createClient(albionSenior, clientInput({ name: 'To Update' }));
    const saved = await updateClient(
      albionSenior,
      client.id,
      clientUpdateSchema.parse({
        name: 'Updated Name',
        payment_terms: 'weekly',
        fact_find: { current_insurer: 'Acme' },
      }),
    );
    expect(saved).toMatchObject({ name: 'Updated Name', payment_terms: 'weekly', tax_number: 'GB123456789' });
    expect(saved.fact_find).toEqual({ current_insurer: 'Acme' });
    expect(saved.contacts.owner?.first_name).toBe('Olivia');
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_id, client.id_numeric), eq(activityLogs.action, 'updated')));
    expect(logs).toHaveLength(1);
    expect(logs[0].before).toMatchObject({
      name: 'To Update',
      payment_terms: 'monthly',
      fact_find_current_insurer: null,
    });
    expect(logs[0].after).toMatchObject({
      name: 'Updated Name',
      payment_terms: 'weekly',
      fact_find_current_insurer: 'Acme',
    });
    expect(Object.keys(logs[0].after!)).not.toContain('tax_number');
  });

  it('replaces contacts and addresses when given, in one batch with the log', async () => {
    const client = await createClient(albionSenior, clientInput({ name: 'Contacts Change' }));
    const saved = await updateClient(
      albionSenior,
      client.id,
      clientUpdateSchema.parse({
        contacts: { initial: { first_name: 'Ian', last_name: 'Initial', department: 'Office' } },
        billing_address: null,
        mailing_address: { address: 'PO Box 1', city: 'Leeds', email: 'post@x.test', country_id: 1 },
      }),
    );
    expect(saved.contacts.owner).toBeNull();
    expect(saved.contacts.initial?.department).toBe('Office');
    expect(saved.billing_address).toBeNull();
    expect(saved.mailing_address?.city).toBe('Leeds');
    const feed = await clientActivities(albionSenior, client.id);
    const change = feed.items.find((r) => r.action === 'updated')!;
    expect(change.changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['owner_contact', 'initial_contact', 'billing_address', 'mailing_address']),
    );
  });

  it('updates one address through its own call', async () => {
    const client = await createClient(albionSenior, clientInput({ name: 'Address Call' }));
    const address = await updateClientAddress(albionSenior, client.id, 'mailing', {
      address: '9 Post Road',
      city: 'York',
      country_id: 1,
    });
    expect(address?.city).toBe('York');
  });

  it('refuses users who may only read clients', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    expect((await getClient(finance, world.oakwood.public_id)).name).toBe('Oakwood International School');
    await expect(updateClient(finance, world.oakwood.public_id, { name: 'x' })).rejects.toBeInstanceOf(
      Forbidden,
    );
  });
});

describe('client states and transitions (spec 001 s.4)', () => {
  it('allows only the moves of the state table', () => {
    expect(canMoveClient('active', 'archived')).toBe(true);
    expect(canMoveClient('archived', 'active')).toBe(true);
    expect(canMoveClient('draft', 'pending_onboarding')).toBe(true);
    expect(canMoveClient('active', 'pending_onboarding')).toBe(false);
    expect(canMoveClient('archived', 'suspended')).toBe(false);
    expect(canMoveClient('active', 'draft')).toBe(false);
  });

  it('archives an active client and reactivates it; archiving twice says it is already archived', async () => {
    const c = await createClient(albionSenior, clientInput({ name: 'Archive Me' }));
    await applyClientAction(albionSenior, c.id, 'archive');
    expect((await getClient(albionSenior, c.id)).status).toBe('archived');
    const e = await failure(applyClientAction(albionSenior, c.id, 'archive'));
    expect(e.english).toEqual([['status', 'The client is already archived.']]);
    await applyClientAction(albionSenior, c.id, 'reactivate');
    expect((await getClient(albionSenior, c.id)).status).toBe('active');
    const feed = await clientActivities(albionSenior, c.id);
    expect(feed.items.slice(0, 2).map((r) => r.action)).toEqual(['reactivated', 'archived']);
  });

  it('requests onboarding for a draft and activates it; an active client cannot be sent to onboarding', async () => {
    const draft = await createClient(albionSenior, clientInput({ name: 'Onboard Me', status: 'draft' }));
    await applyClientAction(albionSenior, draft.id, 'request_onboarding');
    expect((await getClient(albionSenior, draft.id)).status).toBe('pending_onboarding');
    await applyClientAction(albionSenior, draft.id, 'activate');
    expect((await getClient(albionSenior, draft.id)).status).toBe('active');
    const e = await failure(applyClientAction(albionSenior, draft.id, 'request_onboarding'));
    expect(e.english).toEqual([['status', 'A client that is active cannot become pending onboarding.']]);
  });

  it('sets a status through the status call only where the state table allows it', async () => {
    const c = await createClient(albionSenior, clientInput({ name: 'Status Call', status: 'draft' }));
    await setClientStatus(albionSenior, c.id, 'waiting_sa');
    await setClientStatus(albionSenior, c.id, 'waiting_for_approval');
    await setClientStatus(albionSenior, c.id, 'active');
    await setClientStatus(albionSenior, c.id, 'suspended');
    const e = await failure(setClientStatus(albionSenior, c.id, 'waiting_sa'));
    expect(e.english).toEqual([['status', 'A client that is suspended cannot become waiting sa.']]);
    expect((await getClient(albionSenior, c.id)).status).toBe('suspended');
  });

  it('deletes a client without campuses, agreements, contracts or users, with its contacts and notes', async () => {
    const c = await createClient(albionSenior, clientInput({ name: 'Delete Me' }));
    await addClientNote(
      albionSenior,
      c.id,
      noteSchema.parse({ title: 't', note: 'n', date: '2026-01-01', source: 'call', type: 'admin_note' }),
      fileOf(pdfBytes(), 'n.pdf'),
    );
    await applyClientAction(albionSenior, c.id, 'delete');
    await expect(getClient(albionSenior, c.id)).rejects.toBeInstanceOf(NotFound);
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.owner_type, 'client'), eq(contacts.owner_id, c.id_numeric))),
    ).toEqual([]);
    expect(
      await db()
        .select()
        .from(notes)
        .where(and(eq(notes.owner_type, 'client'), eq(notes.owner_id, c.id_numeric))),
    ).toEqual([]);
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_id, c.id_numeric), eq(activityLogs.action, 'deleted')));
    expect(log.before).toMatchObject({ name: 'Delete Me' });
  });

  it('refuses to delete a client with campuses, with a clear message', async () => {
    const e = await failure(applyClientAction(albionSenior, world.oakwood.public_id, 'delete'));
    expect(e.english).toEqual([
      [
        'status',
        'This client has campuses, service agreements, contracts or users and cannot be deleted. Archive it instead.',
      ],
    ]);
  });

  it('needs archive_client to archive and delete_client to delete', async () => {
    const mark = await actorCtx(DEMO_ACCOUNTS.accountManager);
    const own = await createClient(mark, clientInput({ name: 'Marks Undeletable' }));
    await expect(applyClientAction(mark, own.id, 'delete')).rejects.toBeInstanceOf(Forbidden);
    await applyClientAction(mark, own.id, 'archive');
  });
});

describe('bulk actions', () => {
  it('applies to the eligible selected clients in one go and names the ones skipped', async () => {
    const a = await createClient(albionSenior, clientInput({ name: 'Bulk A' }));
    const b = await createClient(albionSenior, clientInput({ name: 'Bulk B' }));
    await applyClientAction(albionSenior, b.id, 'archive');
    const result = await bulkClientAction(albionSenior, {
      action: 'archive',
      ids: [a.id, b.id, world.heather.public_id],
    });
    expect(result.done).toBe(1);
    expect(result.skipped).toEqual([
      { id: b.id, name: 'Bulk B', reason: 'clients.errors.already|{"status":"archived"}' },
    ]);
    expect((await getClient(albionSenior, a.id)).status).toBe('archived');
    // The other tenant's client was neither touched nor named.
    const [heather] = await db().select().from(clients).where(eq(clients.id, world.heather.id));
    expect(heather.status).toBe('active');
  });

  it('acts on all clients matching the filters, and only those', async () => {
    const drafts = await Promise.all(
      ['Match One', 'Match Two'].map((name) =>
        createClient(albionSenior, clientInput({ name, status: 'draft' })),
      ),
    );
    const other = await createClient(albionSenior, clientInput({ name: 'Unrelated Draft', status: 'draft' }));
    const result = await bulkClientAction(albionSenior, {
      action: 'request_onboarding',
      all_matching: true,
      filters: { tab: 'onboarding', search: 'Match ' },
    });
    expect(result.done).toBe(2);
    for (const d of drafts) expect((await getClient(albionSenior, d.id)).status).toBe('pending_onboarding');
    expect((await getClient(albionSenior, other.id)).status).toBe('draft');
  });

  it('deletes what it can and keeps clients with campuses', async () => {
    const gone = await createClient(albionSenior, clientInput({ name: 'Bulk Delete' }));
    const kept = await buildClient(db(), { name: 'Has Campus', companyId: world.albion.id });
    await buildCampus(db(), { name: 'Its Campus', clientId: kept.id });
    const result = await bulkClientAction(albionSenior, { action: 'delete', ids: [gone.id, kept.public_id] });
    expect(result.done).toBe(1);
    expect(result.skipped.map((s) => s.name)).toEqual(['Has Campus']);
  });

  it('archives and deletes more clients than one statement can bind parameters for', async () => {
    const many: (typeof clients.$inferSelect)[] = [];
    for (let i = 0; i < 150; i++)
      many.push(await buildClient(db(), { name: `Many ${i}`, companyId: world.albion.id }));
    const ids = many.map((c) => c.public_id);
    const logsOf = (action: string) =>
      db()
        .select({ id: activityLogs.entity_id })
        .from(activityLogs)
        .where(
          and(
            eq(activityLogs.action, action),
            inJson(
              activityLogs.entity_id,
              many.map((c) => c.id),
            ),
          ),
        );
    expect((await bulkClientAction(albionSenior, { action: 'archive', ids })).done).toBe(150);
    const archived = await db()
      .select({ status: clients.status })
      .from(clients)
      .where(like(clients.name, 'Many %'));
    expect(archived.map((c) => c.status)).toEqual(Array(150).fill('archived'));
    expect(await logsOf('archived')).toHaveLength(150);
    expect((await bulkClientAction(albionSenior, { action: 'delete', ids })).done).toBe(150);
    expect(await db().select().from(clients).where(like(clients.name, 'Many %'))).toEqual([]);
    expect(await logsOf('deleted')).toHaveLength(150);
  });

  it('says when nothing is selected', async () => {
    const e = await failure(bulkClientAction(albionSenior, { action: 'archive', ids: [] }));
    expect(e.english).toEqual([['ids', 'Select at least one client.']]);
  });
});

describe('the client list', () => {
  it('pages, sorts, filters by tab, type and search, within the selected company', async () => {
    await createClient(albionSenior, clientInput({ name: 'Zulu Agency', type: 'agency' }));
    await createClient(albionSenior, clientInput({ name: 'Alpha Agency', type: 'agency' }));
    const agencies = await listClients(albionSenior, { type: 'agency', order: 'name_asc' });
    expect(agencies.items.map((c) => c.name)).toEqual(['Alpha Agency', 'Zulu Agency']);
    const desc = await listClients(albionSenior, { type: 'agency', order: 'name_desc', items: 1 });
    expect(desc.items.map((c) => c.name)).toEqual(['Zulu Agency']);
    expect(desc.meta).toMatchObject({ total: 2, per_page: 1, last_page: 2, from: 1, to: 1 });
    const page2 = await listClients(albionSenior, { type: 'agency', order: 'name_desc', items: 1, page: 2 });
    expect(page2.items.map((c) => c.name)).toEqual(['Alpha Agency']);
    const oak = await listClients(albionSenior, { search: 'oakwood' });
    expect(oak.items[0]).toMatchObject({ name: 'Oakwood International School', campuses: 2 });
    const all = await listClients(albionSenior, { items: 500 });
    expect(all.items.some((c) => c.company !== world.albion.name)).toBe(false);
  });

  it('exports the filtered list, and counts each tab in the summary', async () => {
    const rows = await exportClients(albionSenior, { type: 'agency' });
    expect(rows.map((r) => r.name).sort()).toEqual(['Alpha Agency', 'Zulu Agency']);
    const summary = await clientSummary(albionSenior);
    expect(summary.total).toBe(summary.active + summary.onboarding + summary.archived);
    expect(summary.by_status.draft).toBeGreaterThan(0);
  });
});

describe('logo and return policy', () => {
  it('stores them in R2 by content type, replaces the old file and serves them', async () => {
    const c = await createClient(albionSenior, clientInput({ name: 'With Files' }), {
      logo: fileOf(pngBytes(), 'logo.png'),
      return_policy: fileOf(pdfBytes('returns'), 'Returns.pdf'),
    });
    expect(c).toMatchObject({ logo: 'logo.png', return_policy: 'Returns.pdf' });
    const [row] = await db().select().from(clients).where(eq(clients.public_id, c.id));
    expect(row.logo_key).toMatch(new RegExp(`^clients/${c.id}/logo/`));
    const first = row.logo_key!;
    await setClientFile(albionSenior, c.id, 'logo', fileOf(jpgBytes(), 'new.jpg'));
    expect(await testEnv().FILES.get(first)).toBeNull();
    const logo = await clientFileResponse(albionSenior, c.id, 'logo');
    expect(logo.headers.get('content-type')).toBe('image/jpeg');
    const policy = await clientFileResponse(albionSenior, c.id, 'return_policy');
    expect(policy.headers.get('content-disposition')).toContain('attachment');
    const e = await failure(setClientFile(albionSenior, c.id, 'return_policy', fileOf(pngBytes(), 'r.png')));
    expect(e.errors[0].key).toBe('return_policy');
  });
});

describe('a school user and its own client profile', () => {
  it('reads and edits its own client, keeping the contact types it does not edit', async () => {
    const susan = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    await updateClient(albionSenior, world.oakwood.public_id, {
      contacts: { initial: { first_name: 'Ian', last_name: 'Initial' }, custom: [], secondary: [] },
    });
    const own = await getOwnClient(susan);
    expect(own.name).toBe('Oakwood International School');
    const saved = await updateOwnClient(
      susan,
      schoolClientSchema.parse({
        name: 'Oakwood International School',
        description: 'Boarding school',
        preferred_lang: 'en',
        contacts: { owner: { first_name: 'Olga', last_name: 'Oak', email: 'olga@oakwood.test' } },
      }),
    );
    expect(saved.description).toBe('Boarding school');
    expect(saved.contacts.owner?.first_name).toBe('Olga');
    expect(saved.contacts.initial?.first_name).toBe('Ian');
  });

  it('refuses the edit to a school user who may only read the profile', async () => {
    const carl = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    expect((await getOwnClient(carl)).name).toBe('Oakwood International School');
    await expect(
      updateOwnClient(carl, schoolClientSchema.parse({ name: 'Hacked', preferred_lang: 'en' })),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('gives company users no own client', async () => {
    await expect(getOwnClient(albionSenior)).rejects.toBeInstanceOf(Forbidden);
  });
});
