import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { activityLogs, campuses, contacts as contactsTable } from '../../drizzle/schema';
import { buildContract } from '../../drizzle/seed/contracts';
import {
  activateCampus,
  archiveCampus,
  cloneCampus,
  createCampus,
  getCampusAddress,
  updateCampus,
  updateCampusAddress,
  updateCampusBilling,
  updateCampusContacts,
} from '../../workers/domain/campuses/edit';
import {
  addCampusNote,
  campusContract,
  campusContracts,
  campusLogs,
  campusNotes,
  campusesSummary,
  getCampus,
  listCampuses,
} from '../../workers/domain/campuses/service';
import { listCampusUsers } from '../../workers/domain/users/service';
import { schoolUserListSchema } from '../../workers/domain/users/schema';
import { enrollmentTemplate } from '../../workers/domain/campuses/template';
import {
  campusBillingSchema,
  campusContactsSchema,
  campusListQuerySchema,
  createCampusSchema,
  updateCampusSchema,
} from '../../workers/domain/campuses/schema';
import { contractListQuerySchema } from '../../workers/domain/contracts/schema';
import { noteSchema } from '../../workers/domain/notes/schema';
import { addressSchemas } from '../../workers/domain/contacts/schema';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { loadExcel } from '../../workers/platform/xlsx';
import { formatMessage } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, asSenior, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

let w: ContractsWorld;
let gb: number;

beforeAll(async () => {
  w = await seedContractsWorld();
  gb = w.north.country_id!;
}, SETUP_TIMEOUT_MS);

async function failure(run: Promise<unknown>): Promise<Record<string, string>> {
  const e = await run.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  return Object.fromEntries((e as ValidationFailed).errors.map((x) => [x.key, formatMessage(x.message)]));
}

const fullCampus = (over: Record<string, unknown> = {}) =>
  createCampusSchema.parse({
    client_id: w.oakwood.public_id,
    name: 'Oakwood East Campus',
    initial: 'OEC',
    description: 'The east building',
    country_id: String(gb),
    phone_country: 'gb',
    phone_number: '020 7946 0000',
    website: 'https://east.oakwood.example',
    preferred_lang: 'fr',
    account_number_ap: 'AP-1',
    account_number_ar: 'AR-1',
    payment_terms: 'monthly',
    pay_with_bank_transfer: 'on',
    contacts: {
      initial: {
        first_name: 'Ian',
        last_name: 'Initial',
        email: 'ian@oakwood.example',
        job_title: 'Registrar',
      },
      owner: { first_name: 'Olive', last_name: 'Owner', email: 'olive@oakwood.example' },
      secondary: [{ first_name: 'Sid', last_name: 'Second', email: 'sid@oakwood.example' }, {}],
      accounting: { first_name: 'Ada', last_name: 'Accounts', email: 'ada@oakwood.example' },
    },
    billing_address: {
      address: '1 East Road',
      city: 'London',
      postal_code: 'E1 1AA',
      country_id: String(gb),
    },
    mailing_address: {
      address: '2 East Road',
      city: 'London',
      country_id: String(gb),
      email: 'post@oakwood.example',
    },
    ...over,
  });

describe('campus fields (spec 001 s.3, s.5)', () => {
  it('requires a name of 1 to 100 characters', () => {
    const blank = createCampusSchema.safeParse({ client_id: 'x', name: '  ' });
    expect(blank.success ? null : formatMessage(blank.error.issues[0].message)).toBe(
      'This field is required',
    );
    const long = createCampusSchema.safeParse({ client_id: 'x', name: 'x'.repeat(101) });
    expect(long.success ? null : formatMessage(long.error.issues[0].message)).toMatch(/100/);
  });

  it('checks the phone pair, the website and the payment terms', () => {
    const r = updateCampusSchema.safeParse({ name: 'A', phone_number: '12345', website: 'not a url' });
    const messages = r.success
      ? {}
      : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]));
    expect(messages).toEqual({
      website: 'This value must be a valid URL',
      phone_country: 'This field is required',
    });
    const lang = updateCampusSchema.safeParse({ name: 'A', preferred_lang: 'xx' });
    expect(lang.success ? null : formatMessage(lang.error.issues[0].message)).toBe(
      'Please choose one of the options',
    );
    const terms = campusBillingSchema.safeParse({ payment_terms: 'yearly' });
    expect(terms.success).toBe(false);
  });

  it('a mailing address with an email needs its city (shared address rule)', () => {
    const r = addressSchemas.mailing.safeParse({ address: '1 Road', country_id: '1', email: 'a@b.example' });
    expect(r.success ? null : formatMessage(r.error.issues[0].message)).toBe(
      'Mailing city is required when a mailing email is given.',
    );
  });
});

