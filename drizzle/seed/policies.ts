/**
 * Issued policies for the demo and the tests, written directly (set-based, a few statements per thousand
 * policies) rather than through a checkout: a confirmed policy batch per order, its policies with numbers
 * from the policy series, family links (`dependency_id`) and group leaders (`group_leader_id`) between
 * them, cancelled ones with their reason, and each policy's 'issue' transaction (plus 'cancellation').
 *
 * `seedDemoPolicies` is the demo's insureds list: both demo schools (Oakwood's two campuses and a
 * Kingsbridge campus), under weekly-priced contracts open since before the oldest trip, policies in every status (active,
 * expired, not started, cancelled), families, groups with leaders, and names from many languages.
 */
import { eq, sql } from 'drizzle-orm';
import { campuses, clients, contracts, policies, policyBatches } from '../schema';
import type { DB, Statement } from '../../workers/platform/db';
import { chunk, runBatch } from '../../workers/platform/db';
import { publicId } from '../../workers/platform/crypto';
import { POLICY_NUMBER_DIGITS, POLICY_SERIES } from '../../workers/domain/policies/issue';
import { buildCampus, countryId } from './builders';
import { buildWeeklyContract } from './amendments';

export interface PolicySeed {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  type?: 'student' | 'immediate_family' | 'group_leader';
  start_date: string;
  end_date: string;
  email?: string | null;
  gender?: 'male' | 'female' | 'other' | null;
  passport_number?: string | null;
  residence?: string;
  destination?: string;
  group_name?: string | null;
  /** Index (in the same call) of the student this family member travels with. */
  dependency_index?: number;
  /** Index (in the same call) of this insured's group leader. */
  group_leader_index?: number;
  /** Cancelled policies: when and why. */
  cancelled?: { at: Date; reason: string; by?: number | null };
}

const DAY = 86_400_000;
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
export const daysFrom = (base: Date, days: number) => isoDay(new Date(base.getTime() + days * DAY));

const tripDays = (start: string, end: string) =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY) + 1;

/**
 * The premium of a trip under the demo's weekly-priced contract (drizzle/seed/amendments.ts): 45.00 per
 * started week (30.00 net), with insurance premium tax at the higher rate, 20 %, on top
 * (travel insurance; drizzle/seed/issuing.ts).
 */
/** The UK's higher rate of insurance premium tax, which applies to travel insurance. */
const DEMO_IPT = 0.2;

export function seedPremium(start: string, end: string) {
  const weeks = Math.ceil(Math.max(6, tripDays(start, end)) / 7);
  const premium = weeks * 4500;
  return { premium, net: weeks * 3000, tax: Math.round(premium * DEMO_IPT) };
}

/**
 * Issues `people` as one confirmed order (policy batch) of a campus under a contract. Returns the
 * policies in the order given.
 */
