import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { enrollments, policyBatches } from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import {
  createBatch,
  findVisibleBatch,
  batchRules,
  type BatchRow,
} from '../../workers/domain/enrollments/batches';
import {
  openBatch,
  revalidateBatch,
  stageEnrollments,
  stageNewBatch,
  type StagedRow,
} from '../../workers/domain/enrollments/staging';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, day, db, type ContractsWorld } from '../support/contracts';
import { seedCheckoutWorld } from '../support/checkout';

let w: ContractsWorld;
let contractPublicId: string;
let FR: number;
let ES: number;

const school = () => actorCtx(DEMO_ACCOUNTS.schoolAdmin);

beforeAll(async () => {
  // The checkout world: the North campus's contract at 95.00 a trip, 12 % UK tax.
  const world = await seedCheckoutWorld();
  w = world;
  contractPublicId = world.contract.public_id;
  FR = await countryId(db(), 'FR');
  ES = await countryId(db(), 'ES');
}, SETUP_TIMEOUT_MS);

const person = (first: string, over: Record<string, unknown> = {}) => ({
  type: 'student',
  first_name: first,
  last_name: 'Silva',
  date_of_birth: '2008-03-04',
  residence_country_id: String(FR),
  destination_country_id: String(w ? 0 : 0),
  start_date: day(10),
  end_date: day(30),
  ...over,
});

async function newBatch(): Promise<BatchRow> {
  const ctx = await school();
  return createBatch(ctx, { campus_id: w.north.public_id, contract_id: contractPublicId, source: 'single' });
}

async function rowsOf(batch: BatchRow) {
  return db()
    .select()
    .from(enrollments)
    .where(eq(enrollments.batch_id, batch.id))
    .orderBy(asc(enrollments.position));
}

