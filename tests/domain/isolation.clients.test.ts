/**
 * Tenant isolation of the clients area: for EVERY service function that takes a client id, a school
 * user of another client and a company user of another company answer "not found" for a client that is
 * not theirs, even when their role holds every permission of the portal (so the scope, not a missing
 * permission, keeps them out). An account manager is kept out of clients they do not manage.
 * The cases are generated from the tables below.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients } from '../../drizzle/schema';
import * as service from '../../workers/domain/clients/service';
import * as queries from '../../workers/domain/clients/queries';
import * as status from '../../workers/domain/clients/status';
import { clientUpdateSchema } from '../../workers/domain/clients/schema';
import { noteSchema } from '../../workers/domain/notes/schema';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { CLIENT_STRANGERS, seedClientsWorld, type ClientsWorld } from '../support/clients';
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
  'clientFileResponse(logo)': (c, id) => service.clientFileResponse(c, id, 'logo'),
  'clientFileResponse(return_policy)': (c, id) => service.clientFileResponse(c, id, 'return_policy'),
  setClientFile: (c, id) => service.setClientFile(c, id, 'return_policy', fileOf(pdfBytes(), 'x.pdf')),
  clientNotes: (c, id) => service.clientNotes(c, id),
  addClientNote: (c, id) => service.addClientNote(c, id, note),
  clientNoteFile: (c, id, noteId) => service.clientNoteFile(c, id, noteId),
  clientActivities: (c, id) => service.clientActivities(c, id),
  listClientCampuses: (c, id) => queries.listClientCampuses(c, id),
  listClientSchoolUsers: (c, id) => queries.listClientSchoolUsers(c, id),
  listClientAgreements: (c, id) => queries.listClientAgreements(c, id),
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
    who: 'an account manager, on a client they do not manage',
    email: DEMO_ACCOUNTS.accountManager,
    target: 'maple',
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
  const senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  const thistle = await actorCtx(CLIENT_STRANGERS.companyUser);
  // Each target has a note with a file and a logo, so a leak would have something to show.
  for (const [key, owner] of [
    ['oakwood', senior],
    ['maple', senior],
    ['heather', thistle],
  ] as const) {
    const client = world[key];
    const { id } = await service.addClientNote(
      owner,
      client.public_id,
      note,
      fileOf(pdfBytes(), 'secret.pdf'),
    );
    noteIds[key] = id;
    await service.setClientFile(owner, client.public_id, 'return_policy', fileOf(pdfBytes(), 'policy.pdf'));
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
    for (const intruder of INTRUDERS.filter(
      (i) => !i.email.includes('maple') && i.email !== DEMO_ACCOUNTS.accountManager,
    )) {
      const ctx = actors[intruder.email];
      const target = world[intruder.target];
      if (ctx.actor.permissions.has('read_client')) {
        const listed = await queries.listClients(ctx, { search: target.name, items: 500 });
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
