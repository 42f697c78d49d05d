import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, clients, notes } from '../../drizzle/schema';
import { parseWithZod } from '@conform-to/zod';
import { noteSchema } from '../../workers/domain/notes/schema';
import { addNote, listNotes, noteFileResponse, type NoteOwner } from '../../workers/domain/notes/service';
import { activityFeed } from '../../workers/domain/activity/feed';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { exeBytes, fileOf, pdfBytes } from '../support/files';

const base = {
  title: 'Call with bursar',
  note: 'Asked about\ninvoices.',
  date: '2026-03-02',
  source: 'call',
  type: 'admin_note',
};

function messages(result: ReturnType<typeof noteSchema.safeParse>) {
  expect(result.success).toBe(false);
  return Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), formatMessage(i.message)]));
}

async function failure(p: Promise<unknown>): Promise<ValidationFailed> {
  const e = await p.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  return e as ValidationFailed;
}

describe('note rules (spec 001 s.3, s.5)', () => {
  it('requires title, note, a valid date, source and type', () => {
    const errors = messages(
      noteSchema.safeParse({ title: ' ', note: '', date: '2026-02-30', source: '', type: 'x' }),
    );
    expect(errors).toMatchObject({
      title: 'This field is required',
      note: 'This field is required',
      date: 'Date is not valid',
      source: 'This field is required',
      type: 'This field is required',
    });
  });

  it('says an empty note is required when a form posts it (Conform turns empty fields into undefined)', () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...base, note: '' })) form.set(k, v);
    const submission = parseWithZod(form, { schema: noteSchema });
    if (submission.status !== 'error') throw new Error(`expected an error, got ${submission.status}`);
    expect(submission.error).toEqual({ note: ['validation.required'] });
  });

  it('keeps the line breaks of the note', () => {
    expect(noteSchema.parse(base).note).toBe('Asked about\ninvoices.');
  });

  it('needs who requested a communication note and the kind of requester', () => {
    const errors = messages(noteSchema.safeParse({ ...base, type: 'communication' }));
    expect(errors).toEqual({
      requested_by: 'This field is required',
      requester_type: 'This field is required',
    });
    expect(
      noteSchema.safeParse({
        ...base,
        type: 'communication',
        requested_by: 'Susan School',
        requester_type: 'school',
      }).success,
    ).toBe(true);
  });

  it('needs a link to the message for a communication note from the message centre', () => {
    const conversation = {
      ...base,
      type: 'communication',
      source: 'message_centre',
      requested_by: 'Susan School',
      requester_type: 'school',
    };
    expect(messages(noteSchema.safeParse(conversation))).toEqual({
      message_link: 'Link to message is required',
    });
    expect(noteSchema.safeParse({ ...conversation, message_link: '/message-centre/abc123' }).success).toBe(
      true,
    );
    expect(
      noteSchema.safeParse({ ...conversation, message_link: 'https://portal.test/message-centre/1' }).success,
    ).toBe(true);
    expect(messages(noteSchema.safeParse({ ...conversation, message_link: 'javascript:alert(1)' }))).toEqual({
      message_link: 'This value must be a valid URL',
    });
    // An admin note from the message centre is not a conversation note: no link needed.
    expect(noteSchema.safeParse({ ...base, source: 'message_centre' }).success).toBe(true);
  });
});

