/**
 * Many conversations at once, for the message centre's benchmark (scripts/bench/messages.mjs):
 * `conversations` threads of a company with `perThread` messages each, over every client of the company
 * and their campuses (a third client-wide), generated inside SQLite (recursive CTEs, 1,000 threads per
 * statement), with the spread of a real inbox: the three statuses, a year of dates, both sides writing,
 * subjects and texts from a list (so a search finds some and not all), and each given reader's own
 * state: most threads read, some flagged, some archived.
 */
import { eq, sql } from 'drizzle-orm';
import { campuses, clients } from '../schema';
import type { DB } from '../../workers/platform/db';
import { runBatch } from '../../workers/platform/db';

const SUBJECTS = [
  'Cover dates for the spring intake',
  'Refund for a cancelled student',
  'Invoice query',
  'Group trip to Paris: leaders',
  'Certificate needed for a visa',
  'Change of campus',
  'Medical claim question',
  'Extension of stay',
];

const TEXTS = [
  'Could you confirm the cover dates for the student who arrives next week?',
  'The student did not travel; please let us know how the refund will be made.',
  'We think the invoice counts one student twice. Could you check it?',
  'Two teachers lead the group: do they need their own policies?',
  'The embassy asks for a certificate in English with the policy number.',
  'She moves to the north campus from Monday; nothing else changes.',
  'A parent asks whether a dental emergency is covered abroad.',
  'His course has been extended by four weeks; what will the extension cost?',
  'Thank you, that answers our question.',
  'We have updated the dates on our side as well.',
];

export interface MessageVolumeInput {
  companyId: number;
  /** A staff user who writes the company's messages. */
  staffUserId: number;
  /** A school user who writes the school's messages (of the company's first client). */
  schoolUserId: number;
  conversations: number;
  perThread: number;
  /** Users whose own state is seeded: most threads read, 2 % flagged, 20 % archived. */
  readers: number[];
  now?: Date;
}

/** The threads of one chunk, by their public ids (the unique index), whatever ids they were given. */
const chunkOf = (base: number, from: number, to: number) =>
  sql`c.public_id >= ${benchId(base + from)} AND c.public_id < ${benchId(base + to)} AND c.public_id LIKE 'bench%'`;
const benchId = (n: number) => `bench${String(n).padStart(10, '0')}`;

/** SQL picking the list's entry n (modulo its length): the list is a quoted JSON literal. */
const text = (list: string[], n: string) =>
  `json_extract('${JSON.stringify(list).replace(/'/g, "''")}', '$[' || ((${n}) % ${list.length}) || ']')`;

export async function seedMessageVolume(db: DB, input: MessageVolumeInput) {
  const now = (input.now ?? new Date()).getTime();
  const clientRows = await db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.company_id, input.companyId));
  const campusRows = await db
    .select({ id: campuses.id, client_id: campuses.client_id })
    .from(campuses)
    .where(
      sql`${campuses.client_id} in (select value from json_each(${JSON.stringify(clientRows.map((c) => c.id))}))`,
    );
  // Where a thread goes: each campus, and each client as a whole (campus null), in turn.
  const targets: [number, number | null][] = [
    ...campusRows.map((c): [number, number | null] => [c.client_id, c.id]),
    ...clientRows.map((c): [number, number | null] => [c.id, null]),
  ];
  if (!targets.length) throw new Error('The company has no clients to write to');
  const [{ base }] = await db.all<{ base: number }>(
    sql`SELECT coalesce(max(id), 0) AS base FROM conversations`,
  );
  const yearMs = 365 * 86_400_000;
  const CHUNK = 1000;
  for (let from = 0; from < input.conversations; from += CHUNK) {
    const to = Math.min(input.conversations, from + CHUNK);
    const targetsJson = JSON.stringify(targets);
    const places = sql.raw(String(targets.length));
    // Integers written into the statement (numbers bound by D1 are reals, and a JSON path needs an
    // integer). n runs from..to-1; thread n's last message is (n / total) of a year ago, newest last.
    const at = sql.raw(
      `(${now} - ((${input.conversations} - n) * ${Math.floor(yearMs / input.conversations)}))`,
    );
    const statements = [
      db.run(sql`WITH RECURSIVE seq(n) AS (SELECT ${sql.raw(String(from))} UNION ALL SELECT n + 1 FROM seq
          WHERE n + 1 < ${sql.raw(String(to))})
        INSERT INTO conversations (public_id, company_id, client_id, campus_id, subject, status, started_by,
          started_by_side, message_count, last_message_preview, last_message_at, last_company_message_at,
          last_school_message_at, created_at, updated_at)
        SELECT 'bench' || printf('%010d', ${base} + n), ${input.companyId},
          json_extract(${targetsJson}, '$[' || (n % ${places}) || '][0]'),
          json_extract(${targetsJson}, '$[' || (n % ${places}) || '][1]'),
          ${sql.raw(text(SUBJECTS, 'n'))} || ' #' || n,
          CASE n % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'waiting_on_client' ELSE 'resolved' END,
          CASE n % 2 WHEN 0 THEN ${input.staffUserId} ELSE ${input.schoolUserId} END,
          CASE n % 2 WHEN 0 THEN 'company' ELSE 'school' END,
          ${input.perThread}, substr(${sql.raw(text(TEXTS, 'n + 1'))}, 1, 140),
          ${at}, ${at} - 3600000, ${at},
          ${at} - ${input.perThread} * 3600000, ${at}
        FROM seq`),
      db.run(sql`WITH RECURSIVE k(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM k
          WHERE m + 1 < ${sql.raw(String(Math.trunc(input.perThread)))})
        INSERT INTO conversation_messages (public_id, conversation_id, author_id, author_side, body, created_at)
        SELECT c.public_id || '-' || k.m, c.id,
          CASE k.m % 2 WHEN 0 THEN ${input.staffUserId} ELSE ${input.schoolUserId} END,
          CASE k.m % 2 WHEN 0 THEN 'company' ELSE 'school' END,
          ${sql.raw(text(TEXTS, 'c.id + k.m'))},
          c.last_message_at - (${input.perThread} - 1 - k.m) * 3600000
        FROM conversations c CROSS JOIN k
        WHERE ${chunkOf(base, from, to)}`),
      ...input.readers.map((userId) =>
        db.run(sql`INSERT INTO conversation_states (user_id, conversation_id, read_at, marked_unread, flagged,
            archived_at, created_at, updated_at)
          SELECT ${userId}, c.id,
            CASE WHEN c.id % 10 < 8 THEN c.last_message_at END,
            0, CASE WHEN c.id % 50 = 0 THEN 1 ELSE 0 END,
            CASE WHEN c.id % 5 = 1 THEN c.last_message_at END,
            c.created_at, c.updated_at
          FROM conversations c
          WHERE ${chunkOf(base, from, to)}`),
      ),
    ];
    await runBatch(db, statements);
  }
  return {
    conversations: input.conversations,
    messages: input.conversations * input.perThread,
    clients: clientRows.length,
    campuses: campusRows.length,
  };
}
