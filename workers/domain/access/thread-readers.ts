/**
 * Who, on one side of a conversation, may read it: the users a new message is emailed to. The same rule
 * as `visibleConversations`, seen from the thread: staff of the thread's company; school users of its
 * client who see every campus or, for a campus thread, hold that campus. Only active users holding
 * read_message, and only those who keep message emails on.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import {
  permissions,
  rolePermissions,
  userCampuses,
  userCompanies,
  userRoles,
  users,
} from '../../../drizzle/schema';
import type { DB } from '../../platform/db';

export interface ThreadReader {
  id: number;
  email: string;
  first_name: string;
  preferred_lang: string;
}

const holdsReadMessage = sql`exists (select 1 from ${userRoles} join ${rolePermissions} on ${rolePermissions.role_id} = ${userRoles.role_id}
      join ${permissions} on ${permissions.id} = ${rolePermissions.permission_id}
      where ${userRoles.user_id} = ${users.id} and ${permissions.name} = 'read_message')`;

export async function threadReaders(
  db: DB,
  thread: { company_id: number; client_id: number; campus_id: number | null },
  side: 'company' | 'school',
  only?: number[],
): Promise<ThreadReader[]> {
  const member =
    side === 'company'
      ? and(
          eq(users.user_type, 'company'),
          sql`exists (select 1 from ${userCompanies} where ${userCompanies.user_id} = ${users.id}
              and ${userCompanies.company_id} = ${thread.company_id})`,
        )
      : and(
          eq(users.user_type, 'school'),
          eq(users.client_id, thread.client_id),
          thread.campus_id === null
            ? eq(users.can_access_all_campuses, true)
            : or(
                eq(users.can_access_all_campuses, true),
                sql`exists (select 1 from ${userCampuses} where ${userCampuses.user_id} = ${users.id}
                    and ${userCampuses.campus_id} = ${thread.campus_id})`,
              ),
        );
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      first_name: users.first_name,
      preferred_lang: users.preferred_lang,
    })
    .from(users)
    .where(
      and(
        member,
        eq(users.status, 'active'),
        eq(users.suspended, false),
        eq(users.message_emails, true),
        holdsReadMessage,
        only ? sql`${users.id} in (select value from json_each(${JSON.stringify(only)}))` : undefined,
      ),
    )
    .limit(500);
  return rows;
}