describe('creating and changing a campus', () => {
  it('creates a campus with every field, contacts and addresses, and logs it', async () => {
    const c = await createCampus(await asSenior(), fullCampus());
    expect(c).toMatchObject({
      name: 'Oakwood East Campus',
      initial: 'OEC',
      status: 'active',
      client: { id: w.oakwood.public_id },
      country: { id: gb, name: 'United Kingdom' },
      phone_country: 'GB',
      phone_number: '02079460000',
      preferred_lang: 'fr',
      account_number_ap: 'AP-1',
      payment_terms: 'monthly',
      pay_with_bank_transfer: true,
      summary: { contracts: 0, users: 1 },
    });
    expect(c.contacts.owner?.full_name).toBe('Olive Owner');
    expect(c.contacts.secondary.map((s) => s.email)).toEqual(['sid@oakwood.example']);
    expect(c.billing_address?.city).toBe('London');
    expect(c.mailing_address?.email).toBe('post@oakwood.example');
    const logs = await campusLogs(await asSenior(), c.id);
    expect(logs.items.map((l) => l.action)).toEqual(['created']);
  });

  it('names an account manager of the client company, and refuses anyone else', async () => {
    const manager = await userByEmail(DEMO_ACCOUNTS.accountManager);
    const c = await createCampus(
      await asSenior(),
      fullCampus({ name: 'Managed', account_manager_id: manager.public_id }),
    );
    expect(c.account_manager?.name).toBe('Mark Manager');
    const finance = await userByEmail(DEMO_ACCOUNTS.finance);
    const errors = await failure(
      createCampus(await asSenior(), fullCampus({ account_manager_id: finance.public_id })),
    );
    expect(errors.account_manager_id).toBe("Choose an account manager of the client's company");
  });

  it('refuses a client of another company, and writes nothing', async () => {
    const before = (await db().select().from(campuses)).length;
    const errors = await failure(
      createCampus(await asSenior(), fullCampus({ client_id: w.highland.public_id })),
    );
    expect(errors.client_id).toBe('Client not found');
    expect(await db().select().from(campuses)).toHaveLength(before);
  });

  it('updates the profile, billing, contacts and each address, logging every change', async () => {
    const ctx = await asSenior();
    const c = await createCampus(ctx, fullCampus({ name: 'Changing' }));
    const updated = await updateCampus(
      ctx,
      c.id,
      updateCampusSchema.parse({ name: 'Changed', description: '', preferred_lang: 'de' }),
    );
    expect(updated).toMatchObject({
      name: 'Changed',
      description: null,
      preferred_lang: 'de',
      phone_number: null,
    });
    const billed = await updateCampusBilling(
      ctx,
      c.id,
      campusBillingSchema.parse({ account_number_ar: 'AR-9', payment_terms: 'weekly' }),
    );
    expect(billed).toMatchObject({
      account_number_ar: 'AR-9',
      account_number_ap: null,
      payment_terms: 'weekly',
      pay_with_bank_transfer: false,
    });
    const contacted = await updateCampusContacts(
      ctx,
      c.id,
      campusContactsSchema.parse({
        contacts: { owner: { first_name: 'New', last_name: 'Owner', email: 'new@oakwood.example' } },
      }),
    );
    expect(contacted.contacts.owner?.full_name).toBe('New Owner');
    expect(contacted.contacts.initial).toBeNull();
    const address = await updateCampusAddress(
      ctx,
      c.id,
      'billing',
      addressSchemas.billing.parse({ address: '9 New St', country_id: String(gb), city: 'Leeds' }),
    );
    expect(address?.city).toBe('Leeds');
    expect((await getCampusAddress(ctx, c.id, 'billing'))?.address).toBe('9 New St');
    await updateCampusAddress(ctx, c.id, 'mailing', undefined);
    expect(await getCampusAddress(ctx, c.id, 'mailing')).toBeNull();
    const logs = await campusLogs(ctx, c.id);
    expect(logs.items.map((l) => l.action)).toEqual([
      'mailing_address_updated',
      'billing_address_updated',
      'contacts_updated',
      'billing_updated',
      'updated',
      'created',
    ]);
    expect(logs.items.find((l) => l.action === 'updated')!.changes).toContainEqual({
      field: 'name',
      before: 'Changing',
      after: 'Changed',
    });
  });

  it('archives and activates, refusing to repeat a status', async () => {
    const ctx = await asSenior();
    const c = await createCampus(ctx, fullCampus({ name: 'Archivable' }));
    expect((await archiveCampus(ctx, c.id)).status).toBe('archived');
    expect((await failure(archiveCampus(ctx, c.id))).status).toBe('This campus is already archived.');
    expect((await activateCampus(ctx, c.id)).status).toBe('active');
    expect((await failure(activateCampus(ctx, c.id))).status).toBe('This campus is already active.');
  });

  it('clones fields, contacts and addresses, but not contracts', async () => {
    const ctx = await asSenior();
    const c = await createCampus(ctx, fullCampus({ name: 'Original' }));
    const campusRow = (await db().select().from(campuses).where(eq(campuses.public_id, c.id)))[0];
    await buildContract(db(), { campusId: campusRow.id, productId: w.product.id, startDate: day(-1) });
    const copy = await cloneCampus(ctx, c.id);
    expect(copy.id).not.toBe(c.id);
    expect(copy).toMatchObject({
      name: 'Original (copy)',
      initial: 'OEC',
      payment_terms: 'monthly',
      pay_with_bank_transfer: true,
      summary: { contracts: 0 },
    });
    expect(copy.contacts.owner?.email).toBe('olive@oakwood.example');
    expect(copy.contacts.secondary).toHaveLength(1);
    expect(copy.billing_address?.address).toBe('1 East Road');
    expect(copy.mailing_address?.email).toBe('post@oakwood.example');
    const original = await getCampus(ctx, c.id);
    expect(original.contacts.owner?.email).toBe('olive@oakwood.example');
    const rows = await db().select().from(contactsTable).where(eq(contactsTable.owner_type, 'campus'));
    expect(rows.filter((r) => r.email === 'olive@oakwood.example').length).toBeGreaterThanOrEqual(2);
    const named = await cloneCampus(ctx, c.id, { name: 'Named copy' });
    expect(named.name).toBe('Named copy');
  });

  it('needs the campus permissions', async () => {
    await expect(createCampus(await actorCtx(DEMO_ACCOUNTS.finance), fullCampus())).rejects.toThrow(
      'You do not have permission to do this.',
    );
    await expect(archiveCampus(await actorCtx(DEMO_ACCOUNTS.schoolAdmin), w.north.public_id)).rejects.toThrow(
      'You do not have permission to do this.',
    );
  });
});

