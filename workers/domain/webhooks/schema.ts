/** Inputs of the webhooks area (pure). */
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../../../drizzle/schema/partners-enums';
import { msg, optional, requiredText, url } from '../validation';

const eventList = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(z.enum(WEBHOOK_EVENTS, { errorMap: () => ({ message: msg('webhooks.errors.event_unknown') }) }))
    .min(1, msg('webhooks.errors.no_events')),
);

export const webhookEndpointSchema = z.object({
  url: requiredText(2048).pipe(url),
  description: optional(requiredText(200)),
  events: eventList,
  /** The company it belongs to (company users with several companies in view). */
  company_id: optional(z.string().max(40)),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;
