/**
 * What a user's page and the users lists both show of a person (the same fields under the same names),
 * and the one rule for an invitation's state, read from a row or in SQL.
 */
import { sql } from 'drizzle-orm';
import { users } from '../../../drizzle/schema';
import type { UserRow } from '../access/finders';
import type { InvitationStateName } from './values';

export interface UserFields {
  id: string;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  phone_country: string | null;
  phone_number: string | null;
  member_type: 'admin' | 'employee' | null;
  job_title: string | null;
  department: string | null;
  is_master_user: boolean;
  status: UserRow['status'];
  suspended: boolean;
  can_access_all_campuses: boolean;
  last_login_at: Date | null;
}

/** "First Last", as SQL (a list sorts and searches by it). */
export const fullNameSql = sql<string>`trim(${users.first_name} || ' ' || ${users.last_name})`;

/** The fields as a list selects them. */
export const userFieldColumns = {
  id: users.public_id,
  first_name: users.first_name,
  last_name: users.last_name,
  full_name: fullNameSql.as('full_name'),
  email: users.email,
  phone_country: users.phone_country,
  phone_number: users.phone_number,
  member_type: users.member_type,
  job_title: users.job_title,
  department: users.department,
  is_master_user: users.is_master_user,
  status: users.status,
  suspended: users.suspended,
  can_access_all_campuses: users.can_access_all_campuses,
  last_login_at: users.last_login_at,
};

/** The fields of a user's row. */
export function userFieldsOf(user: UserRow): UserFields {
  return {
    id: user.public_id,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: `${user.first_name} ${user.last_name}`.trim(),
    email: user.email,
    phone_country: user.phone_country,
    phone_number: user.phone_number,
    member_type: user.member_type,
    job_title: user.job_title,
    department: user.department,
    is_master_user: user.is_master_user,
    status: user.status,
    suspended: user.suspended,
    can_access_all_campuses: user.can_access_all_campuses,
    last_login_at: user.last_login_at,
  };
}

/** An invitation's state: accepted, revoked, expired (7 days after it was sent) or pending. */
export function invitationStateOf(
  inv: { accepted_at: Date | null; revoked_at: Date | null; expires_at: Date },
  now: Date,
): InvitationStateName {
  if (inv.accepted_at) return 'accepted';
  if (inv.revoked_at) return 'revoked';
  if (inv.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

/** The same state of the user's newest invitation, as a list selects it (null: never invited). */
export function newestInvitationStateSql(now: Date) {
  return sql<InvitationStateName | null>`(select case
        when i.accepted_at is not null then 'accepted'
        when i.revoked_at is not null then 'revoked'
        when i.expires_at <= ${now.getTime()} then 'expired'
        else 'pending' end
      from invitations i where i.user_id = "users"."id" order by i.id desc limit 1)`;
}