describe('notes of an owner', () => {
  let ctx: ActorCtx;
  let owner: NoteOwner;
  let otherOwner: NoteOwner;
  beforeAll(async () => {
    await seedUk();
    ctx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const [client] = await db().select().from(clients).limit(1);
    owner = { type: 'client', id: client.id, company_id: client.company_id, client_id: client.id };
    otherOwner = { type: 'campus', id: client.id };
  }, SETUP_TIMEOUT_MS);

  it('adds a note with its file in R2 and its activity-log row, and downloads the file', async () => {
    const file = fileOf(pdfBytes('minutes'), 'Meeting minutes.pdf', 'application/pdf');
    const { id } = await addNote(ctx, owner, noteSchema.parse({ ...base, title: 'With file' }), file);
    const [row] = await db().select().from(notes).where(eq(notes.id, id));
    expect(row).toMatchObject({
      owner_type: 'client',
      owner_id: owner.id,
      file_name: 'Meeting minutes.pdf',
      content_type: 'application/pdf',
    });
    expect(row.file_key).toMatch(new RegExp(`^notes/client/${owner.id}/`));
    expect(await testEnv().FILES.get(row.file_key!)).not.toBeNull();

    const response = await noteFileResponse(ctx, owner, id);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('Meeting minutes.pdf');
    expect(new TextDecoder().decode(await response.arrayBuffer())).toContain('minutes');

    const logs = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'client'),
          eq(activityLogs.entity_id, owner.id),
          eq(activityLogs.action, 'note_added'),
        ),
      );
    expect(logs.at(-1)?.after).toMatchObject({ note_title: 'With file', note_file: 'Meeting minutes.pdf' });
    expect(logs.at(-1)?.actor_user_id).toBe(ctx.actor.user_id);
  });

  it('refuses a file over 10 MB or of a kind it does not take, and writes nothing', async () => {
    const count = async () => (await db().select().from(notes).where(eq(notes.owner_id, owner.id))).length;
    const before = await count();
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.pdf');
    const tooBig = await failure(addNote(ctx, owner, noteSchema.parse(base), big));
    expect(tooBig.errors).toEqual([{ key: 'file', message: 'validation.file_too_large|{"size":10}' }]);
    expect(formatMessage(tooBig.errors[0].message)).toBe('File cannot be larger than 10MB');
    const exe = await failure(addNote(ctx, owner, noteSchema.parse(base), fileOf(exeBytes(), 'setup.pdf')));
    expect(exe.errors[0].key).toBe('file');
    expect(await count()).toBe(before);
  });

  it('lists only the owner notes, newest date first, optionally of one type', async () => {
    await addNote(ctx, owner, noteSchema.parse({ ...base, title: 'Old', date: '2025-01-01' }));
    await addNote(
      ctx,
      owner,
      noteSchema.parse({
        ...base,
        title: 'Talked',
        type: 'communication',
        requested_by: 'Ann',
        requester_type: 'school',
        date: '2026-05-01',
      }),
    );
    await addNote(ctx, otherOwner, noteSchema.parse({ ...base, title: 'Campus note' }));
    const all = await listNotes(db(), owner);
    expect(all.items.map((n) => n.title)).not.toContain('Campus note');
    expect(all.items[0].title).toBe('Talked');
    expect(all.items.at(-1)?.title).toBe('Old');
    expect(all.items[0].created_by).toBe('Sarah Senior');
    const communication = await listNotes(db(), owner, { type: 'communication' });
    expect(communication.items.map((n) => n.title)).toEqual(['Talked']);
    expect(communication.meta.total).toBe(1);
  });

  it("answers not found for another owner's note file or a note without a file", async () => {
    const { id } = await addNote(ctx, owner, noteSchema.parse(base), fileOf(pdfBytes(), 'a.pdf'));
    await expect(noteFileResponse(ctx, otherOwner, id)).rejects.toBeInstanceOf(NotFound);
    const plain = await addNote(ctx, owner, noteSchema.parse(base));
    await expect(noteFileResponse(ctx, owner, plain.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('shows the logs tab with who acted and each changed field', async () => {
    const feed = await activityFeed(db(), 'client', owner.id);
    const row = feed.items.find((r) => r.action === 'note_added');
    expect(row?.actor).toBe('Sarah Senior');
    expect(row?.changes.find((c) => c.field === 'note_title')).toMatchObject({ before: null });
    expect(feed.meta.total).toBeGreaterThanOrEqual(feed.items.length);
  });
});
