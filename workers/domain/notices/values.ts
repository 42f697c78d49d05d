/**
 * Value lists of notices (zod-free, so pages import them). The audience dimensions are the client's and
 * the user's own fields (docs/decisions/notices.md, "Notice audience"):
 * - user types: the school user's type on the users screens (admin or employee);
 * - billing types: the client's payment terms;
 * - markets: the client's type (school, agency, guardianship, other).
 */
import { CLIENT_TYPES, PAYMENT_TERMS, RECORD_STATUSES, USER_MEMBER_TYPES } from '../../../drizzle/enums';

export const NOTICE_STATUSES = RECORD_STATUSES;
export const NOTICE_USER_TYPES = USER_MEMBER_TYPES;
export const NOTICE_BILLING_TYPES = PAYMENT_TERMS;
export const NOTICE_MARKETS = CLIENT_TYPES;

/** The audience dimensions, in the editor's order. */
export const NOTICE_AUDIENCE_KEYS = [
  'clients',
  'campuses',
  'products',
  'user_types',
  'countries',
  'billing_types',
  'markets',
] as const;
export type NoticeAudienceKey = (typeof NOTICE_AUDIENCE_KEYS)[number];

export const NOTICE_TITLE_MAX = 150;
export const NOTICE_MESSAGE_MAX = 5000;
/** At most this many values in one audience dimension (a client list of a large insurer). */
export const NOTICE_AUDIENCE_MAX = 10_000;
