/**
 * The Ireland portal's demo (`npm run start:ie`): Emerald Student Cover Ltd, the Irish taxes, and an
 * English-language school in Dublin with campuses in Dublin and Galway, ordering through the real checkout
 * so its invoices carry the 3 % levy on premiums and the €1 stamp duty per policy of €20 or more.
 *
 * - Taxes: the region's own (drizzle/seed/issuing.ts `seedRegionTaxes`: the levy and the stamp-duty flag).
 * - Liffeyside English Language School: invoiced directly (30 days), paying by bank transfer; its
 *   agreement with Corrib Underwriting DAC prices Student Travel Cover at €95 (stamp duty applies) and
 *   Summer Course Cover at €18.50 (under the €20 threshold: no stamp duty) at both campuses.
 * - Three orders over the last seven weeks, each checked out on its day: Dublin's first intake (paid in
 *   full by bank transfer), Galway's (part paid), and Dublin's summer intake (open; one of its students
 *   has since cancelled, so its credit note credits premium and levy but not the stamp duty).
 *
 * Every step goes through the domain (agreement approval, checkout, recorded payments, the cancellation),
 * so the demo shows exactly what the portal computes. The data is the same on every run but for dates,
 * which count back from today. Call on an empty database, after the countries and access control.
 */
import { eq } from 'drizzle-orm';
import { clients, contracts, invoices, policies, products } from '../schema';
import type { DB } from '../../workers/platform/db';
import type { Env } from '../../workers/env';
import { loadActor } from '../../workers/domain/access/actor';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { recordTransaction } from '../../workers/domain/payments/record';
import { recordTransactionSchema } from '../../workers/domain/payments/schema';
import { amendNow } from '../../workers/domain/policies/amendments/service';
import { todayIso } from '../../workers/domain/validation';
import {
  buildCampus,
  buildClient,
  buildCompany,
  buildPolicyBatch,
  buildUser,
  setCompanyBankDetails,
  type ApplicantSeed,
} from './builders';
import { buildAddress, buildContact } from './clients';
import { seedDemoContracts } from './contracts';
import { seedRegionTaxes } from './issuing';

const DAY = 86_400_000;

/** Where the Irish company's bank transfers go (the well-known example Irish IBAN). */
export const IRISH_BANK_DETAILS = {
  bank_name: 'Allied Irish Banks',
  bic: 'AIBKIE2D',
  iban: 'IE29AIBK93115212345678',
  branch_code: '93-11-52',
  account_number: '12345678',
};

export const IRISH_DEMO_CLIENT = 'Liffeyside English Language School';

/** The demo school's students: name, residence (alpha-2), date of birth. */
const STUDENTS: [string, string, string, string][] = [
  ['Lucía', 'García', 'ES', '2007-02-11'],
  ['Matteo', 'Rossi', 'IT', '2006-09-30'],
  ['Ana', 'Souza', 'BR', '2005-12-04'],
  ['Wei', 'Zhang', 'CN', '2007-06-21'],
  ['Lena', 'Müller', 'DE', '2006-03-17'],
  ['Camille', 'Martin', 'FR', '2008-01-09'],
  ['Yuki', 'Tanaka', 'JP', '2006-11-02'],
  ['Jonas', 'Schmidt', 'DE', '2005-08-25'],
  ['Chiara', 'Bianchi', 'IT', '2007-04-14'],
  ['Hugo', 'Dubois', 'FR', '2006-07-07'],
  ['Mei', 'Chen', 'CN', '2008-05-19'],
  ['Pablo', 'Fernández', 'ES', '2007-10-28'],
  ['Kenji', 'Sato', 'JP', '2006-01-31'],
  ['Isabela', 'Costa', 'BR', '2007-09-12'],
  ['Sofía', 'López', 'ES', '2008-03-03'],
];

interface DemoOrder {
  /** Days before today the order was checked out. */
  ago: number;
  campus: 'dublin' | 'galway';
  lines: { product: 'student' | 'summer'; count: number; start: number; end: number }[];
  /** What the school has paid of its invoice, and how many days ago. */
  paid?: { amount: 'all' | number; ago: number };
}

