/**
 * Builders for contacts and addresses (any owner), and the demo clients with their contacts, addresses,
 * billing settings and fact-find answers. Used by demo.ts; tests may use the builders too.
 */
import { eq } from 'drizzle-orm';
import { addresses, clients, contacts } from '../schema';
import type { DB } from '../../workers/platform/db';
import { buildClient, countryId } from './builders';

type Owner = { type: 'company' | 'client' | 'campus'; id: number };

export async function buildContact(
  db: DB,
  owner: Owner,
  input: {
    type: 'initial' | 'owner' | 'secondary' | 'accounting' | 'custom';
    first_name: string;
    last_name: string;
    email?: string;
    phone_country?: string;
    phone_number?: string;
    job_title?: string;
    department?: string;
    is_master_user?: boolean;
    position?: number;
  },
) {
  const [row] = await db
    .insert(contacts)
    .values({ owner_type: owner.type, owner_id: owner.id, ...input })
    .returning();
  return row;
}

export async function buildAddress(
  db: DB,
  owner: Owner,
  input: {
    kind: 'billing' | 'mailing';
    country?: string;
    address: string;
    address2?: string;
    city: string;
    province?: string;
    postal_code?: string;
    first_name?: string;
    last_name?: string;
    email?: string;
    department?: string;
  },
) {
  const { country, ...rest } = input;
  const [row] = await db
    .insert(addresses)
    .values({
      owner_type: owner.type,
      owner_id: owner.id,
      country_id: await countryId(db, country ?? 'GB'),
      ...rest,
    })
    .returning();
  return row;
}

/**
 * The demo clients: Oakwood (already built, managed by the demo account manager) gets its contacts and
 * addresses; three more clients show the other types and statuses, in both companies.
 */
export async function seedDemoClients(
  db: DB,
  input: { mainCompanyId: number; secondCompanyId: number; oakwoodId: number; accountManagerId: number },
) {
  await db
    .update(clients)
    .set({
      account_manager_id: input.accountManagerId,
      website: 'https://www.oakwood-international.example',
      description: 'Independent boarding and day school with international students from over 30 countries.',
      phone_country: 'GB',
      phone_number: '1865555010',
      payment_terms: 'monthly',
      payment_method: 'bank_transfer',
      payment_frequency: 'monthly',
      invoice_rule: 'by_location',
      tax_number: 'GB 284 5521 90',
      account_number_ar: 'AR-10042',
      fact_find: {
        international_students_per_year: '240',
        typical_trip_length: '6_to_12_months',
        countries_of_origin: 'China, Spain, Germany, Brazil',
        current_insurer: 'Albion Student Insurance',
        renewal_month: '09',
        group_trips_abroad: 'yes',
      },
    })
    .where(eq(clients.id, input.oakwoodId));
  const oakwood: Owner = { type: 'client', id: input.oakwoodId };
  await buildContact(db, oakwood, {
    type: 'initial',
    first_name: 'Helen',
    last_name: 'Hartley',
    email: 'admissions@oakwood-international.example',
    phone_country: 'GB',
    phone_number: '1865555011',
    job_title: 'Admissions Officer',
    department: 'Admissions',
  });
  await buildContact(db, oakwood, {
    type: 'owner',
    first_name: 'Susan',
    last_name: 'School',
    email: 'school.admin@demo.test',
    phone_country: 'GB',
    phone_number: '1865555012',
    is_master_user: true,
  });
  await buildContact(db, oakwood, {
    type: 'accounting',
    first_name: 'Bernard',
    last_name: 'Bursar',
    email: 'bursary@oakwood-international.example',
    phone_country: 'GB',
    phone_number: '1865555013',
    job_title: 'Bursar',
  });
  await buildAddress(db, oakwood, {
    kind: 'billing',
    first_name: 'Bernard',
    last_name: 'Bursar',
    department: 'Bursary',
    address: 'Oakwood House, 12 Woodstock Road',
    city: 'Oxford',
    province: 'Oxfordshire',
    postal_code: 'OX2 6HT',
    email: 'bursary@oakwood-international.example',
  });
  await buildAddress(db, oakwood, {
    kind: 'mailing',
    address: 'PO Box 118',
    city: 'Oxford',
    postal_code: 'OX2 6XX',
    email: 'post@oakwood-international.example',
  });

  const kingsbridge = await buildClient(db, {
    name: 'Kingsbridge Language Academy',
    companyId: input.mainCompanyId,
  });
  await db
    .update(clients)
    .set({
      website: 'https://kingsbridge-academy.example',
      phone_country: 'GB',
      phone_number: '2075550142',
      payment_terms: 'invoiced_directly',
      payment_frequency: 'bi_weekly',
      invoice_rule: 'by_group',
      fact_find: { international_students_per_year: '900', typical_trip_length: '1_to_3_months' },
    })
    .where(eq(clients.id, kingsbridge.id));
  const k: Owner = { type: 'client', id: kingsbridge.id };
  await buildContact(db, k, {
    type: 'owner',
    first_name: 'Priya',
    last_name: 'Patel',
    email: 'priya.patel@kingsbridge-academy.example',
    phone_country: 'GB',
    phone_number: '2075550143',
  });
  await buildContact(db, k, {
    type: 'secondary',
    first_name: 'Tom',
    last_name: 'Kerr',
    email: 'tom.kerr@kingsbridge-academy.example',
    job_title: 'Director of Studies',
    department: 'Academic',
  });
  await buildAddress(db, k, {
    kind: 'billing',
    address: '48 Kingsway',
    city: 'London',
    postal_code: 'WC2B 6EP',
  });

  const harbour = await buildClient(db, {
    name: 'Harbour Guardianship Services',
    companyId: input.mainCompanyId,
    type: 'guardianship',
  });
  await db
    .update(clients)
    .set({ status: 'pending_onboarding', account_manager_id: input.accountManagerId })
    .where(eq(clients.id, harbour.id));
  await buildContact(
    db,
    { type: 'client', id: harbour.id },
    {
      type: 'initial',
      first_name: 'Grace',
      last_name: 'Holloway',
      email: 'grace@harbour-guardians.example',
      job_title: 'Founder',
    },
  );

  const thames = await buildClient(db, {
    name: 'Thames Valley Student Agency',
    companyId: input.secondCompanyId,
    type: 'agency',
  });
  await db
    .update(clients)
    .set({ payment_terms: 'pay_later', payment_method: 'credit_card', website: 'https://tvsa.example' })
    .where(eq(clients.id, thames.id));
  await buildContact(
    db,
    { type: 'client', id: thames.id },
    {
      type: 'owner',
      first_name: 'Oliver',
      last_name: 'Grant',
      email: 'oliver@tvsa.example',
      phone_country: 'GB',
      phone_number: '1189550170',
    },
  );
  await buildAddress(
    db,
    { type: 'client', id: thames.id },
    {
      kind: 'billing',
      address: '3 Station Road',
      city: 'Reading',
      postal_code: 'RG1 1LX',
    },
  );
}
