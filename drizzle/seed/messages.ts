import { and, desc, eq, inArray } from 'drizzle-orm';
import { campuses, clients, invoices, policyBatches, users } from '../schema';
import type { DB } from '../../workers/platform/db';
import type { Env } from '../../workers/env';
import { simplePdf } from './client-documents';

/**
 * The message centre's demo: conversations in every state between the demo insurer and both schools
 * (Oakwood, one of them for its North campus, and Kingsbridge), some tied to an invoice and a policy
 * batch, some with attachments, read and unread on each side, flagged and archived. Written through the
 * domain, so the files are in R2 and the emails in the development mailbox. Only when serving.
 */
export async function seedDemoMessages(
  db: DB,
  env: Env,
  input: { companyId: number; emails: { staff: string; school: string; campus: string } },
) {
  const [{ loadActor }, service] = await Promise.all([
    import('../../workers/domain/access/actor'),
    import('../../workers/domain/conversations/service'),
  ]);
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, Object.values(input.emails)));
  const idOf = (email: string) => people.find((p) => p.email === email)!.id;
  // Written as the seed runs, a second apart: a thread counts as unread for a reader only when written
  // after the reader's account was made.
  const start = Date.now();
  let step = 0;
  /** Each act a second after the one before, so the threads have an order. */
  const as = async (email: string) => {
    const actor = await loadActor(db, idOf(email), { selectedCompanyId: input.companyId });
    if (!actor) throw new Error(`${email} cannot act in the message demo`);
    step += 1;
    return { db, env, now: new Date(start + step * 1000), actor };
  };
  const pdf = (name: string, lines: string[]) =>
    new File([simplePdf(lines) as BlobPart], name, { type: 'application/pdf' });
  const [oakwood, kingsbridge] = await Promise.all(
    ['Oakwood International School', 'Kingsbridge Language Academy'].map(async (name) => {
      const [row] = await db.select().from(clients).where(eq(clients.name, name)).limit(1);
      return row;
    }),
  );
  const [invoice] = await db
    .select({ public_id: invoices.public_id })
    .from(invoices)
    .where(eq(invoices.client_id, oakwood.id))
    .orderBy(desc(invoices.id))
    .limit(1);
  const [batch] = await db
    .select({ public_id: policyBatches.public_id, campus_id: policyBatches.campus_id })
    .from(policyBatches)
    .where(and(eq(policyBatches.client_id, oakwood.id), eq(policyBatches.status, 'confirmed')))
    .limit(1);
  const none = { attachments: [] as Blob[] };
  const { staff, school, campus } = input.emails;

  // A school question about an invoice, with a scan; staff answered; open, read by both.
  const invoiceQuestion = await service.startConversation(await as(school), {
    ...none,
    subject: 'Question about our latest invoice',
    message: 'Hello,\nCould you explain the levy line on this invoice? The scan of our copy is attached.',
    invoice_id: invoice?.public_id,
    attachments: [pdf('Invoice scan.pdf', ['Oakwood International School', 'Invoice copy with notes'])],
  });
  await service.addMessage(await as(staff), invoiceQuestion.id, {
    ...none,
    message:
      'Hello Susan,\nThe levy is the Irish insurance levy on the Dublin trip. The breakdown is attached.',
    attachments: [pdf('Levy breakdown.pdf', ['Levy breakdown', 'Irish insurance levy 3 %'])],
  });
  await service.setOwnState(await as(school), invoiceQuestion.id, { read: true });

  // Staff ask about a batch's dates: waiting on the client, unread at the school.
  if (batch) {
    const dates = await service.startConversation(await as(staff), {
      ...none,
      subject: 'Trip dates of your last order',
      message: 'Could you confirm the return date of the group? Two students seem to come back a day later.',
      client_id: oakwood.public_id,
      policy_batch_id: batch.public_id,
    });
    await service.setStatus(await as(staff), dates.id, 'waiting_on_client');
  }

  // A campus employee's question with an attachment, not yet read by staff.
  const campusActor = await as(campus);
  const [north] = await db
    .select({ public_id: campuses.public_id })
    .from(campuses)
    .where(and(eq(campuses.client_id, oakwood.id), eq(campuses.name, 'Oakwood North Campus')))
    .limit(1);
  await service.startConversation(campusActor, {
    ...none,
    subject: 'Insurance card for a new student',
    message:
      'A student joined this week. Her insurance card is not in the list yet; the enrolment form is attached.',
    campus_id: north.public_id,
    attachments: [pdf('Enrolment form.pdf', ['Enrolment form', 'North campus'])],
  });

  // Resolved: a product announcement to Kingsbridge, answered.
  if (kingsbridge) {
    const product = await service.startConversation(await as(staff), {
      ...none,
      subject: 'New cover for short language courses',
      message: 'From next month a two-week cover is available for short courses. Ask us for the price list.',
      client_id: kingsbridge.public_id,
    });
    await service.setStatus(await as(staff), product.id, 'resolved');
  }

  // Flagged by staff, archived by the school.
  const renewal = await service.startConversation(await as(staff), {
    ...none,
    subject: 'Renewal of your service agreement',
    message: 'Your service agreement renews in two months. Nothing to do unless you want to change it.',
    client_id: oakwood.public_id,
  });
  await service.setOwnState(await as(staff), renewal.id, { flagged: true });
  await service.setOwnState(await as(school), renewal.id, { read: true, archived: true });
}
