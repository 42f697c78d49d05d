/**
 * Notes of one owner (a client, campus or policy): list, add (with an optional file in R2), download.
 * One set of functions for every entity. They do not check permissions: the caller (clients, campuses,
 * policies) checks its own permission and that the owner is in the actor's scope first, then passes the
 * owner it found.
 *
 *   const client = await findClient(ctx, id, 'read_client');   // permission + scope
 *   return listNotes(ctx.db, { type: 'client', id: client.id }, query);
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { notes, users } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import {
  checkUpload,
  deleteFile,
  fileKey,
  fileResponse,
  putFile,
  type FileKind,
} from '../../platform/storage';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { paginate, type Page } from '../lists';
import { NOTE_FILE_FIELD, type NoteInput, type NotesQuery, type NoteType } from './schema';

export interface NoteOwner {
  type: 'client' | 'campus' | 'policy';
  id: number;
  /** Written on the activity-log row so company and client logs find it. */
  company_id?: number | null;
  client_id?: number | null;
}

/** Files a note may carry: documents and images, by their content (storage.ts sniffs magic bytes). */
export const NOTE_FILE_KINDS: readonly FileKind[] = [
  'pdf',
  'png',
  'jpg',
  'gif',
  'webp',
  'docx',
  'xlsx',
  'csv',
];

export interface NoteRow {
  id: number;
  title: string;
  note: string;
  date: string;
  source: string;
  type: NoteType;
  requested_by: string | null;
  requester_type: string | null;
  message_link: string | null;
  file_name: string | null;
  has_file: boolean;
  created_by: string | null;
  created_at: string;
}

const ownerIs = (owner: NoteOwner) => and(eq(notes.owner_type, owner.type), eq(notes.owner_id, owner.id));

/** The owner's notes, newest date first, optionally of one type (spec 002: notes with optional type). */
export async function listNotes(
  db: DB,
  owner: NoteOwner,
  query: Partial<NotesQuery> = {},
): Promise<Page<NoteRow>> {
  const where = and(ownerIs(owner), query.type ? eq(notes.type, query.type) : undefined);
  const page = await paginate<{
    n: typeof notes.$inferSelect;
    first_name: string | null;
    last_name: string | null;
  }>(
    db,
    { page: query.page ?? 1, items: query.items ?? 25 },
    {
      rows: (limit, offset) =>
        db
          .select({ n: notes, first_name: users.first_name, last_name: users.last_name })
          .from(notes)
          .leftJoin(users, eq(users.id, notes.created_by))
          .where(where)
          .orderBy(desc(notes.date), desc(notes.id))
          .limit(limit)
          .offset(offset),
      count: db
        .select({ total: sql<number>`count(*)` })
        .from(notes)
        .where(where),
    },
  );
  return {
    meta: page.meta,
    items: page.items.map(({ n, first_name, last_name }) => ({
      id: n.id,
      title: n.title,
      note: n.note,
      date: n.date,
      source: n.source,
      type: n.type,
      requested_by: n.requested_by,
      requester_type: n.requester_type,
      message_link: n.message_link,
      file_name: n.file_name,
      has_file: !!n.file_key,
      created_by: first_name ? `${first_name} ${last_name ?? ''}`.trim() : null,
      created_at: n.created_at.toISOString(),
    })),
  };
}

/**
 * Adds a note to the owner, with its activity-log row in the same batch. A file (a File or Blob from a
 * multipart body; absent or empty means none) is checked (10 MB, type by content) and stored in R2 first;
 * if the database write fails, the stored file is removed again.
 */
export async function addNote(
  ctx: ActorCtx,
  owner: NoteOwner,
  input: NoteInput,
  file?: unknown,
): Promise<{ id: number }> {
  const hasFile = file instanceof Blob && file.size > 0;
  const checked = hasFile
    ? await checkUpload(file, { field: NOTE_FILE_FIELD, allowed: NOTE_FILE_KINDS })
    : null;
  const key = checked ? fileKey(`notes/${owner.type}/${owner.id}`, checked.name) : null;
  if (checked && key) await putFile(ctx.env.FILES, key, checked);
  try {
    const insert = ctx.db
      .insert(notes)
      .values({
        owner_type: owner.type,
        owner_id: owner.id,
        title: input.title,
        note: input.note,
        date: input.date,
        source: input.source,
        type: input.type,
        requested_by: input.requested_by ?? null,
        requester_type: input.requester_type ?? null,
        message_link: input.message_link ?? null,
        file_key: key,
        file_name: checked?.name ?? null,
        content_type: checked?.contentType ?? null,
        created_by: ctx.actor.user_id,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning({ id: notes.id });
    const [[row]] = await ctx.db.batch([
      insert,
      logActivity(ctx, {
        entity_type: owner.type,
        entity_id: owner.id,
        action: 'note_added',
        after: {
          note_title: input.title,
          note_type: input.type,
          note_source: input.source,
          note_file: checked?.name ?? null,
        },
        company_id: owner.company_id ?? null,
        client_id: owner.client_id ?? null,
      }),
    ]);
    return { id: row.id };
  } catch (e) {
    if (key) await deleteFile(ctx.env.FILES, key);
    throw e;
  }
}

/** The note's file as a download. NotFound when the note is not the owner's or has no file. */
export async function noteFileResponse(ctx: ActorCtx, owner: NoteOwner, noteId: number): Promise<Response> {
  const [note] = await ctx.db
    .select({ file_key: notes.file_key, file_name: notes.file_name, content_type: notes.content_type })
    .from(notes)
    .where(and(ownerIs(owner), eq(notes.id, noteId)))
    .limit(1);
  if (!note?.file_key) throw new NotFound();
  const response = await fileResponse(ctx.env.FILES, note.file_key, {
    name: note.file_name ?? 'note-file',
    contentType: note.content_type ?? undefined,
  });
  if (!response) throw new NotFound();
  return response;
}

/** Statements and file keys to remove every note of an owner (when the owner itself is deleted). */
export async function notesOfOwnerForRemoval(db: DB, owner: NoteOwner) {
  const rows = await db.select({ file_key: notes.file_key }).from(notes).where(ownerIs(owner));
  return {
    statement: db.delete(notes).where(ownerIs(owner)),
    fileKeys: rows.map((r) => r.file_key).filter((k): k is string => !!k),
  };
}