describe('campus lists and tabs', () => {
  it("lists a client's campuses with filters, and counts them", async () => {
    const ctx = await asSenior();
    const list = await listCampuses(
      ctx,
      campusListQuerySchema.parse({ client_id: w.oakwood.public_id, search: 'Oakwood North' }),
    );
    expect(list.items.map((c) => c.name)).toEqual(['Oakwood North Campus']);
    const summary = await campusesSummary(ctx, w.highland.public_id);
    expect(summary).toEqual({ total: 0, active: 0, archived: 0 });
    const mine = await campusesSummary(ctx, w.oakwood.public_id);
    expect(mine.total).toBeGreaterThanOrEqual(2);
  });

  it('shows a school user only their client, and a campus employee only their own campus', async () => {
    const master = await listCampuses(
      await actorCtx(DEMO_ACCOUNTS.schoolAdmin),
      campusListQuerySchema.parse({ items: 500 }),
    );
    expect(master.items.every((c) => c.client.id === w.oakwood.public_id)).toBe(true);
    const employee = await listCampuses(
      await actorCtx(DEMO_ACCOUNTS.campusEmployee),
      campusListQuerySchema.parse({ items: 500 }),
    );
    expect(employee.items.map((c) => c.name)).toEqual(['Oakwood North Campus']);
    await expect(
      getCampus(await actorCtx(DEMO_ACCOUNTS.campusEmployee), w.south.public_id),
    ).rejects.toBeInstanceOf(NotFound);
    const stranger = await listCampuses(
      await actorCtx(STRANGER.schoolUser),
      campusListQuerySchema.parse({ items: 500 }),
    );
    expect(stranger.items.map((c) => c.name)).toEqual(['Highland Main Campus']);
  });

  it('lists the campus users: linked ones and those who see every campus', async () => {
    const ctx = await asSenior();
    const north = await listCampusUsers(ctx, w.north.public_id, schoolUserListSchema.parse({}));
    expect(north.items.map((u) => u.email).sort()).toEqual(
      [DEMO_ACCOUNTS.campusEmployee, DEMO_ACCOUNTS.schoolAdmin].sort(),
    );
    const south = await listCampusUsers(ctx, w.south.public_id, schoolUserListSchema.parse({}));
    expect(south.items.map((u) => u.email)).toEqual([DEMO_ACCOUNTS.schoolAdmin]);
  });

  it('lists the campus contracts and reads one; a contract of another campus is not found there', async () => {
    const ctx = await asSenior();
    const here = await buildContract(db(), {
      campusId: w.south.id,
      productId: w.product.id,
      startDate: day(-1),
      name: 'South contract',
    });
    const there = await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-1),
      name: 'North contract',
    });
    const list = await campusContracts(
      ctx,
      w.south.public_id,
      contractListQuerySchema.parse({ search: 'South contract' }),
    );
    expect(list.items.map((c) => c.id)).toEqual([here.public_id]);
    expect((await campusContract(ctx, w.south.public_id, here.public_id)).name).toBe('South contract');
    await expect(campusContract(ctx, w.south.public_id, there.public_id)).rejects.toBeInstanceOf(NotFound);
  });

  it('adds and lists notes, with the conversation-note rule', async () => {
    const ctx = await asSenior();
    const bad = noteSchema.safeParse({
      title: 'Call',
      note: 'They rang',
      date: day(0),
      source: 'message_centre',
      type: 'communication',
    });
    expect(bad.success).toBe(false);
    await addCampusNote(
      ctx,
      w.south.public_id,
      noteSchema.parse({
        title: 'Visit',
        note: 'Visited the campus',
        date: day(0),
        source: 'call',
        type: 'admin_note',
      }),
    );
    const notes = await campusNotes(ctx, w.south.public_id);
    expect(notes.items.map((n) => n.title)).toContain('Visit');
    const logged = await db().select().from(activityLogs).where(eq(activityLogs.action, 'note_added'));
    expect(logged.some((l) => l.entity_type === 'campus' && l.entity_id === w.south.id)).toBe(true);
  });

  it('builds the enrolment template: applicant columns, accepted values and countries', async () => {
    const { fileName, body } = await enrollmentTemplate(await asSenior(), w.north.public_id);
    expect(fileName).toBe('enrolment-template-oakwood-north-campus.xlsx');
    const ExcelJS = await loadExcel();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body);
    const [applicants, values, countriesSheet] = book.worksheets;
    expect((applicants.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Type',
      'First Name',
      'Last Name',
      'Date of Birth',
      'Gender',
      'Email',
      'Personal Email',
      'Mobile Number Country',
      'Mobile Number',
      'Passport Number',
      'Country of Residence',
      'Country of Destination',
      'Trip Start Date',
      'Trip End Date',
      'Destination Address',
      'Student Number',
      'Year of Study',
      'Group Leader',
      'Group Name',
    ]);
    expect(applicants.rowCount).toBe(1);
    expect(values.name).toBe('Accepted values');
    expect(values.getRow(2).getCell(3).value).toBe('student, immediate_family, group_leader');
    expect(countriesSheet.rowCount).toBeGreaterThan(200);
  });
});
