import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, addresses, clients, companies, contacts, userCompanies } from '../../drizzle/schema';
import { buildUser, countryId } from '../../drizzle/seed/builders';
import { loadActor } from '../../workers/domain/access/actor';
import { companyListSchema, companySchema, ibanIsValid } from '../../workers/domain/companies/schema';
import {
  companiesSummary,
  companyActivity,
  createCompany,
  financeUsers,
  getCompany,
  listCompanies,
  updateCompany,
  updateCompanyStatus,
} from '../../workers/domain/companies/service';
import { Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';
import { chooseCompany, seedConfigWorld, type ConfigWorld } from '../support/config';

let w: ConfigWorld;
let admin: ActorCtx;
let gb: number;

beforeAll(async () => {
  w = await seedConfigWorld();
  await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, 0);
  admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  gb = await countryId(db(), 'GB');
}, SETUP_TIMEOUT_MS);

const issues = (v: Record<string, unknown>) => {
  const r = companySchema.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

const full = () => ({
  name: 'Mercia Student Cover Ltd',
  country_id: String(gb),
  registration_number: '09876543',
  currency: 'GBP',
  preferred_lang: 'en',
  bank_name: 'Barclays Bank UK PLC',
  bic: 'barcgb22',
  iban: 'GB82 WEST 1234 5698 7654 32',
  branch_code: '20-00-00',
  account_number: '12345678',
  payment_gateway: 'barclaycard_epdq',
  order_status_default: 'pending',
  failed_order_status: 'unpaid',
  change_status_after: '30',
  footer_information: 'Mercia Student Cover Ltd is authorised and regulated.',
  quickbooks_company_id: '4620816365',
  contacts: {
    owner: {
      first_name: 'Olive',
      last_name: 'Owner',
      email: 'olive@mercia.test',
      phone_country: 'GB',
      phone_number: '7700900001',
    },
    accounting: {
      first_name: 'Alan',
      last_name: 'Accounts',
      email: 'accounts@mercia.test',
      job_title: 'Controller',
    },
    secondary: [
      { first_name: 'Sam', last_name: 'Second', email: 'sam@mercia.test', is_master_user: 'on' },
      {},
    ],
  },
  billing_address: {
    address: '1 High Street',
    city: 'Birmingham',
    postal_code: 'B1 1AA',
    country_id: String(gb),
  },
  mailing_address: {},
});

describe('company rules', () => {
  it('checks the IBAN checksum (mod 97)', () => {
    expect(ibanIsValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanIsValid('IE29 AIBK 9311 5212 3456 78')).toBe(true);
    expect(ibanIsValid('GB83 WEST 1234 5698 7654 32')).toBe(false);
    expect(ibanIsValid('not an iban')).toBe(false);
    expect(issues({ ...full(), iban: 'GB00WEST12345698765432' })).toEqual(['iban: companies.errors.iban']);
  });

  it('checks the BIC, the payment gateway and the currency', () => {
    expect(issues({ ...full(), bic: 'BARC' })).toEqual(['bic: companies.errors.bic']);
    expect(issues({ ...full(), payment_gateway: 'paypal', currency: 'XYZ' }).sort()).toEqual([
      'currency: validation.required',
      'payment_gateway: validation.required',
    ]);
  });

  it('takes owner, secondary and accounting contacts with their rules: owner needs an email', () => {
    const bad = full();
    bad.contacts.owner = { first_name: 'Olive', last_name: 'Owner' } as never;
    expect(issues(bad)).toEqual(['contacts.owner.email: validation.email_required']);
  });

  it('drops an entirely empty address and secondary slot', () => {
    const parsed = companySchema.parse(full());
    expect(parsed.mailing_address).toBeUndefined();
    expect(parsed.contacts.secondary).toHaveLength(1);
  });
});

describe('companies', () => {
  let created: Awaited<ReturnType<typeof createCompany>>;

  it('creates a company with every field, its contacts and addresses, and makes its creator a member', async () => {
    created = await createCompany(admin, companySchema.parse(full()));
    expect(created).toMatchObject({
      name: 'Mercia Student Cover Ltd',
      country_name: 'United Kingdom',
      bic: 'BARCGB22',
      iban: 'GB82WEST12345698765432',
      payment_gateway: 'barclaycard_epdq',
      change_status_after: 30,
      status: 'active',
      summary: { users: 1, clients: 0 },
    });
    expect(created.contacts.owner).toMatchObject({ email: 'olive@mercia.test', phone_country: 'GB' });
    expect(created.contacts.secondary.map((c) => c.is_master_user)).toEqual([true]);
    expect(created.billing_address).toMatchObject({ city: 'Birmingham', postal_code: 'B1 1AA' });
    expect(created.mailing_address).toBeNull();
    const senior = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    const actor = await loadActor(db(), senior.id);
    expect(actor!.companies.map((c) => c.name)).toContain('Mercia Student Cover Ltd');
  });

  it('writes a log row of the creation', async () => {
    const feed = await companyActivity(admin, created.id);
    expect(feed.items.map((r) => r.action)).toEqual(['created']);
    expect(feed.items[0].changes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['iban', 'owner_contact', 'billing_address']),
    );
  });

  it("refuses a second company of the same name with 'Unable to save the company!' and writes nothing", async () => {
    const before = await db().select({ id: companies.id }).from(companies);
    const attempt = createCompany(
      admin,
      companySchema.parse({ ...full(), name: 'mercia student cover ltd' }),
    );
    await expect(attempt).rejects.toBeInstanceOf(ValidationFailed);
    await attempt.catch((e: ValidationFailed) => {
      expect(e.message).toBe('companies.save_failed');
      expect(e.errors).toEqual([{ key: 'name', message: 'companies.errors.name_taken' }]);
    });
    expect(await db().select({ id: companies.id }).from(companies)).toHaveLength(before.length);
  });

  it('refuses an address country that does not exist, on its field, writing nothing', async () => {
    const before = await db().select({ id: companies.id }).from(companies);
    const contactsBefore = await db().select({ id: contacts.id }).from(contacts);
    const input = companySchema.parse({ ...full(), name: 'Broken Address Ltd' });
    input.billing_address!.country_id = 999_999;
    const attempt = createCompany(admin, input);
    await expect(attempt).rejects.toBeInstanceOf(ValidationFailed);
    await attempt.catch((e: ValidationFailed) =>
      expect(e.errors).toEqual([
        { key: 'billing_address.country_id', message: 'countries.errors.not_found' },
      ]),
    );
    expect(await db().select({ id: companies.id }).from(companies)).toHaveLength(before.length);
    expect(await db().select({ id: contacts.id }).from(contacts)).toHaveLength(contactsBefore.length);
  });

  it('needs create_company to create and read_company to read', async () => {
    const executive = await actorCtx(DEMO_ACCOUNTS.executive);
    await expect(
      createCompany(executive, companySchema.parse({ ...full(), name: 'Exec Co' })),
    ).rejects.toBeInstanceOf(Forbidden);
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    await expect(listCompanies(school, companyListSchema.parse({}))).rejects.toBeInstanceOf(Forbidden);
  });

  it('updates every field and replaces contacts and addresses, logging what changed', async () => {
    const input = companySchema.parse({
      ...full(),
      bank_name: 'Lloyds Bank plc',
      iban: 'IE29AIBK93115212345678',
      contacts: {
        owner: { first_name: 'Owen', last_name: 'Owner', email: 'owen@mercia.test' },
        secondary: [],
      },
      billing_address: {},
      mailing_address: {
        address: '2 Low Road',
        email: 'post@mercia.test',
        city: 'Coventry',
        country_id: String(gb),
      },
    });
    const updated = await updateCompany(admin, created.id, input);
    expect(updated).toMatchObject({ bank_name: 'Lloyds Bank plc', iban: 'IE29AIBK93115212345678' });
    expect(updated.contacts.owner?.first_name).toBe('Owen');
    expect(updated.contacts.accounting).toBeNull();
    expect(updated.contacts.secondary).toEqual([]);
    expect(updated.billing_address).toBeNull();
    expect(updated.mailing_address).toMatchObject({ city: 'Coventry' });
    const [row] = await db().select().from(companies).where(eq(companies.public_id, created.id));
    const rows = await db()
      .select()
      .from(addresses)
      .where(and(eq(addresses.owner_type, 'company'), eq(addresses.owner_id, row.id)));
    expect(rows.map((r) => r.kind)).toEqual(['mailing']);
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'company'),
          eq(activityLogs.entity_id, row.id),
          eq(activityLogs.action, 'updated'),
        ),
      );
    expect(log.before).toMatchObject({ bank_name: 'Barclays Bank UK PLC' });
    expect(log.after).toMatchObject({ bank_name: 'Lloyds Bank plc', accounting_contact: null });
    expect(log.after).not.toHaveProperty('name');
  });

  it('requires the mailing city when a mailing email is given', () => {
    expect(
      issues({
        ...full(),
        mailing_address: { address: '2 Low Road', email: 'post@mercia.test', country_id: String(gb) },
      }),
    ).toEqual(['mailing_address.city: validation.mailing_city_required']);
  });

  it('archives a company: it leaves the switcher but stays in the list under "all companies", and comes back', async () => {
    await updateCompanyStatus(admin, created.id, 'archived');
    const senior = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    expect((await loadActor(db(), senior.id))!.companies.map((c) => c.name)).not.toContain(
      'Mercia Student Cover Ltd',
    );
    const archived = await listCompanies(admin, companyListSchema.parse({ status: 'archived' }));
    expect(archived.items.map((c) => c.name)).toEqual(['Mercia Student Cover Ltd']);
    await updateCompanyStatus(admin, created.id, 'active');
    expect((await loadActor(db(), senior.id))!.companies.map((c) => c.name)).toContain(
      'Mercia Student Cover Ltd',
    );
  });

  it('lists only the companies the user belongs to, narrowed to the top-bar company', async () => {
    const all = await listCompanies(admin, companyListSchema.parse({}));
    expect(all.items.map((c) => c.name)).toEqual([
      'Albion Student Insurance Ltd',
      'Britannia Travel Cover Ltd',
      'Mercia Student Cover Ltd',
    ]);
    expect((await companiesSummary(admin)).total).toBe(3);
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, w.britannia.id);
    const one = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, 0);
    expect((await listCompanies(one, companyListSchema.parse({}))).items.map((c) => c.name)).toEqual([
      'Britannia Travel Cover Ltd',
    ]);
    // Opening one by id is not narrowed by the top bar: any company the user belongs to.
    expect((await getCompany(one, w.albion.public_id)).name).toBe('Albion Student Insurance Ltd');
    const albionClients = await db()
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.company_id, w.albion.id));
    expect(all.items.find((c) => c.name.startsWith('Albion'))!.clients_count).toBe(albionClients.length);
  });

  it('answers not found for a company the user does not belong to', async () => {
    await expect(getCompany(admin, w.stranger.public_id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('finance users of a company', () => {
  it('lists the company users holding the Finance role, with a search', async () => {
    await buildUser(db(), {
      email: 'frank.finance@demo.test',
      first_name: 'Frank',
      last_name: 'Figures',
      roles: ['finance'],
      companyIds: [w.britannia.id],
    });
    const albion = await financeUsers(admin, w.albion.public_id);
    expect(albion.map((u) => u.email)).toEqual([DEMO_ACCOUNTS.finance]);
    expect((await financeUsers(admin, w.britannia.public_id)).map((u) => u.full_name)).toEqual([
      'Frank Figures',
    ]);
    expect(await financeUsers(admin, w.albion.public_id, 'frank')).toEqual([]);
    expect((await financeUsers(admin, w.albion.public_id, 'fiona fin')).map((u) => u.first_name)).toEqual([
      'Fiona',
    ]);
    const memberships = await db()
      .select()
      .from(userCompanies)
      .where(eq(userCompanies.company_id, w.stranger.id));
    expect(memberships.length).toBeGreaterThan(0);
    await expect(financeUsers(admin, w.stranger.public_id)).rejects.toBeInstanceOf(NotFound);
  });
});
