/**
 * Notes on clients, campuses and policies (spec 001 s.3 Note, s.5): title, note, date, source, type,
 * requested by, requester type, a file, a link to the message centre. Pure zod.
 *
 * The conversation-note rule: a communication note names who requested it and what kind of requester
 * they are, and one whose source is the message centre links to its message
 * ('Link to message is required').
 */
import { z } from 'zod';
import { NOTE_SOURCES, NOTE_TYPES } from '../../../drizzle/enums';
import { bulkFormFields, itemsParam, pageParam } from '../list-query';
import { isoDate, msg, optional, requiredText } from '../validation';
import { REQUESTER_TYPES } from './values';
export { REQUESTER_TYPES };

export { NOTE_SOURCES, NOTE_TYPES };
export type NoteSource = (typeof NOTE_SOURCES)[number];
export type NoteType = (typeof NOTE_TYPES)[number];
export type RequesterType = (typeof REQUESTER_TYPES)[number];

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(values, { errorMap: () => ({ message: msg('validation.required') }) }),
  );

/** A link to a conversation: a message-centre path of this portal or an http(s) address. */
export const messageLink = z
  .string()
  .max(2048, msg('validation.max', { length: 2048 }))
  .refine((v) => {
    if (/^\/(?:[a-z]{2}\/)?message-centre\/[A-Za-z0-9_-]+\/?$/.test(v)) return true;
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, msg('validation.url'));

export const NOTE_FILE_FIELD = 'file';

export const noteSchema = z
  .object({
    title: requiredText(150),
    // Line breaks are kept in the note itself (no whitespace collapsing).
    note: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : (v ?? '')),
      z
        .string({
          required_error: msg('validation.required'),
          invalid_type_error: msg('validation.required'),
        })
        .min(1, msg('validation.required'))
        .max(5000, msg('validation.max', { length: 5000 })),
    ),
    date: z.preprocess((v) => (typeof v === 'string' ? v.trim() : (v ?? '')), isoDate),
    source: choice(NOTE_SOURCES),
    type: choice(NOTE_TYPES),
    requested_by: optional(z.string().max(150, msg('validation.max', { length: 150 }))),
    requester_type: optional(
      z.enum(REQUESTER_TYPES, { errorMap: () => ({ message: msg('validation.required') }) }),
    ),
    message_link: optional(messageLink),
  })
  .superRefine((d, ctx) => {
    if (d.type !== 'communication') return;
    if (!d.requested_by)
      ctx.addIssue({ code: 'custom', path: ['requested_by'], message: msg('validation.required') });
    if (!d.requester_type)
      ctx.addIssue({ code: 'custom', path: ['requester_type'], message: msg('validation.required') });
    if (d.source === 'message_centre' && !d.message_link)
      ctx.addIssue({
        code: 'custom',
        path: ['message_link'],
        message: msg('validation.message_link_required'),
      });
  });
export type NoteInput = z.infer<typeof noteSchema>;

/** The notes list: an optional type, and paging. */
export const notesQuerySchema = z.object({
  type: z.enum(NOTE_TYPES).optional().catch(undefined),
  page: pageParam,
  items: itemsParam(25, 100),
});
export type NotesQuery = z.infer<typeof notesQuerySchema>;

/**
 * The path of a note's file download (`…/{id}/notes/{noteId}/download` of clients, campuses and policies):
 * the owner's public id and the note's number.
 */
export const noteFileParamsSchema = z.object({
  id: z.string().trim().min(1).max(64),
  noteId: z.coerce
    .number({ invalid_type_error: msg('validation.digits') })
    .int(msg('validation.digits'))
    .positive(msg('validation.digits'))
    .max(Number.MAX_SAFE_INTEGER, msg('validation.digits')),
});

/** One note for the selected rows of a list (repeated `ids`, or all matching the list's filters). */
export const bulkNoteSchema = noteSchema.and(bulkFormFields);
