/**
 * Tenant isolation of the clients area: for EVERY service function that takes a client id, a school
 * user of another client and a company user of another company answer "not found" for a client that is
 * not theirs, even when their role holds every permission of the portal (so the scope, not a missing
 * permission, keeps them out), and so does an administrator of the seed's second company. An account
 * manager's own clients are a list filter, not a wall: the demo account manager opens the clients of
 * another account manager of their company (every read call answers), and gets "not found" on a client
 * of another company. The cases are generated from the tables below.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients } from '../../drizzle/schema';
import * as service from '../../workers/domain/clients/service';
import * as files from '../../workers/domain/clients/files';
import * as notes from '../../workers/domain/clients/notes';
import * as queries from '../../workers/domain/clients/queries';
import * as tabs from '../../workers/domain/clients/tab-lists';
import { listClientUsers } from '../../workers/domain/users/service';
import { schoolUserListSchema } from '../../workers/domain/users/schema';
import * as status from '../../workers/domain/clients/status';
import { clientUpdateSchema } from '../../workers/domain/clients/schema';
import { noteSchema } from '../../workers/domain/notes/schema';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, userByEmail } from '../support/world';
import {
  CLIENT_STRANGERS,
  OTHER_ACCOUNT_MANAGER,
  seedClientsWorld,
  type ClientsWorld,
} from '../support/clients';
import { fileOf, pdfBytes } from '../support/files';

const note = noteSchema.parse({
  title: 'Secret',
  note: 'Private',
  date: '2026-01-05',
  source: 'call',
  type: 'admin_note',
});

/** Every id-taking function of the area, called on the target client. */
const CALLS: Record<string, (ctx: ActorCtx, id: string, noteId: number) => Promise<unknown>> = {
  getClient: (c, id) => service.getClient(c, id),
  updateClient: (c, id) => service.updateClient(c, id, clientUpdateSchema.parse({ name: 'Taken over' })),
  getClientAddress: (c, id) => service.getClientAddress(c, id, 'billing'),
  updateClientAddress: (c, id) =>
    service.updateClientAddress(c, id, 'mailing', { address: 'x', country_id: 1 }),
  'clientFileResponse(logo)': (c, id) => files.clientFileResponse(c, id, 'logo'),
  'clientFileResponse(return_policy)': (c, id) => files.clientFileResponse(c, id, 'return_policy'),
  setClientFile: (c, id) => files.setClientFile(c, id, 'return_policy', fileOf(pdfBytes(), 'x.pdf')),
  clientNotes: (c, id) => notes.clientNotes(c, id),
  addClientNote: (c, id) => notes.addClientNote(c, id, note),
  clientNoteFile: (c, id, noteId) => notes.clientNoteFile(c, id, noteId),
  clientActivities: (c, id) => notes.clientActivities(c, id),
  listClientCampuses: (c, id) => tabs.listClientCampuses(c, id),
  listClientUsers: (c, id) => listClientUsers(c, id, schoolUserListSchema.parse({})),
  listClientAgreements: (c, id) => tabs.listClientAgreements(c, id),
  setClientStatus: (c, id) => status.setClientStatus(c, id, 'archived'),
  ...Object.fromEntries(
    (['archive', 'reactivate', 'activate', 'request_onboarding', 'delete'] as const).map((action) => [
      `applyClientAction(${action})`,
      (c: ActorCtx, id: string) => status.applyClientAction(c, id, action),
    ]),
  ),
};

/** Who tries, and whose client they try it on. */
const INTRUDERS = [
  {
    who: 'a school user of another client (every permission)',
    email: CLIENT_STRANGERS.permissiveSchoolUser,
    target: 'oakwood',
  },
  {
    who: 'a company user of another company (every permission)',
    email: CLIENT_STRANGERS.permissiveCompanyUser,
    target: 'oakwood',
  },
  { who: 'a senior admin of another company', email: CLIENT_STRANGERS.companyUser, target: 'oakwood' },
  { who: 'a school master user of another client', email: CLIENT_STRANGERS.schoolUser, target: 'oakwood' },
  {
    who: 'an administrator of the second company',
    email: CLIENT_STRANGERS.secondCompanyAdmin,
    target: 'oakwood',
  },
  {
    who: 'the demo account manager, on a client of another company',
    email: DEMO_ACCOUNTS.accountManager,
    target: 'heather',
  },
  {
    who: 'a demo company user, on the other company client',
    email: DEMO_ACCOUNTS.seniorAdmin,
    target: 'heather',
  },
] as const;

let world: ClientsWorld;
const noteIds: Record<string, number> = {};
const actors: Record<string, ActorCtx> = {};

