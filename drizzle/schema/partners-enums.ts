/** Value lists of the partner tables (API keys, webhooks); pure, so pages and zod schemas may import them. */

/** The events a webhook endpoint may subscribe to. */
export const WEBHOOK_EVENTS = [
  'policy.issued',
  'policy.updated',
  'policy.cancelled',
  'invoice.issued',
  'invoice.paid',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
