/**
 * A new message is told to the other side: a notification, and an email through the outbox with a link
 * to the thread. Who gets them: on the school side, every school user who may read the thread; on the
 * staff side, the staff who already wrote in it, or, before any did, every staff member of the company
 * who may read it. A user who turned message emails off (account details) gets the notification only.
 * The email carries the text as plain text.
 */
import { and, eq } from 'drizzle-orm';
import { conversationMessages } from '../../../drizzle/schema';
import type { Env } from '../../env';
import type { DB, Statement } from '../../platform/db';
import { loadLanguages, translate } from '../../platform/i18n';
import { threadReaders } from '../access/thread-readers';
import { notify } from '../notifications/service';
import { queueMessage } from '../outbox/service';

export const MESSAGE_EMAIL_TEMPLATE = 'conversation_message';
const EXCERPT = 1000;

export interface ThreadForEmail {
  id: number;
  public_id: string;
  subject: string;
  company_id: number;
  client_id: number;
  campus_id: number | null;
}

export function threadLink(env: Pick<Env, 'PUBLIC_URL'>, lang: string, publicId: string): string {
  const prefix = lang === 'en' ? '' : `/${lang}`;
  return `${env.PUBLIC_URL}${prefix}/message-centre/${publicId}`;
}

/** The notifications and outbox rows for one new message, to commit in the same batch as the message. */
export async function messageAlerts(
  db: DB,
  env: Env,
  now: Date,
  thread: ThreadForEmail,
  message: { author_side: 'company' | 'school'; author_id: number; author_name: string; body: string },
): Promise<Statement[]> {
  const to = message.author_side === 'company' ? 'school' : 'company';
  let only: number[] | undefined;
  if (to === 'company') {
    const staff = await db
      .selectDistinct({ id: conversationMessages.author_id })
      .from(conversationMessages)
      .where(
        and(
          eq(conversationMessages.conversation_id, thread.id),
          eq(conversationMessages.author_side, 'company'),
        ),
      );
    if (staff.length) only = staff.map((s) => s.id);
  }
  const everyone = (await threadReaders(db, thread, to, only)).filter((r) => r.id !== message.author_id);
  const notifications = notify(
    { db, now },
    {
      user_ids: everyone.map((r) => r.id),
      key: 'message_received',
      params: { author: message.author_name, subject: thread.subject },
      to: `/message-centre/${thread.public_id}`,
      client_id: thread.client_id,
      campus_id: thread.campus_id,
    },
  );
  const readers = everyone.filter((r) => r.message_emails);
  if (!readers.length) return notifications;
  await loadLanguages(readers.map((r) => r.preferred_lang));
  const excerpt = message.body.length > EXCERPT ? `${message.body.slice(0, EXCERPT)}…` : message.body;
  const emails = readers.map((r) => {
    const t = (k: string, p?: Record<string, string | number>) =>
      translate(r.preferred_lang, `conversations.email.${k}`, p);
    const body = [
      t('greeting', { name: r.first_name }),
      '',
      t('intro', { author: message.author_name, subject: thread.subject }),
      '',
      excerpt,
      '',
      t('open', { link: threadLink(env, r.preferred_lang, thread.public_id) }),
      '',
      t('setting', { product: env.PRODUCT_NAME }),
    ].join('\n');
    return queueMessage(db, now, {
      channel: 'email',
      recipient: r.email,
      template: MESSAGE_EMAIL_TEMPLATE,
      subject: t('subject', { product: env.PRODUCT_NAME, subject: thread.subject }),
      body_text: body,
    });
  });
  return [...notifications, ...emails];
}
