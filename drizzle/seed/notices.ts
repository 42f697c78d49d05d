/**
 * Demo notices (when serving): one to every Oakwood user, acknowledged by the demo school accounts and
 * pending for Oakwood's other users (so staff see it half acknowledged and the demo accounts still sign
 * in to their landing page), and an archived one.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { noticeRecipients, notices, users, type NoticeAudience } from '../schema';
import { publicId } from '../../workers/platform/crypto';
import { runBatch, type DB } from '../../workers/platform/db';
import { syncRecipients } from '../../workers/domain/notices/audience';

const NOBODY: NoticeAudience = {
  clients: [],
  campuses: [],
  products: [],
  user_types: [],
  countries: [],
  billing_types: [],
  markets: [],
};

export async function seedDemoNotices(
  db: DB,
  input: { companyId: number; clientPublicId: string; seniorAdminId: number; acknowledgedBy: string[] },
) {
  const now = Date.now();
  const audience = { ...NOBODY, clients: [input.clientPublicId] };
  const [live, archived] = await db
    .insert(notices)
    .values([
      {
        public_id: publicId(),
        company_id: input.companyId,
        title: 'New prices from 1 September',
        message:
          'Premiums for the academic year change on 1 September. Orders placed before then keep the current prices.\nThe new price list is in My Documents.',
        status: 'active',
        audience,
        created_by: input.seniorAdminId,
        created_at: new Date(now - 3 * 86_400_000),
        updated_at: new Date(now - 3 * 86_400_000),
      },
      {
        public_id: publicId(),
        company_id: input.companyId,
        title: 'Portal maintenance on Sunday',
        message: 'The portal is unavailable on Sunday from 02:00 to 04:00 UTC.',
        status: 'archived',
        audience,
        created_by: input.seniorAdminId,
        created_at: new Date(now - 40 * 86_400_000),
        updated_at: new Date(now - 30 * 86_400_000),
      },
    ])
    .returning();
  await runBatch(db, syncRecipients(db, live.id, input.companyId, audience));
  const acknowledging = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.email, input.acknowledgedBy));
  await db
    .update(noticeRecipients)
    .set({ acknowledged_at: new Date(now - 2 * 86_400_000) })
    .where(
      and(
        eq(noticeRecipients.notice_id, live.id),
        inArray(
          noticeRecipients.user_id,
          acknowledging.map((u) => u.id),
        ),
      ),
    );
  return { live: live.public_id, archived: archived.public_id };
}
