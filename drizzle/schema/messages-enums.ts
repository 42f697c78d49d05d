/** Value lists of the message centre; pure, so pages and zod schemas may import them. */

/** Where a conversation stands (spec 001 s.4): reopened by a reply once resolved. */
export const CONVERSATION_STATUSES = ['open', 'waiting_on_client', 'resolved'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** The two sides of every conversation: the insurer's staff and the school. */
export const CONVERSATION_SIDES = ['company', 'school'] as const;
export type ConversationSide = (typeof CONVERSATION_SIDES)[number];
