import { Hono } from 'hono';
import type { Env } from '../env';
import { isProduction } from '../env';
import { RECEIVER_PATH, webhookReceiver } from '../web/webhook-receiver';

/** The test receiver at the address the Worker serves it on (workers/http.ts), for in-process calls. */
const localReceiver = new Hono<{ Bindings: Env }>().route(RECEIVER_PATH, webhookReceiver);

/**
 * Sends one webhook attempt. Outside production, an endpoint on the portal's own test receiver
 * (`PUBLIC_URL/dev/webhooks/…`) is answered in-process by that route, so webhooks work with no network
 * (and in tests); every other address goes out with fetch.
 */
export async function sendWebhook(env: Env, url: string, init: RequestInit): Promise<Response> {
  if (!isProduction(env) && url.startsWith(`${env.PUBLIC_URL}${RECEIVER_PATH}/`)) {
    return localReceiver.request(url, init, env);
  }
  return fetch(url, init);
}
