/**
 * Tenant isolation of campuses, service agreements and contracts: for every service function of the area
 * that takes an id, a company user and a school user of ANOTHER company get "not found" (never
 * "forbidden", never the data). The school user's role holds every permission of the area, so only the
 * tenant scope keeps them out. So do an administrator of the seed's second company and an account
 * manager of another company. The owner's calls with the same ids succeed, so the ids are real, and so do
 * the demo account manager's on a client another account manager of their company manages (an account
 * manager's own clients are a list filter, not a wall).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients, companies, insurers } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { Forbidden } from '../../workers/domain/errors';
import { buildContract } from '../../drizzle/seed/contracts';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { publicId } from '../../workers/platform/crypto';
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
  campusContractsSummary,
  campusFormOptions,
  campusLogs,
  campusNoteFile,
  campusNotes,
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
import {
  addContract,
  cloneContract,
  contractActivities,
  getContract,
  listContracts,
  productsAvailableForCampus,
  updateContractStatus,
} from '../../workers/domain/contracts/service';
import { addContractSchema, contractListQuerySchema } from '../../workers/domain/contracts/schema';
import {
  addAgreementDocuments,
  downloadAgreementDocument,
  removeAgreementDocument,
} from '../../workers/domain/service-agreements/documents';
import {
  agreementFormOptions,
  getServiceAgreement,
  listServiceAgreements,
  serviceAgreementActivities,
  serviceAgreementContracts,
} from '../../workers/domain/service-agreements/queries';
import {
  addServiceAgreementContract,
  createServiceAgreement,
  setDefaultProduct,
  setServiceAgreementStatus,
  updateServiceAgreement,
} from '../../workers/domain/service-agreements/service';
import {
  agreementListQuerySchema,
  agreementRowSchema,
  createAgreementSchema,
  updateAgreementSchema,
} from '../../workers/domain/service-agreements/schema';
import { noteSchema } from '../../workers/domain/notes/schema';
import { pdfBytes } from '../support/files';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, asSenior, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

const SECOND_COMPANY_ADMIN = 'admin@britannia.test';
const STRANGER_MANAGER = 'manager@caledonia.test';

interface Ids {
  client: string;
  campus: string;
  campusId: number;
  contract: string;
  agreement: string;
  insurer: string;
  product: string;
  note: number;
}

let w: ContractsWorld;
let ids: Ids;
const strangers: Record<string, ActorCtx> = {};

beforeAll(async () => {
  w = await seedContractsWorld();
  const owner = await asSenior();
  const insurer = publicId();
  await db()
    .insert(insurers)
    .values({ public_id: insurer, company_id: w.albion.id, name: 'Owner Underwriters' });
  const contract = await buildContract(db(), {
    campusId: w.north.id,
    productId: w.product.id,
    startDate: day(-1),
  });
  const agreement = await createServiceAgreement(
    owner,
    createAgreementSchema.parse({
      client_id: w.oakwood.public_id,
      name: 'Owner agreement',
      insurer_id: insurer,
      start_date: day(0),
      approve: 'approve',
      rows: [row()],
    }),
  );
  await addAgreementDocuments(owner, agreement.id, [new File([pdfBytes() as BlobPart], 'owner.pdf')]);
  const note = await addCampusNote(
    owner,
    w.north.public_id,
    noteInput(),
    new File([pdfBytes() as BlobPart], 'n.pdf'),
  );
  ids = {
    client: w.oakwood.public_id,
    campus: w.north.public_id,
    campusId: w.north.id,
    contract: contract.public_id,
    agreement: agreement.id,
    insurer,
    product: w.product.public_id,
    note: note.id,
  };
  strangers['a company user of another company'] = await actorCtx(STRANGER.companyUser);
  strangers['a school user of another company'] = await actorCtx(STRANGER.schoolUser);
  const [britannia] = await db()
    .select()
    .from(companies)
    .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
  await buildUser(db(), {
    email: SECOND_COMPANY_ADMIN,
    first_name: 'Bea',
    last_name: 'Britannia',
    roles: ['administrator'],
    companyIds: [britannia.id],
  });
  await buildUser(db(), {
    email: STRANGER_MANAGER,
    first_name: 'Cal',
    last_name: 'Manager',
    roles: ['account_manager'],
    companyIds: [w.caledonia.id],
  });
  // Oakwood is another account manager's client of the demo company, not the demo account manager's.
  const other = await buildUser(db(), {
    email: 'other.manager@albion.test',
    first_name: 'Olive',
    last_name: 'Other',
    roles: ['account_manager'],
    companyIds: [w.albion.id],
  });
  await db().update(clients).set({ account_manager_id: other.id }).where(eq(clients.id, w.oakwood.id));
  strangers['an administrator of the second company'] = await actorCtx(SECOND_COMPANY_ADMIN);
  strangers['an account manager of another company'] = await actorCtx(STRANGER_MANAGER);
}, SETUP_TIMEOUT_MS);

function row(over: Record<string, unknown> = {}) {
  return {
    product_id: w.product.public_id,
    campus_id: w.north.public_id,
    net_price: '10',
    min_days: '6',
    sale_price: '12',
    start_date: day(1),
    ...over,
  };
}
function noteInput() {
  return noteSchema.parse({
    title: 'Owner note',
    note: 'Private',
    date: day(0),
    source: 'call',
    type: 'admin_note',
  });
}
const agreementUpdate = (i: Ids) =>
  updateAgreementSchema.parse({ name: 'Stolen', insurer_id: i.insurer, start_date: day(0), rows: [] });

/** Every id-taking call of the area. `safe` calls change nothing, so the owner can run them as a control. */
const CALLS: { name: string; safe: boolean; run: (ctx: ActorCtx, i: Ids) => Promise<unknown> }[] = [
  // campuses
  { name: 'getCampus', safe: true, run: (c, i) => getCampus(c, i.campus) },
  { name: 'campusFormOptions', safe: true, run: (c, i) => campusFormOptions(c, i.client) },
  {
    name: 'updateCampus',
    safe: false,
    run: (c, i) => updateCampus(c, i.campus, updateCampusSchema.parse({ name: 'Stolen' })),
  },
  {
    name: 'updateCampusBilling',
    safe: false,
    run: (c, i) => updateCampusBilling(c, i.campus, campusBillingSchema.parse({})),
  },
  {
    name: 'updateCampusContacts',
    safe: false,
    run: (c, i) => updateCampusContacts(c, i.campus, campusContactsSchema.parse({ contacts: {} })),
  },
  {
    name: 'getCampusAddress (billing)',
    safe: true,
    run: (c, i) => getCampusAddress(c, i.campus, 'billing').then(() => true),
  },
  {
    name: 'getCampusAddress (mailing)',
    safe: true,
    run: (c, i) => getCampusAddress(c, i.campus, 'mailing').then(() => true),
  },
  {
    name: 'updateCampusAddress',
    safe: false,
    run: (c, i) => updateCampusAddress(c, i.campus, 'billing', undefined),
  },
  { name: 'archiveCampus', safe: false, run: (c, i) => archiveCampus(c, i.campus) },
  { name: 'activateCampus', safe: false, run: (c, i) => activateCampus(c, i.campus) },
  { name: 'cloneCampus', safe: false, run: (c, i) => cloneCampus(c, i.campus) },
  {
    name: 'campusContracts',
    safe: true,
    run: (c, i) => campusContracts(c, i.campus, contractListQuerySchema.parse({})),
  },
  { name: 'campusContract', safe: true, run: (c, i) => campusContract(c, i.campus, i.contract) },
  { name: 'campusContractsSummary', safe: true, run: (c, i) => campusContractsSummary(c, i.campus) },
  {
    name: 'listCampusUsers',
    safe: true,
    run: (c, i) => listCampusUsers(c, i.campus, schoolUserListSchema.parse({ items: 5 })),
  },
  { name: 'campusLogs', safe: true, run: (c, i) => campusLogs(c, i.campus) },
  { name: 'campusNotes', safe: true, run: (c, i) => campusNotes(c, i.campus) },
  { name: 'addCampusNote', safe: false, run: (c, i) => addCampusNote(c, i.campus, noteInput()) },
  { name: 'campusNoteFile', safe: true, run: (c, i) => campusNoteFile(c, i.campus, i.note) },
  { name: 'enrollmentTemplate', safe: true, run: (c, i) => enrollmentTemplate(c, i.campus) },
  // contracts
  { name: 'getContract', safe: true, run: (c, i) => getContract(c, i.contract) },
  { name: 'contractActivities', safe: true, run: (c, i) => contractActivities(c, i.contract) },
  {
    name: 'updateContractStatus',
    safe: false,
    run: (c, i) => updateContractStatus(c, i.contract, 'archived'),
  },
  {
    name: 'cloneContract',
    safe: false,
    run: (c, i) => cloneContract(c, i.contract, { start_date: day(2), end_date: day(9) }),
  },
  {
    name: 'productsAvailableForCampus (public id)',
    safe: true,
    run: (c, i) => productsAvailableForCampus(c, i.campus),
  },
  {
    name: 'productsAvailableForCampus (id)',
    safe: true,
    run: (c, i) => productsAvailableForCampus(c, i.campusId),
  },
  // service agreements
  { name: 'getServiceAgreement', safe: true, run: (c, i) => getServiceAgreement(c, i.agreement) },
  { name: 'agreementFormOptions', safe: true, run: (c, i) => agreementFormOptions(c, i.client) },
  {
    name: 'updateServiceAgreement',
    safe: false,
    run: (c, i) => updateServiceAgreement(c, i.agreement, agreementUpdate(i)),
  },
  {
    name: 'setServiceAgreementStatus',
    safe: false,
    run: (c, i) => setServiceAgreementStatus(c, i.agreement, 'inactive'),
  },
  {
    name: 'addServiceAgreementContract',
    safe: false,
    run: (c, i) => addServiceAgreementContract(c, i.agreement, agreementRowSchema.parse(row())),
  },
  { name: 'setDefaultProduct', safe: false, run: (c, i) => setDefaultProduct(c, i.agreement, null) },
  {
    name: 'serviceAgreementContracts',
    safe: true,
    run: (c, i) => serviceAgreementContracts(c, i.agreement, contractListQuerySchema.parse({})),
  },
  {
    name: 'serviceAgreementActivities',
    safe: true,
    run: (c, i) => serviceAgreementActivities(c, i.agreement),
  },
  {
    name: 'addAgreementDocuments',
    safe: false,
    run: (c, i) => addAgreementDocuments(c, i.agreement, [new File([pdfBytes() as BlobPart], 'x.pdf')]),
  },
  {
    name: 'downloadAgreementDocument',
    safe: true,
    run: (c, i) => downloadAgreementDocument(c, i.agreement, 0),
  },
  { name: 'removeAgreementDocument', safe: false, run: (c, i) => removeAgreementDocument(c, i.agreement, 0) },
];

