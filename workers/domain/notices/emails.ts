/**
 * Notice emails through the outbox: on publishing with "send email" (to recipients not emailed yet) and
 * on a reminder (to every recipient who has not acknowledged). Each user reads it in their own
 * language; the rows are written per language by INSERT ... SELECT, so 5,000 recipients are a handful
 * of statements, committed together with the recipients' emailed/reminded marks.
 */
import { sql } from 'drizzle-orm';
import { LANGUAGES } from '../../../drizzle/enums';
import type { notices } from '../../../drizzle/schema';
import { runBatch, type Statement } from '../../platform/db';
import { loadLanguages, translate } from '../../platform/i18n';
import type { ActorCtx } from '../context';
import { flushOutbox } from '../outbox/service';

export const NOTICE_EMAIL_TEMPLATE = 'notice';

type NoticeRow = typeof notices.$inferSelect;

export async function queueNoticeEmails(
  ctx: ActorCtx,
  notice: NoticeRow,
  kind: 'new' | 'reminder',
  /** What the sending records (its activity-log entry), written in the same batch; given the count. */
  alongside: (count: number) => Statement[] = () => [],
): Promise<number> {
  const who = sql`r.notice_id = ${notice.id} AND r.acknowledged_at IS NULL
    ${kind === 'new' ? sql`AND r.emailed_at IS NULL` : sql``}`;
  const [{ n }] = await ctx.db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM notice_recipients r WHERE ${who}`,
  );
  if (!Number(n)) return 0;
  await loadLanguages(LANGUAGES);
  const now = ctx.now.getTime();
  const link = `${ctx.env.PUBLIC_URL.replace(/\/$/, '')}/notices`;
  const statements: Statement[] = LANGUAGES.map((lang) => {
    const t = (key: string) =>
      translate(lang, `notices.email.${kind}_${key}`, { title: notice.title, product: ctx.env.PRODUCT_NAME });
    const body = [
      t('intro'),
      '',
      notice.title,
      '',
      notice.message,
      '',
      `${translate(lang, 'notices.email.open')} ${link}`,
    ].join('\n');
    return ctx.db
      .run(sql`INSERT INTO outbox (channel, recipient, subject, body_text, template, status, attempts, created_at)
      SELECT 'email', lower(u.email), ${t('subject')}, ${body}, ${NOTICE_EMAIL_TEMPLATE}, 'pending', 0, ${now}
      FROM notice_recipients r JOIN users u ON u.id = r.user_id
      WHERE ${who} AND ${lang === 'en' ? sql`(u.preferred_lang = 'en' OR u.preferred_lang NOT IN (SELECT value FROM json_each(${JSON.stringify(LANGUAGES)})))` : sql`u.preferred_lang = ${lang}`}`);
  });
  statements.push(
    ctx.db.run(sql`UPDATE notice_recipients AS r SET emailed_at = ${now}
      ${kind === 'reminder' ? sql`, reminded_at = ${now}` : sql``} WHERE ${who}`),
    ...alongside(Number(n)),
  );
  await runBatch(ctx.db, statements);
  try {
    await flushOutbox(ctx.db, ctx.env, ctx.now);
  } catch (e) {
    console.warn('Notice emails are left for the outbox cron: the queue refused them', e);
  }
  return Number(n);
}