export async function buildIssuedPolicies(
  db: DB,
  input: {
    campusId: number;
    contractId: number;
    createdBy: number;
    people: readonly PolicySeed[];
    issuedAt?: Date;
    bookingDate?: string;
  },
) {
  const issuedAt = input.issuedAt ?? new Date();
  const [campus] = await db
    .select({ client_id: campuses.client_id, company_id: clients.company_id })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(eq(campuses.id, input.campusId));
  const [contract] = await db.select().from(contracts).where(eq(contracts.id, input.contractId));
  const [batch] = await db
    .insert(policyBatches)
    .values({
      public_id: publicId(),
      company_id: campus.company_id,
      client_id: campus.client_id,
      campus_id: input.campusId,
      contract_id: input.contractId,
      status: 'confirmed',
      created_by: input.createdBy,
      opened_at: issuedAt,
      confirmed_at: issuedAt,
      created_at: issuedAt,
      updated_at: issuedAt,
    })
    .returning();
  await db.run(sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${POLICY_SERIES}, 0)`);
  const [{ base }] = await db.select({ base: sql<number>`coalesce(max(${policies.id}), 0)` }).from(policies);
  const [{ seq }] = (await db.all(sql`SELECT value AS seq FROM sequences WHERE name = ${POLICY_SERIES}`)) as {
    seq: number;
  }[];
  const codes = [...new Set(input.people.flatMap((p) => [p.residence ?? 'FR', p.destination ?? 'GB']))];
  const countries = new Map<string, number>();
  for (const code of codes) countries.set(code, await countryId(db, code));
  const booking = input.bookingDate ?? isoDay(issuedAt);
  const rows = input.people.map((p, i) => {
    const money = seedPremium(p.start_date, p.end_date);
    return {
      id: base + i + 1,
      public_id: publicId(),
      policy_number: `P${String(seq + i + 1).padStart(POLICY_NUMBER_DIGITS, '0')}`,
      type: p.type ?? 'student',
      first_name: p.first_name,
      last_name: p.last_name,
      date_of_birth: p.date_of_birth,
      gender: p.gender ?? null,
      email: p.email === undefined ? null : p.email,
      passport_number: p.passport_number ?? null,
      residence_country_id: countries.get(p.residence ?? 'FR'),
      destination_country_id: countries.get(p.destination ?? 'GB'),
      start_date: p.start_date,
      end_date: p.end_date,
      group_name: p.group_name ?? null,
      group_leader_id: p.group_leader_index === undefined ? null : base + p.group_leader_index + 1,
      dependency_id: p.dependency_index === undefined ? null : base + p.dependency_index + 1,
      status: p.cancelled ? 'cancelled' : 'issued',
      premium_minor: money.premium,
      net_minor: money.net,
      tax_minor: money.tax,
      cancelled_at: p.cancelled ? p.cancelled.at.getTime() : null,
      cancelled_by: p.cancelled?.by ?? null,
      cancel_reason: p.cancelled?.reason ?? null,
      version: p.cancelled ? 2 : 1,
    };
  });
  const t = issuedAt.getTime();
  const statements: Statement[] = [];
  for (const part of chunk(rows, 500)) {
    statements.push(
      db.run(sql`INSERT INTO policies (id, public_id, policy_number, company_id, client_id, campus_id, contract_id,
          product_id, batch_id, type, first_name, last_name, date_of_birth, gender, email, passport_number,
          residence_country_id, destination_country_id, start_date, end_date, group_name, group_leader_id,
          dependency_id, status, premium_minor, net_minor, tax_minor, tax_rate_bp, currency, booking_date, issued_at,
          cancelled_at, cancelled_by, cancel_reason, version, created_at, updated_at)
        SELECT value->>'id', value->>'public_id', value->>'policy_number', ${campus.company_id}, ${campus.client_id},
          ${input.campusId}, ${contract.id}, ${contract.product_id}, ${batch.id}, value->>'type',
          value->>'first_name', value->>'last_name', value->>'date_of_birth', value->>'gender', value->>'email',
          value->>'passport_number', value->>'residence_country_id', value->>'destination_country_id',
          value->>'start_date', value->>'end_date', value->>'group_name', value->>'group_leader_id',
          value->>'dependency_id', value->>'status', value->>'premium_minor', value->>'net_minor',
          value->>'tax_minor', ${DEMO_IPT * 10_000}, ${contract.currency}, ${booking}, ${t}, value->>'cancelled_at',
          value->>'cancelled_by', value->>'cancel_reason', value->>'version', ${t}, ${t}
        FROM json_each(${JSON.stringify(part)})`),
    );
  }
  statements.push(
    db.run(sql`UPDATE sequences SET value = value + ${rows.length} WHERE name = ${POLICY_SERIES}`),
    db.run(sql`INSERT INTO policy_transactions (public_id, policy_id, company_id, client_id, kind, effective_date,
        before, after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version, user_id, created_at)
      SELECT lower(hex(randomblob(8))), id, company_id, client_id, 'issue', ${isoDay(issuedAt)}, NULL,
        json_object('start_date', start_date, 'end_date', end_date, 'product_id', product_id),
        premium_minor, tax_minor, ${DEMO_IPT}, currency, 1, ${input.createdBy}, ${t}
      FROM policies WHERE batch_id = ${batch.id}`),
    db.run(sql`INSERT INTO policy_transactions (public_id, policy_id, company_id, client_id, kind, effective_date,
        before, after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version, user_id, created_at)
      SELECT lower(hex(randomblob(8))), id, company_id, client_id, 'cancellation',
        date(cancelled_at / 1000, 'unixepoch'), json_object('status', 'issued'),
        json_object('status', 'cancelled', 'reason', cancel_reason), -premium_minor, -tax_minor, ${DEMO_IPT}, currency, 2,
        cancelled_by, cancelled_at
      FROM policies WHERE batch_id = ${batch.id} AND status = 'cancelled'`),
  );
  await runBatch(db, statements);
  const stored = await db.select().from(policies).where(eq(policies.batch_id, batch.id)).orderBy(policies.id);
  return { batch, policies: stored };
}

// ---------------------------------------------------------------- the demo's insureds

const FIRST = [
  'Łukasz',
  'Seán',
  'Zoë',
  'Amélie',
  'Jonas',
  'Lucía',
  'Matteo',
  'Inês',
  'Sofia',
  'Hiroshi',
  'Chloé',
  'Björn',
  'Aoife',
  'Mateus',
  'Yuki',
  'Emma',
  'Noah',
  'Clara',
  'Diego',
  'Hannah',
  'Leon',
  'Marta',
  'Pablo',
  'Nina',
  'Oliver',
  'Giulia',
  'Felix',
  'Ana',
  'Kenji',
  'Élodie',
  'Tomás',
  'Zofia',
  'Ruairí',
  'Mia',
  'Lars',
  'Beatriz',
];
const LAST = [
  'Kowalski',
  'Ó Briain',
  'Müller',
  'García',
  'Rossi',
  'Dubois',
  'Silva',
  'Tanaka',
  'Schmidt',
  'Fernández',
  'Nowak',
  'Bianchi',
  'Lefèvre',
  'Costa',
  'Sato',
  'Johansson',
  'Murphy',
  'Weber',
  'López',
  'Romano',
  'Martin',
  'Pereira',
  'Suzuki',
  'Fischer',
  'Moreau',
  'Esposito',
  'Santos',
  'Kobayashi',
  'Wiśniewski',
  'Kelly',
];
const RESIDENCE = ['PL', 'IE', 'DE', 'ES', 'IT', 'FR', 'BR', 'JP', 'CN', 'PT', 'SE', 'MX'];
const CHINESE = [
  { first_name: '芳', last_name: '王' },
  { first_name: '伟', last_name: '李' },
  { first_name: '静', last_name: '张' },
];

interface DemoCampus {
  id: number;
  contractId: number;
  /** How many students (families and groups come on top). */
  students: number;
  groups: string[];
}

/** A person of the demo, deterministic from its index. */
function person(i: number, birthYear: number) {
  const chinese = i % 17 === 5 ? CHINESE[i % CHINESE.length] : null;
  const first_name = chinese?.first_name ?? FIRST[i % FIRST.length];
  const last_name = chinese?.last_name ?? LAST[(i * 7) % LAST.length];
  const month = String((i % 12) + 1).padStart(2, '0');
  const day = String((i % 27) + 1).padStart(2, '0');
  const ascii = `${first_name}.${last_name}`
    .replace(/Ł/g, 'L')
    .replace(/ł/g, 'l')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();
  return {
    first_name,
    last_name,
    date_of_birth: `${birthYear}-${month}-${day}`,
    gender: (['female', 'male', 'other'] as const)[i % 3],
    email: i % 9 === 4 ? null : `${ascii || 'student'}.${i}@students.example`,
    passport_number: `X${String(4_000_000 + i * 37)}`,
    residence: chinese ? 'CN' : RESIDENCE[i % RESIDENCE.length],
    destination: 'GB',
  };
}

/**
 * The orders of one campus over the last six months: trips that ended (expired), trips under way
 * (active), trips to come (not started), some of those cancelled; families and groups with leaders.
 */
function campusOrders(c: DemoCampus, today: Date, offset: number, seniorId: number) {
  const orders: { issuedAt: Date; people: PolicySeed[] }[] = [];
  const trip = (startIn: number, days: number) => ({
    start_date: daysFrom(today, startIn),
    end_date: daysFrom(today, startIn + days - 1),
  });
  // Four waves of students, issued a few weeks before each trip started.
  const waves = [
    { issuedIn: -185, startIn: -170, days: 120 }, // expired
    { issuedIn: -110, startIn: -90, days: 180 }, // active
    { issuedIn: -40, startIn: -20, days: 90 }, // active
    { issuedIn: -10, startIn: 21, days: 120 }, // not started
  ];
  const perWave = Math.ceil(c.students / waves.length);
  let n = offset;
  waves.forEach((w, wi) => {
    const people: PolicySeed[] = [];
    for (let k = 0; k < perWave; k++, n++) {
      const p: PolicySeed = {
        ...person(n, 2004 + (n % 5)),
        ...trip(w.startIn + (k % 5), w.days + (k % 3) * 7),
      };
      // A few of the coming trips were cancelled (the students did not travel).
      if (wi === 3 && k % 9 === 2)
        p.cancelled = {
          at: new Date(today.getTime() - 3 * DAY),
          reason: 'Student did not travel',
          by: seniorId,
        };
      people.push(p);
      // Every seventh student travels with family: a parent, sometimes a sibling too.
      if (k % 7 === 3) {
        const parent = person(n + 1000, 1972 + (n % 8));
        people.push({
          ...parent,
          last_name: p.last_name,
          type: 'immediate_family',
          start_date: p.start_date,
          end_date: p.end_date,
          dependency_index: people.length - 1,
          cancelled: p.cancelled,
        });
        if (k % 14 === 3)
          people.push({
            ...person(n + 2000, 2010 + (n % 4)),
            last_name: p.last_name,
            type: 'immediate_family',
            start_date: p.start_date,
            end_date: p.end_date,
            dependency_index: people.length - 2,
            cancelled: p.cancelled,
          });
      }
    }
    orders.push({ issuedAt: new Date(today.getTime() + w.issuedIn * DAY), people });
  });
  // Returning students: a previous (expired) policy and a current one for the same person.
  const returning = orders[0].people.filter((p) => p.type === undefined).slice(0, 3);
  orders.push({
    issuedAt: new Date(today.getTime() - 5 * DAY),
    people: returning.map((p) => ({ ...p, cancelled: undefined, ...trip(-2, 150) })),
  });
  // Groups: a leader and the students they lead, one trip per group (one under way, one to come).
  c.groups.forEach((group, gi) => {
    const startIn = gi % 2 ? 35 : -12;
    const leader: PolicySeed = {
      ...person(n++, 1980 + gi),
      type: 'group_leader',
      group_name: group,
      ...trip(startIn, 21),
    };
    const people: PolicySeed[] = [leader];
    for (let k = 0; k < 11; k++, n++)
      people.push({
        ...person(n, 2007 + (k % 3)),
        group_name: group,
        group_leader_index: 0,
        ...trip(startIn, 21),
      });
    // Issued 25 days before the trip, but never after today (demo data has nothing dated in the future).
    orders.push({ issuedAt: new Date(today.getTime() + Math.min(startIn - 25, -3) * DAY), people });
  });
  return { orders, next: n };
}

/**
 * The demo's insureds: about 300 policies over Oakwood's two campuses and a Kingsbridge campus (made
 * here), under a contract per campus that started six months ago (the company's student product).
 */
export async function seedDemoPolicies(
  db: DB,
  input: {
    companyId: number;
    oakwoodCampusIds: number[];
    kingsbridgeClientId: number;
    seniorAdminId: number;
    now?: Date;
  },
) {
  const today = new Date(`${isoDay(input.now ?? new Date())}T00:00:00Z`);
  const kingsbridge = await buildCampus(db, {
    name: 'Kingsbridge Central Campus',
    clientId: input.kingsbridgeClientId,
  });
  const contractStart = daysFrom(today, -200);
  const contractEnd = daysFrom(today, 365);
  const campusIds = [...input.oakwoodCampusIds, kingsbridge.id];
  const plan: { students: number; groups: string[] }[] = [
    { students: 90, groups: ['Madrid Spring Exchange', 'Berlin Study Tour'] },
    { students: 60, groups: ['Lyon Language Week'] },
    { students: 60, groups: ['Rome Summer School'] },
  ];
  let offset = 0;
  let total = 0;
  for (const [i, campusId] of campusIds.entries()) {
    // The weekly-priced contract of the amendments' demo (so extending charges a difference), open since
    // before the oldest demo trip.
    const weekly = await buildWeeklyContract(db, campusId);
    await db
      .update(contracts)
      .set({ start_date: contractStart, end_date: contractEnd })
      .where(eq(contracts.id, weekly.id));
    const contract = { ...weekly, start_date: contractStart };
    const { orders, next } = campusOrders(
      { id: campusId, contractId: contract.id, ...plan[i % plan.length] },
      today,
      offset,
      input.seniorAdminId,
    );
    offset = next + 100;
    for (const order of orders) {
      const { policies: issued } = await buildIssuedPolicies(db, {
        campusId,
        contractId: contract.id,
        createdBy: input.seniorAdminId,
        people: order.people,
        issuedAt: order.issuedAt,
        bookingDate: isoDay(order.issuedAt),
      });
      total += issued.length;
    }
  }
  return { policies: total, kingsbridgeCampusId: kingsbridge.id };
}
