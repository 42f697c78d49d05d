/**
 * The /api-keys page's tabs (nested routes): the keys (the page's own address), the webhook endpoints
 * and the delivery log. Whoever may open the page (MANAGE_PARTNER_ACCESS) may open every tab. Pure.
 */
export const API_KEY_TABS = ['keys', 'webhooks', 'deliveries'] as const;
export type ApiKeyTab = (typeof API_KEY_TABS)[number];

/**
 * The delivery log was the page's second list, with its parameters under `log_*` names
 * (`/api-keys?log_status=failed&log_page=2`): such an address belongs to the deliveries tab now, under
 * the list's own names (`/api-keys/deliveries?status=failed&page=2`). Null for any other address.
 */
export function oldLogAddress(search: URLSearchParams): URLSearchParams | null {
  if (!search.has('log_status') && !search.has('log_page')) return null;
  const next = new URLSearchParams();
  for (const [name, value] of search) {
    if (name === 'log_status') next.set('status', value);
    else if (name === 'log_page') next.set('page', value);
  }
  return next;
}
