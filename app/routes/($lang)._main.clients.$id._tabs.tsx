/**
 * /clients/{id}: the client page's header, status actions and tab bar around the open tab. Each tab is
 * a nested route with its own loader and action (clients.$id._tabs._index = profile, .contacts,
 * .billing, .addresses, .users, .campuses, .service-agreements, .logs, .notes and the money tabs).
 * The layout is pathless (`_tabs`) so the campus and service-agreement pages under /clients/{id}/...
 * stay pages of their own.
 */
import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Outlet, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientActionSchema, idSchema } from '~/lib/schemas.server';
import { getClient } from '@server/domain/clients/service';
import { applyClientAction } from '@server/domain/clients/status';
import { CLIENT_DETAIL_TABS, clientActionsFor, clientTabsFor } from '@server/domain/clients/tabs';
import { can } from '@server/domain/access/actor';
import { translate } from '@server/platform/i18n';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { redirectTabParam, tabSegment } from '~/lib/tabs.server';
import { formatDate } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { RouteTabs } from '~/components/ui/tabs';
import { ClientStatusBadge } from '~/components/clients/client-bits';
import { ConfirmButton } from '~/components/ui/confirm';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, context, params, lang }) {
      const id = params.id;
      redirectTabParam(request, `/clients/${id}`, CLIENT_DETAIL_TABS, 'profile');
      const client = await getClient(ctx, id);
      return json({
        client,
        tabs: clientTabsFor(ctx.actor).map((tab) => ({
          key: tab,
          segment: tab === 'profile' ? '' : tabSegment(tab),
        })),
        actions: clientActionsFor(ctx.actor, client.status),
        canUpdate: can(ctx.actor, 'update_client'),
        title: translate(lang, 'app.title_template', {
          title: client.name,
          product: context.env.PRODUCT_NAME,
        }),
      });
    },
  })(args);

/** The status actions of the header (archive, reactivate, activate, request onboarding, delete). */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      status: {
        schema: clientActionSchema,
        permission: 'archive_client|update_client|delete_client',
        confirm: {
          question: 'clients.actions.confirm_delete',
          button: 'clients.actions.delete',
          when: (input: { action: string }) => input.action === 'delete',
        },
      },
    },
    async handle(input, { ctx, params, redirect }) {
      switch (input.intent) {
        case 'status':
          await applyClientAction(ctx, params.id, input.action);
          if (input.action === 'delete') return redirect('/clients', 'clients.actions.done.delete');
          return { toast: `clients.actions.done.${input.action}` };
        default:
          return unreachable(input.intent);
      }
    },
  })(args);

export default function ClientLayout() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { client, tabs, actions } = useLoaderData<typeof loader>();
  const answer = answerOf(useActionData<typeof action>());
  const busy = useNavigation().state === 'submitting';
  const base = localePath(i18n.language, `/clients/${client.id}`);
  const failed = answer && !answer.ok ? answer.error : null;
  return (
    <div>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {client.logo ? (
              <img
                src={`${base}/files/logo`}
                alt=""
                className="h-10 w-10 rounded-lg object-contain ring-1 ring-slate-200"
              />
            ) : null}
            {client.name}
            <ClientStatusBadge status={client.status} />
          </span>
        }
        description={`${t(`clients.types.${client.type}`)} · ${client.company.name}${
          client.account_manager
            ? ` · ${t('clients.fields.account_manager')}: ${client.account_manager.name}`
            : ''
        }`}
        actions={
          <ButtonLink to={localePath(i18n.language, '/clients')} variant="secondary">
            {t('clients.back_to_list')}
          </ButtonLink>
        }
      />
      {actions.length ? (
        <div className="mb-4 flex flex-wrap gap-2">
          {actions.map((a) => (
            <AppForm key={a} method="post" action={base}>
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="action" value={a} />
              {a === 'delete' ? (
                <ConfirmButton
                  className={buttonClass('danger', 'py-2')}
                  disabled={busy}
                  question={t('clients.actions.confirm_delete')}
                >
                  {t(`clients.actions.${a}`)}
                </ConfirmButton>
              ) : (
                <Button type="submit" variant="secondary" disabled={busy} className="py-2">
                  {t(`clients.actions.${a}`)}
                </Button>
              )}
            </AppForm>
          ))}
        </div>
      ) : null}
      {failed ? (
        <div className="mb-4">
          <Alert>{m(failed)}</Alert>
        </div>
      ) : null}
      <RouteTabs
        label={client.name}
        tabs={tabs.map((tab) => ({
          key: tab.key,
          label: t(`clients.detail_tabs.${tab.key}`),
          to: tab.segment ? `${base}/${tab.segment}` : base,
          index: !tab.segment,
        }))}
      />
      <Outlet />
      <p className="mt-8 text-xs text-slate-600">
        {t('clients.fields.updated_at')}: {formatDate(client.updated_at)}
      </p>
    </div>
  );
}
