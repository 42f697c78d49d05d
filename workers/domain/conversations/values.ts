/** The message centre's value lists and limits; zod-free, so pages may import them. */
export { CONVERSATION_STATUSES, type ConversationStatus } from '../../../drizzle/schema/messages-enums';

export const INBOX_FOLDERS = ['inbox', 'flagged', 'archived'] as const;
export type InboxFolder = (typeof INBOX_FOLDERS)[number];

export const SUBJECT_MAX = 150;
export const MESSAGE_MAX = 10_000;
/** At most this many files on one message, each within the upload limit (10 MB). */
export const MAX_ATTACHMENTS = 5;
export const ATTACHMENTS_FIELD = 'attachments';