beforeAll(async () => {
  world = await seedClientsWorld();
  // Maple College is another account manager's client of the demo company.
  const other = await userByEmail(OTHER_ACCOUNT_MANAGER);
  await db().update(clients).set({ account_manager_id: other.id }).where(eq(clients.id, world.maple.id));
  const senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  const thistle = await actorCtx(CLIENT_STRANGERS.companyUser);
  // Each target has a note with a file and a logo, so a leak would have something to show.
  for (const [key, owner] of [
    ['oakwood', senior],
    ['maple', senior],
    ['heather', thistle],
  ] as const) {
    const client = world[key];
    const { id } = await notes.addClientNote(owner, client.public_id, note, fileOf(pdfBytes(), 'secret.pdf'));
    noteIds[key] = id;
    await files.setClientFile(owner, client.public_id, 'return_policy', fileOf(pdfBytes(), 'policy.pdf'));
  }
  for (const i of INTRUDERS) actors[i.email] = await actorCtx(i.email);
}, SETUP_TIMEOUT_MS);

describe('tenant isolation of clients: every id-taking call answers not found', () => {
  for (const intruder of INTRUDERS) {
    describe(intruder.who, () => {
      for (const [name, call] of Object.entries(CALLS)) {
        it(`${name} on ${intruder.target}`, async () => {
          const target = world[intruder.target];
          const error = await call(actors[intruder.email], target.public_id, noteIds[intruder.target]).then(
            () => null,
            (e) => e,
          );
          // A role lacking the permission is refused before any lookup (Forbidden, the same for every id);
          // every role that holds it must be stopped by the scope with NotFound.
          if (error instanceof Forbidden) {
            expect(intruder.email).not.toMatch(/all\.perms/);
            return;
          }
          expect(error).toBeInstanceOf(NotFound);
        });
      }
    });
  }

  it('left every target client as it was', async () => {
    for (const key of ['oakwood', 'maple', 'heather'] as const) {
      const [row] = await db().select().from(clients).where(eq(clients.id, world[key].id));
      expect(row).toMatchObject({ name: world[key].name, status: 'active' });
    }
  });

  it('never lists or bulk-changes another tenant client', async () => {
    for (const intruder of INTRUDERS.filter((i) => !i.email.includes('maple'))) {
      const ctx = actors[intruder.email];
      const target = world[intruder.target];
      if (ctx.actor.permissions.has('read_client')) {
        const listed = await queries.listClients(ctx, {
          search: target.name,
          items: 500,
          account_manager_clients: false,
        });
        expect(listed.items.map((c) => c.id)).not.toContain(target.public_id);
      }
      if (ctx.actor.permissions.has('archive_client')) {
        await expect(
          status.bulkClientAction(ctx, { action: 'archive', ids: [target.public_id] }),
        ).rejects.toThrow();
      }
    }
    const [row] = await db().select().from(clients).where(eq(clients.id, world.oakwood.id));
    expect(row.status).toBe('active');
  });
});

/** The read calls of the matrix: an account manager may make every one on any client of their company. */
const READS = [
  'getClient',
  'getClientAddress',
  'clientFileResponse(return_policy)',
  'clientNotes',
  'clientNoteFile',
  'clientActivities',
  'listClientCampuses',
  'listClientUsers',
  'listClientAgreements',
] as const;

describe("the demo account manager, on another account manager's client of their company", () => {
  it('is a client they do not manage', async () => {
    const [row] = await db().select().from(clients).where(eq(clients.id, world.maple.id));
    expect(row.account_manager_id).not.toBe(actors[DEMO_ACCOUNTS.accountManager].actor.user_id);
    expect(row.account_manager_id).not.toBeNull();
  });

  it.each(READS)('may %s', async (name) => {
    // Answers (an address may be null), where another company's user gets not found.
    const outcome = await CALLS[name](
      actors[DEMO_ACCOUNTS.accountManager],
      world.maple.public_id,
      noteIds.maple,
    ).then(
      () => 'answered',
      (e) => e,
    );
    expect(outcome).toBe('answered');
  });

  it('finds it in the list once the "my clients" filter is cleared, and not before', async () => {
    const ctx = actors[DEMO_ACCOUNTS.accountManager];
    const mine = await queries.listClients(ctx, { search: world.maple.name });
    expect(mine.items.map((c) => c.id)).not.toContain(world.maple.public_id);
    const all = await queries.listClients(ctx, { search: world.maple.name, account_manager_clients: false });
    expect(all.items.map((c) => c.id)).toContain(world.maple.public_id);
  });
});
