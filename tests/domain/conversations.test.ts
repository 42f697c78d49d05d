/**
 * The message centre's rules: a school user asks with an attachment, staff answer, each side's unread
 * count goes up and down, the other side is emailed through the outbox (unless they turned it off),
 * statuses and the reader's own flagged / archived / unread state, attachments checked by content with
 * nothing half-stored, and tenant isolation: every call that takes a thread, message or attachment id
 * answers "not found" to a user of another client, another company, or another campus.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  campuses,
  conversations,
  messageAttachments,
  notifications,
  outbox,
  users,
} from '../../drizzle/schema';
import {
  downloadAttachment,
  getConversation,
  listConversations,
  listMessages,
  unreadCount,
} from '../../workers/domain/conversations/inbox';
import {
  addMessageSchema,
  inboxQuerySchema,
  startConversationSchema,
} from '../../workers/domain/conversations/schema';
import {
  addMessage,
  setOwnState,
  setStatus,
  startConversation,
  startForClients,
} from '../../workers/domain/conversations/service';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { getOwnProfile, updateOwnProfile } from '../../workers/domain/account/service';
import { profileFormSchema, profileSchema } from '../../workers/domain/auth/schema';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { CLIENT_STRANGERS, seedClientsWorld, type ClientsWorld } from '../support/clients';
import { exeBytes, fileOf, pdfBytes } from '../support/files';
import { rawZip, storedEntry } from '../support/sheets';

let world: ClientsWorld;
let school: ActorCtx;
let staff: ActorCtx;
let employee: ActorCtx;
let north: number;
let south: string;

const inbox = (extra: Record<string, unknown> = {}) => inboxQuerySchema.parse(extra);
const start = (input: Record<string, unknown>) =>
  startConversationSchema.parse({ attachments: [], ...input });
const reply = (input: Record<string, unknown>) => addMessageSchema.parse({ attachments: [], ...input });
const later = (c: ActorCtx, ms: number): ActorCtx => ({ ...c, now: new Date(c.now.getTime() + ms) });

async function refusal(p: Promise<unknown>): Promise<ValidationFailed> {
  const e = await p.then(
    () => null,
    (x) => x,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  return e as ValidationFailed;
}

/** The notifications a user got about one thread. */
const toldOf = async (email: string, threadId: string) =>
  db()
    .select()
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.user_id))
    .where(and(eq(users.email, email), eq(notifications.to, `/message-centre/${threadId}`)))
    .then((rows) => rows.map((r) => r.notifications));
const mails = async (recipient: string) =>
  db().select().from(outbox).where(eq(outbox.recipient, recipient.toLowerCase()));

beforeAll(async () => {
  world = await seedClientsWorld();
  const base = new Date(Date.now() + 60_000);
  school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin, { now: base });
  staff = await actorCtx(DEMO_ACCOUNTS.admin, { now: base });
  employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee, { now: base });
  const rows = await db().select().from(campuses).where(eq(campuses.client_id, world.oakwood.id));
  north = rows.find((c) => c.name.includes('North'))!.id;
  south = rows.find((c) => c.name.includes('South'))!.public_id;
}, SETUP_TIMEOUT_MS);

