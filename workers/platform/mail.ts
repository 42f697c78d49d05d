import type { Env } from '../env';
import { isProduction } from '../env';

export interface MailMessage {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
}

/**
 * The mail and SMS adapter. With MAIL_API_URL set, messages are posted as JSON to that HTTP provider
 * (bearer MAIL_API_KEY). Without it, outside production, delivery only records the message: the outbox row
 * is the record and the development mailbox (/dev/mailbox) shows it. Production without a provider fails,
 * so messages stay pending rather than vanish.
 */
export async function deliver(
  env: Env & { MAIL_API_URL?: string; MAIL_API_KEY?: string },
  message: MailMessage,
) {
  if (env.MAIL_API_URL) {
    const res = await fetch(env.MAIL_API_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.MAIL_API_KEY ?? ''}` },
      body: JSON.stringify({
        channel: message.channel,
        to: message.recipient,
        subject: message.subject,
        text: message.body_text,
        html: message.body_html,
      }),
    });
    if (!res.ok) throw new Error(`Mail provider answered ${res.status}`);
    return;
  }
  if (isProduction(env)) throw new Error('No mail provider is configured (MAIL_API_URL).');
}