describe('policy batches', () => {
  it('creates a draft batch for a campus and a contract available to it, and no other', async () => {
    const batch = await newBatch();
    expect(batch).toMatchObject({ status: 'draft', source: 'single', campus_id: w.north.id });
    const ctx = await school();
    const refused = await createBatch(ctx, {
      campus_id: w.north.public_id,
      contract_id: 'no-such-contract',
      source: 'single',
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);
  });

  it('stages applicants with their fees, keeps rows with errors, and links family members', async () => {
    const batch = await newBatch();
    const gb = await countryId(db(), 'GB');
    const rows: StagedRow[] = [
      {
        position: 1,
        raw: person('Ana', { destination_country_id: String(gb) }),
        source: () => ({ Name: 'Ana' }),
      },
      {
        position: 2,
        raw: person('Rui', { destination_country_id: String(gb), first_name: 'Ru1' }),
        source: () => ({ Name: 'Ru1' }),
      },
      {
        position: 3,
        raw: person('Eva', { type: 'immediate_family', destination_country_id: String(gb) }),
        dependency_position: 1,
      },
      { position: 4, raw: person('Ana', { destination_country_id: String(gb) }) },
      {
        position: 5,
        raw: person('Max', { destination_country_id: 'Narnia', residence_country_id: String(ES) }),
      },
    ];
    const result = await stageEnrollments(await school(), batch, rows);
    expect(result).toEqual({ inserted: 5, withErrors: 2 });
    const stored = await rowsOf(batch);
    expect(stored.map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);
    // 21 days at 95.00 per trip (the test product has no unit), tax 12 %.
    expect(stored[0]).toMatchObject({ first_name: 'Ana', fee_minor: 9500, tax_minor: 1140, error_count: 1 });
    expect(stored[0]!.errors[0]).toMatchObject({ field: 'row', message: 'enrollments.errors.duplicate' });
    // Its own values were all stored, so its original cells are not kept (the sheet is).
    expect(stored[0]!.source).toBeNull();
    // What the user typed is kept even when it is wrong.
    expect(stored[1]).toMatchObject({
      first_name: 'Ru1',
      fee_minor: null,
      error_count: 1,
      source: { Name: 'Ru1' },
    });
    expect(stored[1]!.errors).toEqual([{ field: 'first_name', message: 'validation.name_invalid' }]);
    expect(stored[2]).toMatchObject({
      type: 'immediate_family',
      dependency_id: stored[0]!.id,
      error_count: 0,
    });
    expect(stored[4]).toMatchObject({ destination_country_id: null, error_count: 1 });
  });

  it('clears the duplicate error of the remaining row once its twin is deleted', async () => {
    const batch = await newBatch();
    const gb = String(await countryId(db(), 'GB'));
    await stageEnrollments(await school(), batch, [
      { position: 1, raw: person('Ana', { destination_country_id: gb }) },
      { position: 2, raw: person('Ana', { destination_country_id: gb }) },
    ]);
    const [first, second] = await rowsOf(batch);
    expect(first!.error_count).toBe(1);
    await db().delete(enrollments).where(eq(enrollments.id, second!.id));
    expect(await revalidateBatch(await school(), batch.id)).toEqual({ total: 1, withErrors: 0 });
    const [left] = await rowsOf(batch);
    expect(left).toMatchObject({ error_count: 0, errors: [] });
  });

  it('puts a batch into the cart only when it has applicants and none has errors', async () => {
    const batch = await newBatch();
    const ctx = await school();
    await expect(openBatch(ctx, batch)).rejects.toBeInstanceOf(ValidationFailed);
    const gb = String(await countryId(db(), 'GB'));
    await stageEnrollments(ctx, batch, [
      { position: 1, raw: person('Ana', { destination_country_id: gb, end_date: day(12) }) },
    ]);
    const refused = await openBatch(ctx, batch).catch((e) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);
    await db().delete(enrollments).where(eq(enrollments.batch_id, batch.id));
    await stageEnrollments(ctx, batch, [{ position: 1, raw: person('Ana', { destination_country_id: gb }) }]);
    const opened = await openBatch(ctx, batch);
    expect(opened.status).toBe('open');
    const [again] = await db().select().from(policyBatches).where(eq(policyBatches.id, batch.id));
    expect(again!.opened_at).not.toBeNull();
  });

  it('stages 5000 applicants in one go', async () => {
    const batch = await newBatch();
    const gb = String(await countryId(db(), 'GB'));
    const rows: StagedRow[] = Array.from({ length: 5000 }, (_, i) => ({
      position: i + 2,
      raw: person(
        `Name${'abcdefghij'[i % 10]}${'klmnopqrst'[Math.floor(i / 10) % 10]}${'uvwxyzabcd'[Math.floor(i / 100) % 10]}`,
        {
          destination_country_id: gb,
          last_name: `Family${'abcdefghij'[Math.floor(i / 1000) % 10]}`,
        },
      ),
      source: () => ({ row: String(i + 2) }),
    }));
    const result = await stageEnrollments(await school(), batch, rows);
    expect(result.inserted).toBe(5000);
    const stored = await rowsOf(batch);
    expect(stored).toHaveLength(5000);
    expect(stored.filter((r) => r.error_count > 0)).toHaveLength(0);
    const more = await stageEnrollments(await school(), batch, [
      { position: 9999, raw: person('One') },
    ]).catch((e) => e);
    expect(more).toBeInstanceOf(ValidationFailed);
  });

  it('stages a new batch in steps with the rules across it checked in memory, as writing and re-checking would', async () => {
    const gb = String(await countryId(db(), 'GB'));
    const at = (over: Record<string, unknown> = {}) => ({ destination_country_id: gb, ...over });
    // A leader, then duplicates, a family member with and without its
    // student, a link to a leader, to a non-leader, to a row of a later step and to no row at all.
    const rows: StagedRow[] = [
      { position: 2, raw: person('Gail', at({ type: 'group_leader', date_of_birth: '1980-01-01' })) },
      { position: 3, raw: person('Ana', at()), group_leader_position: 2 },
      { position: 4, raw: person('Ana', at()), group_leader_position: 2 },
      { position: 5, raw: person('Eva', at({ type: 'immediate_family' })), dependency_position: 3 },
      { position: 6, raw: person('Ivo', at({ type: 'immediate_family' })) },
      { position: 7, raw: person('Rui', at()), group_leader_position: 3 },
      { position: 8, raw: person('Max', at()), dependency_position: 3 },
      { position: 9, raw: person('Zoe', at()), group_leader_position: 11 },
      { position: 10, raw: person('Lia', at({ first_name: 'L1a' })), group_leader_position: 99 },
      { position: 11, raw: person('Ugo', at({ type: 'group_leader', date_of_birth: '1981-01-01' })) },
    ];
    const ctx = await school();
    const written = await newBatch();
    const stepped = await newBatch();
    await stageEnrollments(ctx, written, rows);
    const steps: [number, number][] = [];
    const result = await stageNewBatch(ctx, stepped, rows, await batchRules(ctx, stepped), {
      step: 4,
      onStep: async (done, withErrors) => void steps.push([done, withErrors]),
    });
    const shape = async (batch: BatchRow) => {
      const stored = await rowsOf(batch);
      const position = new Map(stored.map((r) => [r.id, r.position]));
      return stored.map((r) => ({
        position: r.position,
        errors: r.errors,
        error_count: r.error_count,
        fee_minor: r.fee_minor,
        dependency: r.dependency_id ? position.get(r.dependency_id) : null,
        leader: r.group_leader_id ? position.get(r.group_leader_id) : null,
        source: r.source,
      }));
    };
    const expected = await shape(written);
    expect(await shape(stepped)).toEqual(expected);
    const withErrors = expected.filter((r) => r.error_count > 0).length;
    expect(result).toEqual({ inserted: 10, withErrors });
    expect(steps.map(([done]) => done)).toEqual([4, 8, 10]);
    expect(steps.at(-1)![1]).toBe(withErrors);
    // What the comparison covers: duplicates, a family member without its student, a link to a
    // non-leader, a leader link across steps, a link to no row, a row with an error of its own.
    const messages = expected.flatMap((r) => r.errors.map((e) => e.message));
    expect(messages).toEqual(
      expect.arrayContaining([
        'enrollments.errors.duplicate',
        'enrollments.errors.dependency_required',
        'enrollments.errors.dependency_only_family',
        'enrollments.errors.group_leader_invalid',
        'validation.name_invalid',
      ]),
    );
    expect(expected.find((r) => r.position === 9)!.leader).toBe(11);
    expect(expected.find((r) => r.position === 10)!.leader).toBeNull();
    // A batch that already has applicants is not a new batch.
    await expect(
      stageNewBatch(ctx, stepped, rows.slice(0, 1), await batchRules(ctx, stepped), { step: 4 }),
    ).rejects.toBeTruthy();
  });

  it('hides a batch from a school user of another client', async () => {
    const batch = await newBatch();
    const stranger = await actorCtx(STRANGER.schoolUser);
    await expect(findVisibleBatch(stranger, batch.public_id)).rejects.toBeInstanceOf(NotFound);
    await expect(findVisibleBatch(await school(), batch.public_id)).resolves.toMatchObject({ id: batch.id });
  });
});
