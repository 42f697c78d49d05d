import { type LoaderFunctionArgs, type MetaFunction, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { listNotifications, markNotificationsRead } from '@server/domain/notifications/service';
import { emptySchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { AppForm } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { NotificationItem } from '~/components/notifications/notification-item';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/** All the user's notifications; shown to every signed-in user. */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    async load({ ctx, request, context, lang }) {
      const { items, unread } = await listNotifications(ctx, { lang, limit: 200 });
      return { items, unread, title: pageTitle(context, request, 'notifications.title') };
    },
  })(args);

/** Marks every notification read (any signed-in user, for their own). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: emptySchema,
    permission: null,
    async handle(_input, { ctx }) {
      await markNotificationsRead(ctx);
      return { toast: 'notifications.marked' };
    },
  })(args);

export default function Notifications() {
  const { t } = useTranslation();
  const { items, unread } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('notifications.title')}
        description={t('notifications.intro')}
        actions={
          unread > 0 ? (
            <AppForm method="post">
              <Button type="submit" variant="secondary">
                {t('notifications.mark_all_read')}
              </Button>
            </AppForm>
          ) : null
        }
      />
      <Card flush>
        <ul className="divide-y divide-slate-100">
          {items.length ? (
            items.map((n) => <NotificationItem key={n.id} notification={n} />)
          ) : (
            <li className="p-8 text-center text-sm text-slate-500">{t('notifications.empty')}</li>
          )}
        </ul>
      </Card>
    </div>
  );
}