describe('a question and its answer', () => {
  it('a school user asks with an attachment, staff answer, and the counts go up and down', async () => {
    const staffBefore = await unreadCount(staff);
    const asked = await startConversation(
      school,
      start({
        subject: 'Invoice question',
        message: 'Why is the levy on this invoice?\nThanks',
        attachments: [fileOf(pdfBytes('scan'), 'scan.pdf')],
      }),
    );
    expect(await unreadCount(staff)).toBe(staffBefore + 1);
    expect(await unreadCount(school)).toBe(0);
    const staffMail = await mails(DEMO_ACCOUNTS.admin);
    expect(staffMail.some((m) => m.body_text.includes(`/message-centre/${asked.id}`))).toBe(true);
    // Staff are notified too, with a link to the thread; the asker is not.
    const staffTold = await toldOf(DEMO_ACCOUNTS.admin, asked.id);
    expect(staffTold).toHaveLength(1);
    expect(staffTold[0]).toMatchObject({
      message_key: 'message_received',
      params: { subject: 'Invoice question' },
      client_id: world.oakwood.id,
    });
    expect(await toldOf(DEMO_ACCOUNTS.schoolAdmin, asked.id)).toHaveLength(0);

    const list = await listConversations(staff, inbox({ search: 'levy' }));
    expect(list.items.map((i) => i.id)).toContain(asked.id);
    expect(list.items.find((i) => i.id === asked.id)!.read).toBe(false);

    // Staff open it: read. They download the file and answer.
    const view = await getConversation(later(staff, 1000), asked.id);
    expect(view.client.id).toBe(world.oakwood.public_id);
    expect(await unreadCount(staff)).toBe(staffBefore);
    const [first] = (await listMessages(staff, asked.id, { page: 1, items: 50 })).items;
    expect(first.body).toBe('Why is the levy on this invoice?\nThanks');
    expect(first.attachments).toHaveLength(1);
    const file = await downloadAttachment(staff, asked.id, first.id);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdfBytes('scan'));

    await addMessage(later(staff, 2000), asked.id, reply({ message: 'It is the Irish levy.' }));
    expect(await unreadCount(school)).toBe(1);
    const schoolMail = await mails(DEMO_ACCOUNTS.schoolAdmin);
    expect(schoolMail.some((m) => m.body_text.includes('It is the Irish levy.'))).toBe(true);
    expect(await toldOf(DEMO_ACCOUNTS.schoolAdmin, asked.id)).toHaveLength(1);
    // A thread of the whole client is not one a campus employee may read: they are not told.
    expect(await toldOf(DEMO_ACCOUNTS.campusEmployee, asked.id)).toHaveLength(0);
    await getConversation(later(school, 3000), asked.id);
    expect(await unreadCount(school)).toBe(0);
  });

  it('statuses: waiting on the client ends with a school reply, a reply reopens a resolved thread', async () => {
    const { id } = await startConversation(
      staff,
      start({ subject: 'Dates', message: 'Please confirm', client_id: world.oakwood.public_id }),
    );
    await setStatus(staff, id, 'waiting_on_client');
    await addMessage(later(school, 10), id, reply({ message: 'Confirmed' }));
    expect((await getConversation(staff, id)).status).toBe('open');
    await setStatus(staff, id, 'resolved');
    await addMessage(later(staff, 20), id, reply({ message: 'One more thing' }));
    expect((await getConversation(staff, id)).status).toBe('open');
  });

  it('flag, archive, back to the inbox with a new message, mark unread', async () => {
    const { id } = await startConversation(
      staff,
      start({ subject: 'Folders', message: 'Hello', client_id: world.oakwood.public_id }),
    );
    await setOwnState(later(school, 100), id, { flagged: true, archived: true });
    expect((await listConversations(school, inbox({ folder: 'flagged' }))).items.map((i) => i.id)).toContain(
      id,
    );
    expect((await listConversations(school, inbox({ folder: 'archived' }))).items.map((i) => i.id)).toContain(
      id,
    );
    expect((await listConversations(school, inbox())).items.map((i) => i.id)).not.toContain(id);
    await addMessage(later(staff, 200), id, reply({ message: 'Are you there?' }));
    expect((await listConversations(school, inbox())).items.map((i) => i.id)).toContain(id);
    await getConversation(later(school, 300), id);
    const before = await unreadCount(school);
    await setOwnState(later(school, 400), id, { unread: true });
    expect(await unreadCount(school)).toBe(before + 1);
    // Marking it unread is one reader's state: staff are not touched.
    expect((await listConversations(staff, inbox({ search: 'Folders' }))).items[0].read).toBe(true);
  });

  it('a user who turned message emails off on their account page is not emailed', async () => {
    const profile = { first_name: 'Susan', last_name: 'School', landing_page: 'insureds' as const };
    await updateOwnProfile(school, { ...profile, ...profileFormSchema.parse({ ...profile }) });
    expect((await getOwnProfile(school)).message_emails).toBe(false);
    const before = (await mails(DEMO_ACCOUNTS.schoolAdmin)).length;
    await startConversation(
      staff,
      start({ subject: 'Quiet', message: 'No email', client_id: world.oakwood.public_id }),
    );
    expect((await mails(DEMO_ACCOUNTS.schoolAdmin)).length).toBe(before);
    // The API's profile call leaves the choice as it is when it does not name it, and turns it back on.
    await updateOwnProfile(school, profileSchema.parse(profile));
    expect((await getOwnProfile(school)).message_emails).toBe(false);
    await updateOwnProfile(school, profileSchema.parse({ ...profile, message_emails: true }));
    expect((await getOwnProfile(school)).message_emails).toBe(true);
  });

  it('the clients list "send message" starts one thread per client in one step', async () => {
    const { ids } = await startForClients(staff, {
      subject: 'New prices',
      message: 'Prices change in May.',
      client_ids: [world.oakwood.public_id, world.maple.public_id],
    });
    expect(ids).toHaveLength(2);
    const rows = await db().select().from(conversations).where(eq(conversations.subject, 'New prices'));
    expect(rows.map((r) => r.client_id).sort()).toEqual([world.oakwood.id, world.maple.id].sort());
    // Another company's client refuses the whole request before anything is written.
    const e = await refusal(
      startForClients(staff, {
        subject: 'Nope',
        message: 'x',
        client_ids: [world.oakwood.public_id, world.heather.public_id],
      }),
    );
    expect(e.errors[0].key).toBe('client_ids');
    expect(await db().select().from(conversations).where(eq(conversations.subject, 'Nope'))).toHaveLength(0);
  });
});

