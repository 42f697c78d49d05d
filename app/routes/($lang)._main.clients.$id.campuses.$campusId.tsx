/**
 * /clients/{id}/campuses/{campus_id}: a campus's header (archive, activate, clone, the enrolment
 * template), its summary and the tab bar around the open tab. Each tab is a nested route with its own
 * loader and action (campuses.$campusId._index = details, .contacts, .addresses, .contracts, .users,
 * .notes, .logs).
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, Outlet, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { activateCampus, archiveCampus, cloneCampus } from '@server/domain/campuses/edit';
import { getCampus } from '@server/domain/campuses/service';
import { CAMPUS_TABS, campusTabsFor } from '@server/domain/campuses/tabs';
import { translate } from '@server/platform/i18n';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { redirectTabParam } from '~/lib/tabs.server';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { Alert, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { RouteTabs } from '~/components/ui/tabs';
import { campusBase } from '~/components/campuses/campus-page';
import { emptySchema, idsSchema } from '~/lib/schemas.server';
import { pageLoader, notFound } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('id', 'campusId'),
    async load({ ctx, request, context, params, lang }) {
      const campusId = params.campusId;
      redirectTabParam(request, `/clients/${params.id}/campuses/${campusId}`, CAMPUS_TABS, 'details');
      const campus = await getCampus(ctx, campusId);
      if (campus.client.id !== params.id) throw notFound();
      return json({
        campus,
        tabs: campusTabsFor(ctx.actor),
        can: {
          update: can(ctx.actor, 'update_campus'),
          archive: can(ctx.actor, 'archive_campus'),
          clone: can(ctx.actor, 'create_campus'),
          archiveContract: can(ctx.actor, 'archive_contract'),
          cloneContract: can(ctx.actor, 'create_contract'),
          createAgreement: can(ctx.actor, 'create_service_agreement'),
          companyUser: ctx.actor.user_type === 'company',
        },
        title: translate(lang, 'app.title_template', {
          title: campus.name,
          product: context.env.PRODUCT_NAME,
        }),
      });
    },
  })(args);

/** The header's archive, activate and clone (posted to this layout's address, whichever tab is open). */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idsSchema('id', 'campusId'),
    intents: {
      archive: { schema: emptySchema, permission: 'archive_campus' },
      activate: { schema: emptySchema, permission: 'archive_campus' },
      clone: { schema: emptySchema, permission: 'create_campus' },
    },
    async handle(input, { ctx, params, redirect }) {
      const campusId = params.campusId;
      switch (input.intent) {
        case 'archive':
          await archiveCampus(ctx, campusId);
          return { toast: 'campuses.saved' };
        case 'activate':
          await activateCampus(ctx, campusId);
          return { toast: 'campuses.saved' };
        case 'clone': {
          const copy = await cloneCampus(ctx, campusId);
          return redirect(`/clients/${params.id}/campuses/${copy.id}`, 'campuses.saved');
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function CampusLayout() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { campus, tabs } = useLoaderData<typeof loader>();
  const answer = answerOf(useActionData<typeof action>());
  const to = (path: string) => localePath(i18n.language, path);
  const base = to(campusBase(campus));
  return (
    <div className="mx-auto max-w-6xl">
      <nav className="mb-2 text-sm text-slate-600" aria-label={t('campuses.breadcrumb')}>
        <Link to={to(`/clients/${campus.client.id}/campuses`)} className="hover:underline">
          {campus.client.name}
        </Link>{' '}
        / {t('campuses.title')}
      </nav>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {campus.name}
            {campus.initial ? (
              <span className="text-base font-medium text-slate-500">({campus.initial})</span>
            ) : null}
            <StatusBadge tone={statusTone(campus.status)}>
              {t(`campuses.statuses.${campus.status}`)}
            </StatusBadge>
          </span>
        }
        description={t('campuses.of_client', { client: campus.client.name, company: campus.company.name })}
        actions={<HeaderActions />}
      />
      {answer && !answer.ok && answer.error ? (
        <div className="mb-4">
          <Alert>{m(answer.error)}</Alert>
        </div>
      ) : null}
      <SummaryTiles
        tiles={[
          { label: t('campuses.summary.contracts'), value: campus.summary.contracts },
          { label: t('campuses.summary.active_contracts'), value: campus.summary.active_contracts },
          { label: t('campuses.summary.current_contracts'), value: campus.summary.current_contracts },
          { label: t('campuses.summary.users'), value: campus.summary.users },
        ]}
      />
      <RouteTabs
        label={t('campuses.tabs_label')}
        tabs={tabs.map((k) => ({
          key: k,
          label: t(`campuses.tabs.${k}`),
          to: k === 'details' ? base : `${base}/${k}`,
          index: k === 'details',
          count:
            k === 'contracts' ? campus.summary.contracts : k === 'users' ? campus.summary.users : undefined,
        }))}
      />
      <Outlet />
    </div>
  );
}

function HeaderActions() {
  const { t, i18n } = useTranslation();
  const { campus, can: allowed } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const base = to(campusBase(campus));
  return (
    <div className="flex flex-wrap gap-2">
      <a href={`${base}/enrollment-template`} className={buttonClass('secondary')} download>
        {t('campuses.download_template')}
      </a>
      {allowed.createAgreement ? (
        <ButtonLink
          to={to(`/clients/${campus.client.id}/service-agreement/create?campus=${campus.id}`)}
          variant="secondary"
        >
          {t('campuses.add_agreement')}
        </ButtonLink>
      ) : null}
      {allowed.clone ? (
        <AppForm method="post" action={base}>
          <Button type="submit" name="intent" value="clone" variant="secondary" disabled={busy}>
            {t('campuses.clone')}
          </Button>
        </AppForm>
      ) : null}
      {allowed.archive ? (
        <AppForm method="post" action={base}>
          {campus.status === 'active' ? (
            <Button type="submit" name="intent" value="archive" variant="danger" disabled={busy}>
              {t('campuses.archive')}
            </Button>
          ) : (
            <Button type="submit" name="intent" value="activate" disabled={busy}>
              {t('campuses.activate')}
            </Button>
          )}
        </AppForm>
      ) : null}
    </div>
  );
}
