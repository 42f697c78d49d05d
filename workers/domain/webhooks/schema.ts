/** Inputs of the webhooks area (pure). */
import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../../../drizzle/schema/partners-enums';
import { msg, optional, requiredText, url } from '../validation';
import { itemsParam, pageParam } from '../list-query';

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

/** The delivery log's query (the API's, and the /api-keys page's under its own `log_*` names). */
export const deliveryQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(25, 100),
  endpoint_id: z.string().max(40).optional(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional().catch(undefined),
});
export type DeliveryQuery = z.infer<typeof deliveryQuerySchema>;