describe('attachments', () => {
  const count = async () =>
    Number(
      (
        await db()
          .select({ n: sql<number>`count(*)` })
          .from(messageAttachments)
      )[0].n,
    );
  const objects = async () => (await testEnv().FILES.list({ prefix: 'messages/' })).objects.length;

  it('refuses an executable, a file that is not what its name says, one over 10 MB and a zip bomb; nothing stored', async () => {
    const [rows, stored] = [await count(), await objects()];
    const { id } = await startConversation(
      staff,
      start({ subject: 'Files', message: 'x', client_id: world.oakwood.public_id }),
    );
    const tries = [
      [fileOf(pdfBytes(), 'ok.pdf'), fileOf(exeBytes(), 'invoice.pdf')],
      [fileOf(exeBytes(), 'tool.exe')],
      [fileOf('plain text, not a PDF', 'contract.pdf')],
      [fileOf(new Uint8Array(10 * 1024 * 1024 + 1).fill(65), 'big.csv')],
      [
        fileOf(
          rawZip([
            storedEntry('[Content_Types].xml', '<Types/>'),
            { ...storedEntry('word/document.xml', '<x/>'), declaredSize: 200 * 1024 * 1024 },
          ]),
          'bomb.docx',
        ),
      ],
    ];
    const messages: string[] = [];
    for (const files of tries) {
      expect(reply({ message: 'x', attachments: files }).attachments).toHaveLength(files.length);
      const e = await refusal(addMessage(staff, id, reply({ message: 'see attached', attachments: files })));
      expect(e.errors[0].key).toBe('attachments');
      messages.push(e.errors[0].message);
    }
    expect(messages[3]).toBe('validation.file_too_large|{"size":10}');
    expect(messages[4]).toBe('files.too_big_unpacked');
    expect((await listMessages(staff, id, { page: 1, items: 50 })).items).toHaveLength(1);
    expect([await count(), await objects()]).toEqual([rows, stored]);
  });
});

describe('tenant isolation: every id-taking call answers "not found"', () => {
  let oakwoodThread: string;
  let oakwoodMessage: string;
  let northThread: string;

  beforeAll(async () => {
    oakwoodThread = (
      await startConversation(
        staff,
        start({
          subject: 'Private',
          message: 'Oakwood only',
          client_id: world.oakwood.public_id,
          attachments: [fileOf(pdfBytes(), 'a.pdf')],
        }),
      )
    ).id;
    oakwoodMessage = (await listMessages(staff, oakwoodThread, { page: 1, items: 5 })).items[0].id;
    const [northRow] = await db().select().from(campuses).where(eq(campuses.id, north));
    northThread = (
      await startConversation(
        employee,
        start({ subject: 'North question', message: 'Hi', campus_id: northRow.public_id }),
      )
    ).id;
  });

  const calls: [string, (c: ActorCtx, id: string, message: string) => Promise<unknown>][] = [
    ['get', (c, id) => getConversation(c, id)],
    ['messages', (c, id) => listMessages(c, id, { page: 1, items: 5 })],
    ['add', (c, id) => addMessage(c, id, reply({ message: 'hi' }))],
    ['download', (c, id, m) => downloadAttachment(c, id, m)],
    ['status', (c, id) => setStatus(c, id, 'resolved')],
    ['unread', (c, id) => setOwnState(c, id, { unread: true })],
    ['flag', (c, id) => setOwnState(c, id, { flagged: true })],
    ['archive', (c, id) => setOwnState(c, id, { archived: true })],
  ];
  const strangers = [
    CLIENT_STRANGERS.permissiveSchoolUser,
    CLIENT_STRANGERS.permissiveCompanyUser,
    CLIENT_STRANGERS.secondCompanyAdmin,
  ];

  for (const stranger of strangers) {
    for (const [name, run] of calls) {
      it(`${stranger}: ${name}`, async () => {
        const c = await actorCtx(stranger);
        await expect(run(c, oakwoodThread, oakwoodMessage)).rejects.toBeInstanceOf(NotFound);
        expect((await listConversations(c, inbox({ search: 'Oakwood only' }))).items).toHaveLength(0);
      });
    }
  }

  it('a campus employee sees their campus thread and not the client-wide or other-campus ones', async () => {
    await expect(getConversation(employee, northThread)).resolves.toMatchObject({
      subject: 'North question',
    });
    await expect(getConversation(employee, oakwoodThread)).rejects.toBeInstanceOf(NotFound);
    const southThread = (
      await startConversation(staff, start({ subject: 'South only', message: 'x', campus_id: south }))
    ).id;
    for (const [, run] of calls) {
      await expect(run(employee, southThread, oakwoodMessage)).rejects.toBeInstanceOf(NotFound);
    }
    const ids = (await listConversations(employee, inbox({ items: 100 }))).items.map((i) => i.id);
    expect(ids).toContain(northThread);
    expect(ids).not.toContain(southThread);
    // And cannot start one on the other campus.
    await refusal(startConversation(employee, start({ subject: 'x', message: 'y', campus_id: south })));
  });

  it("a tie to another client's invoice or batch is refused", async () => {
    const e = await refusal(
      startConversation(
        staff,
        start({ subject: 'x', message: 'y', client_id: world.maple.public_id, invoice_id: 'nope' }),
      ),
    );
    expect(e.errors[0].key).toBe('invoice_id');
  });
});
