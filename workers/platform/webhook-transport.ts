import type { Env } from '../env';
import { isProduction } from '../env';
import { webhookReceiver } from '../web/webhook-receiver';

/**
 * Sends one webhook attempt. Outside production, an endpoint on the portal's own test receiver
 * (`PUBLIC_URL/dev/webhooks/…`) is answered in-process by that route, so webhooks work with no network
 * (and in tests); every other address goes out with fetch.
 */
export async function sendWebhook(env: Env, url: string, init: RequestInit): Promise<Response> {
  const local = `${env.PUBLIC_URL}/dev/webhooks/`;
  if (!isProduction(env) && url.startsWith(local)) {
    return webhookReceiver.request(`/${url.slice(local.length)}`, init, env);
  }
  return fetch(url, init);
}