/** The school's orders, oldest first; trip days count from today. */
const ORDERS: DemoOrder[] = [
  {
    ago: 45,
    campus: 'dublin',
    lines: [{ product: 'student', count: 6, start: -30, end: 150 }],
    paid: { amount: 'all', ago: 30 },
  },
  {
    ago: 20,
    campus: 'galway',
    lines: [{ product: 'student', count: 4, start: -10, end: 80 }],
    paid: { amount: 20_000, ago: 5 },
  },
  {
    ago: 3,
    campus: 'dublin',
    lines: [
      { product: 'student', count: 3, start: 14, end: 104 },
      { product: 'summer', count: 2, start: 20, end: 33 },
    ],
  },
];

/** Why the demo's cancelled policy was cancelled. */
export const IRISH_DEMO_CANCEL_REASON = 'Visa refused: the student will not travel';

export async function seedIrelandDemo(
  db: DB,
  input: { env: Env; seniorEmail: string; schoolEmail: string; now?: Date },
): Promise<{ companyId: number; seniorId: number; schoolAdminId: number }> {
  const now = input.now ?? new Date();
  const day = (n: number) => todayIso(new Date(now.getTime() + n * DAY));
  await seedRegionTaxes(db);

  const company = await buildCompany(db, {
    name: 'Emerald Student Cover Ltd',
    country: 'IE',
    currency: 'EUR',
  });
  await setCompanyBankDetails(db, company.id, IRISH_BANK_DETAILS);
  await buildAddress(
    db,
    { type: 'company', id: company.id },
    {
      kind: 'billing',
      country: 'IE',
      address: '21 Fitzwilliam Place',
      city: 'Dublin 2',
      province: 'County Dublin',
      postal_code: 'D02 T292',
      email: 'accounts@emerald-student-cover.example',
    },
  );
  const senior = await buildUser(db, {
    email: input.seniorEmail,
    first_name: 'Sarah',
    last_name: 'Senior',
    roles: ['senior_admin'],
    companyIds: [company.id],
    otherRegionAccess: true,
  });

  const school = await buildClient(db, { name: IRISH_DEMO_CLIENT, companyId: company.id });
  await db
    .update(clients)
    .set({
      website: 'https://www.liffeyside-english.example',
      description:
        'English-language school for international students, with year-round courses in Dublin and Galway.',
      phone_country: 'IE',
      phone_number: '15550142',
      payment_terms: 'invoiced_directly',
      payment_method: 'bank_transfer',
      invoice_rule: 'by_location',
      tax_number: 'IE 1234567FA',
      account_number_ar: 'AR-IE-0001',
    })
    .where(eq(clients.id, school.id));
  const owner = { type: 'client' as const, id: school.id };
  await buildContact(db, owner, {
    type: 'owner',
    first_name: 'Aoife',
    last_name: 'Byrne',
    email: input.schoolEmail,
    phone_country: 'IE',
    phone_number: '15550143',
    job_title: 'Director of Studies',
    is_master_user: true,
  });
  await buildContact(db, owner, {
    type: 'accounting',
    first_name: 'Ciarán',
    last_name: 'Murphy',
    email: 'accounts@liffeyside-english.example',
    phone_country: 'IE',
    phone_number: '15550144',
    job_title: 'Finance Manager',
  });
  await buildAddress(db, owner, {
    kind: 'billing',
    country: 'IE',
    first_name: 'Ciarán',
    last_name: 'Murphy',
    department: 'Accounts',
    address: '14 Merrion Square North',
    city: 'Dublin 2',
    province: 'County Dublin',
    postal_code: 'D02 XK71',
    email: 'accounts@liffeyside-english.example',
  });
  const dublin = await buildCampus(db, {
    name: 'Liffeyside Dublin Campus',
    clientId: school.id,
    country: 'IE',
  });
  const galway = await buildCampus(db, {
    name: 'Liffeyside Galway Campus',
    clientId: school.id,
    country: 'IE',
  });
  await buildAddress(
    db,
    { type: 'campus', id: galway.id },
    { kind: 'mailing', country: 'IE', address: '3 Eyre Square', city: 'Galway', postal_code: 'H91 FX4C' },
  );
  const schoolAdmin = await buildUser(db, {
    email: input.schoolEmail,
    first_name: 'Aoife',
    last_name: 'Byrne',
    roles: ['school_master_user'],
    clientId: school.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });

  // The agreement began before the first order, so its contracts cover every order's booking date.
  await seedDemoContracts(db, {
    companyId: company.id,
    clientPublicId: school.public_id,
    campusPublicIds: [dublin.public_id, galway.public_id],
    actingUserId: senior.id,
    name: `Liffeyside student cover ${day(-60).slice(0, 4)}`,
    insurerName: 'Corrib Underwriting DAC',
    products: [
      {
        code: 'EMR_STUDENT',
        name: 'Student Travel Cover',
        currency: 'EUR',
        net_price: '60.00',
        sale_price: '95.00',
      },
      {
        code: 'EMR_SUMMER',
        name: 'Summer Course Cover',
        currency: 'EUR',
        net_price: '11.00',
        sale_price: '18.50',
      },
    ],
    now: new Date(now.getTime() - 60 * DAY),
  });
  const made = await db
    .select({ id: contracts.id, campus_id: contracts.campus_id, code: products.code })
    .from(contracts)
    .innerJoin(products, eq(products.id, contracts.product_id))
    .where(eq(contracts.client_id, school.id));
  const contractOf = (campusId: number, product: 'student' | 'summer') =>
    made.find(
      (c) => c.campus_id === campusId && c.code === (product === 'student' ? 'EMR_STUDENT' : 'EMR_SUMMER'),
    )!;

  const actor = await loadActor(db, senior.id, { selectedCompanyId: company.id });
  if (!actor) throw new Error('The Irish demo senior admin cannot act');
  let next = 0;
  const orderInvoices: string[] = [];
  for (const [n, order] of ORDERS.entries()) {
    const campus = order.campus === 'dublin' ? dublin : galway;
    for (const line of order.lines) {
      const applicants: ApplicantSeed[] = Array.from({ length: line.count }, () => {
        const [first_name, last_name, residence, date_of_birth] = STUDENTS[next++ % STUDENTS.length];
        const email = `${first_name}.${last_name}`
          .normalize('NFD')
          .replace(/[^A-Za-z.]/g, '')
          .toLowerCase();
        return {
          first_name,
          last_name,
          residence,
          destination: 'IE',
          date_of_birth,
          email: `${email}@example.test`,
          start_date: day(line.start),
          end_date: day(line.end),
        };
      });
      await buildPolicyBatch(db, {
        campusId: campus.id,
        contractId: contractOf(campus.id, line.product).id,
        createdBy: senior.id,
        applicants,
      });
    }
    const result = await confirmOpenBatches(
      { db, env: input.env, now: new Date(now.getTime() - order.ago * DAY), actor, lang: 'en' },
      confirmOpenSchema.parse({
        checkout_key: `demo-ireland-order-${n + 1}`,
        client_id: school.public_id,
        payment_method: 'invoiced_directly',
      }),
    );
    if (!('invoice' in result)) throw new Error('An Irish demo order did not make one invoice');
    orderInvoices.push(result.invoice.id);
  }

  // Recorded by finance as the bank transfers arrived.
  const ctx = { db, env: input.env, now, actor, lang: 'en' };
  for (const [n, order] of ORDERS.entries()) {
    if (!order.paid) continue;
    const [invoice] = await db.select().from(invoices).where(eq(invoices.public_id, orderInvoices[n]));
    const amount = order.paid.amount === 'all' ? invoice.total_minor : order.paid.amount;
    await recordTransaction(
      ctx,
      invoice.public_id,
      'payment',
      recordTransactionSchema.parse({
        amount: (amount / 100).toFixed(2),
        paid_on: day(-order.paid.ago),
        method: 'bank_transfer',
        note: `Bank transfer ${invoice.payment_reference}`,
        idempotency_key: `demo-ie-payment-${n + 1}`,
      }),
    );
  }

  // One student of the summer intake will not travel: her Student Travel Cover is cancelled.
  const [last] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.public_id, orderInvoices.at(-1)!));
  const [cancelled] = await db
    .select({ public_id: policies.public_id })
    .from(policies)
    .where(eq(policies.invoice_id, last.id))
    .orderBy(policies.id)
    .limit(1);
  await amendNow(ctx, { kind: 'cancel', policies: [cancelled.public_id], reason: IRISH_DEMO_CANCEL_REASON });

  return { companyId: company.id, seniorId: senior.id, schoolAdminId: schoolAdmin.id };
}