/** Calls that take another tenant's id inside their input: refused as a field error, nothing written. */
const INPUT_CALLS: { name: string; key: string; run: (ctx: ActorCtx, i: Ids) => Promise<unknown> }[] = [
  {
    name: 'createCampus for the client of another tenant',
    key: 'client_id',
    run: (c, i) => createCampus(c, createCampusSchema.parse({ client_id: i.client, name: 'Stolen' })),
  },
  {
    name: 'addContract for the campus of another tenant',
    key: 'campus_id',
    run: (c, i) =>
      addContract(
        c,
        addContractSchema.parse({
          campus_id: i.campus,
          product_id: i.product,
          start_date: day(1),
          end_date: day(20),
          net_price: 1,
          sale_price: 2,
          min_days: 6,
        }),
      ),
  },
  {
    name: 'createServiceAgreement for the client of another tenant',
    key: 'client_id',
    run: (c, i) =>
      createServiceAgreement(
        c,
        createAgreementSchema.parse({
          client_id: i.client,
          name: 'Stolen',
          insurer_id: i.insurer,
          start_date: day(0),
          rows: [],
        }),
      ),
  },
];

const STRANGERS = [
  'a company user of another company',
  'a school user of another company',
  'an administrator of the second company',
  'an account manager of another company',
];

