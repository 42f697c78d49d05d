/**
 * Who, on one side of a client's business, may see something of it: the users a new message is emailed
 * to, and the users an event is notified to. Staff: the company's users. School: the client's users who
 * see every campus or, for something of one campus, hold that campus. Only active, unsuspended users
 * holding the permission that reads the thing.
 *
 * For a conversation this is the rule of `visibleConversations`, seen from the thread.
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
import type { Permission } from './permissions';

export interface ThreadReader {
  id: number;
  email: string;
  first_name: string;
  preferred_lang: string;
  message_emails: boolean;
}

export interface BusinessScope {
  company_id: number;
  client_id: number;
  /** One campus's thing; null for the client's as a whole (seen only by users of every campus). */
  campus_id: number | null;
}

const holds = (permission: Permission) => sql`exists (select 1 from ${userRoles}
      join ${rolePermissions} on ${rolePermissions.role_id} = ${userRoles.role_id}
      join ${permissions} on ${permissions.id} = ${rolePermissions.permission_id}
      where ${userRoles.user_id} = ${users.id} and ${permissions.name} = ${permission})`;

/** The users of one side who may see a thing of this scope and hold `permission`. */
export async function usersWhoMaySee(
  db: DB,
  scope: BusinessScope,
  side: 'company' | 'school',
  permission: Permission,
  opts: { only?: number[] } = {},
): Promise<ThreadReader[]> {
  const member =
    side === 'company'
      ? and(
          eq(users.user_type, 'company'),
          sql`exists (select 1 from ${userCompanies} where ${userCompanies.user_id} = ${users.id}
              and ${userCompanies.company_id} = ${scope.company_id})`,
        )
      : and(
          eq(users.user_type, 'school'),
          eq(users.client_id, scope.client_id),
          scope.campus_id === null
            ? eq(users.can_access_all_campuses, true)
            : or(
                eq(users.can_access_all_campuses, true),
                sql`exists (select 1 from ${userCampuses} where ${userCampuses.user_id} = ${users.id}
                    and ${userCampuses.campus_id} = ${scope.campus_id})`,
              ),
        );
  return db
    .select({
      id: users.id,
      email: users.email,
      first_name: users.first_name,
      preferred_lang: users.preferred_lang,
      message_emails: users.message_emails,
    })
    .from(users)
    .where(
      and(
        member,
        eq(users.status, 'active'),
        eq(users.suspended, false),
        holds(permission),
        opts.only
          ? sql`${users.id} in (select value from json_each(${JSON.stringify(opts.only)}))`
          : undefined,
      ),
    )
    .limit(500);
}

/** Who on one side may read a conversation. */
export function threadReaders(
  db: DB,
  thread: BusinessScope,
  side: 'company' | 'school',
  only?: number[],
): Promise<ThreadReader[]> {
  return usersWhoMaySee(db, thread, side, 'read_message', { only });
}
