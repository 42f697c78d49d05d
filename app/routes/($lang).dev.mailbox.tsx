import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { Form, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { isProduction } from '@server/env';
import { listMailbox } from '@server/domain/outbox/service';
import { pageTitle } from '~/lib/meta';
import { formatDateTime } from '~/lib/dates';
import { inputClass } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Logo } from '~/components/shell/icons';
import { notFound, pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * The development mailbox: every email and SMS the outbox recorded, newest first, so a person trying the
 * portal locally can read a PIN or an invitation. Absent (404) in production.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    access: 'public',
    permission: null,
    async load({ request, context }) {
      if (isProduction(context.env)) throw notFound();
      const to = new URL(request.url).searchParams.get('to')?.trim() || undefined;
      const messages = await listMailbox(context.db, to, 100);
      return {
        to: to ?? '',
        title: pageTitle(context, request, 'mailbox.title'),
        messages: messages.map((m) => ({
          id: m.id,
          channel: m.channel,
          recipient: m.recipient,
          subject: m.subject,
          body: m.body_text,
          status: m.status,
          created_at: m.created_at.toISOString(),
        })),
      };
    },
  })(args);

export default function Mailbox() {
  const { t } = useTranslation();
  const { messages, to } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-full bg-slate-100">
      <header className="flex items-center gap-3 bg-primary-800 px-4 py-3 text-white sm:px-8">
        <Logo className="h-8 w-8" />
        <h1 className="text-lg font-bold">{t('mailbox.title')}</h1>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-6 sm:px-8">
        <p className="mb-4 text-sm text-slate-600">{t('mailbox.intro')}</p>
        <Form method="get" className="mb-6 flex gap-3">
          <label htmlFor="to" className="sr-only">
            {t('mailbox.recipient')}
          </label>
          <input
            id="to"
            name="to"
            type="search"
            defaultValue={to}
            placeholder={t('mailbox.filter_placeholder')}
            className={inputClass}
          />
          <Button type="submit" variant="secondary">
            {t('mailbox.filter')}
          </Button>
        </Form>
        {messages.length === 0 ? (
          <p className="rounded-xl bg-white p-8 text-center text-slate-500 shadow-sm ring-1 ring-slate-200">
            {t('mailbox.empty')}
          </p>
        ) : (
          <ul className="space-y-4">
            {messages.map((m) => (
              <li
                key={m.id}
                data-testid="mailbox-message"
                data-recipient={m.recipient}
                className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
                  <p>
                    <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold uppercase text-slate-600">
                      {m.channel}
                    </span>
                    <span className="font-semibold">{m.recipient}</span>
                  </p>
                  <time className="text-slate-500" dateTime={m.created_at}>
                    {formatDateTime(m.created_at)} · {t(`mailbox.status_${m.status}`)}
                  </time>
                </div>
                {m.subject ? <p className="mt-2 font-semibold text-slate-900">{m.subject}</p> : null}
                <pre className="mt-2 whitespace-pre-wrap break-words font-sans text-sm text-slate-700">
                  {m.body}
                </pre>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
