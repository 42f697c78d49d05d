/**
 * Value lists of the users screens, pure (no zod, no drizzle) so pages import them without the schema
 * library. The statuses are the users table's; "suspended" is a flag of school users, listed as a state.
 */
import { USER_MEMBER_TYPES, USER_STATUSES } from '../../../drizzle/enums';

export { USER_MEMBER_TYPES, USER_STATUSES };
export type UserStatus = (typeof USER_STATUSES)[number];
export type UserFamily = 'company' | 'school';

/** The status filter of the lists: a status, suspended school users, or everyone ('all'). */
export const USER_LIST_STATUSES = ['active', 'invited', 'pending', 'archived', 'suspended'] as const;

/** What an invitation link says about itself. */
export type InvitationStateName = 'pending' | 'accepted' | 'expired' | 'revoked';