describe.each(STRANGERS)('%s', (who) => {
  it.each(CALLS.map((c) => [c.name, c] as const))('gets "not found" from %s', async (_name, call) => {
    const error = await call.run(strangers[who], ids).then(
      () => null,
      (e) => e,
    );
    // The account manager's role lacks some permissions of the area (archiving, cloning a campus): those
    // calls are refused before any look-up, the same for every id. Every other role must meet the scope.
    if (error instanceof Forbidden && who === 'an account manager of another company') return;
    expect(error).toBeInstanceOf(NotFound);
  });

  it.each(INPUT_CALLS.map((c) => [c.name, c] as const))('is refused %s', async (_name, call) => {
    const error = await call.run(strangers[who], ids).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors.map((e) => e.key)).toContain(call.key);
  });

  it('finds nothing of another tenant by filtering the lists on its ids', async () => {
    const ctx = strangers[who];
    expect((await listCampuses(ctx, campusListQuerySchema.parse({ client_id: ids.client }))).items).toEqual(
      [],
    );
    expect(
      (await listContracts(ctx, contractListQuerySchema.parse({ campus_id: ids.campus }))).items,
    ).toEqual([]);
    expect(
      (await listServiceAgreements(ctx, agreementListQuerySchema.parse({ client_id: ids.client }))).items,
    ).toEqual([]);
  });
});

describe('the owner, as a control', () => {
  it.each(CALLS.filter((c) => c.safe).map((c) => [c.name, c] as const))(
    'succeeds with %s',
    async (_name, call) => {
      const answer = await call.run(await actorCtx(DEMO_ACCOUNTS.seniorAdmin), ids);
      expect(answer).toBeTruthy();
    },
  );
});

describe("the demo account manager, on another account manager's client of their company", () => {
  it('is a client they do not manage', async () => {
    const manager = await actorCtx(DEMO_ACCOUNTS.accountManager);
    const [row] = await db().select().from(clients).where(eq(clients.id, w.oakwood.id));
    expect(row.account_manager_id).not.toBeNull();
    expect(row.account_manager_id).not.toBe(manager.actor.user_id);
  });

  it.each(CALLS.filter((c) => c.safe).map((c) => [c.name, c] as const))(
    'may read it with %s',
    async (_name, call) => {
      const answer = await call.run(await actorCtx(DEMO_ACCOUNTS.accountManager), ids);
      expect(answer).toBeTruthy();
    },
  );
});
