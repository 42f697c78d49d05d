/**
 * /insureds/{id}/insured_details (spec 001 s.2 "Insured detail"): the header (the person, the policy's
 * status, the actions a user may take on it) and the tabs, each a nested route: the policy (index),
 * documents, notes, logs, MFA logs, and the same person's active, previous and cancelled policies.
 * Extend, edit trip dates and cancel post this policy's id to the amendment pages, as the list's bulk
 * actions do.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Form, Link, Outlet, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { threadsAbout } from '@server/domain/conversations/inbox';
import { startAboutPath } from '@server/domain/conversations/options';
import { getPolicy } from '@server/domain/policies/service';
import { INSURED_TABS, insuredActionsFor, insuredTabsFor } from '@server/domain/policies/tabs';
import { redirectTabParam, tabSegment } from '~/lib/tabs.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';
import { buttonClass, ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { RouteTabs } from '~/components/ui/tabs';
import { ThreadLinks } from '~/components/messages/thread-links';
import { PolicyStatusBadge } from '~/components/insureds/insured-bits';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const id = params.id;
      redirectTabParam(request, `/insureds/${id}/insured_details`, INSURED_TABS, 'policy');
      const [policy, threads] = await Promise.all([getPolicy(ctx, id), threadsAbout(ctx, { policy: id })]);
      const tabs = insuredTabsFor(ctx.actor);
      return json({
        policy,
        threads,
        startThread: startAboutPath(ctx.actor, { policy_id: id }, policy.client.id),
        tabs: tabs.map((tab) => ({ key: tab, segment: tab === 'policy' ? '' : tabSegment(tab) })),
        actions: insuredActionsFor(ctx.actor, policy.status),
        staff: ctx.actor.user_type === 'company',
        title: `${policy.full_name} · ${pageTitle(context, request, 'insureds.title')}`,
      });
    },
  })(args);

/** A header button that posts this policy's id to an amendment page (as the list's bulk bar does). */
function AmendButton({
  action,
  intent,
  label,
  id,
}: {
  action: string;
  intent: string;
  label: string;
  id: string;
}) {
  const { csrfToken } = useRootData();
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="ids" value={id} />
      <button type="submit" className={buttonClass('secondary')}>
        {label}
      </button>
    </Form>
  );
}

export default function InsuredLayout() {
  const { t, i18n } = useTranslation();
  const { policy, tabs, actions, threads, startThread } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const base = to(`/insureds/${policy.id}/insured_details`);
  const addPolicy = new URLSearchParams({ campus: policy.campus.id, prefill: policy.id });
  return (
    <div className="mx-auto max-w-7xl">
      <nav className="mb-2 text-sm" aria-label={t('insureds.breadcrumb')}>
        <Link to={to('/insureds')} className="font-medium text-primary-800 hover:underline">
          {t('insureds.back_to_list')}
        </Link>
      </nav>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {policy.full_name}
            <PolicyStatusBadge status={policy.status} />
          </span>
        }
        description={`${policy.policy_number} · ${t(`insureds.types.${policy.type}`)} · ${policy.client.name} · ${policy.campus.name}`}
        actions={
          <div className="flex flex-wrap gap-2">
            {actions.edit_details ? (
              <ButtonLink to={to(`/insureds/${policy.id}/edit-details`)} variant="secondary">
                {t('insureds.actions.edit_details')}
              </ButtonLink>
            ) : null}
            {actions.download_card ? (
              <a
                href={to(`/insureds/${policy.id}/insurance-card.pdf`)}
                className={buttonClass('secondary')}
                download
              >
                {t('insureds.actions.download_card')}
              </a>
            ) : null}
            {actions.extend ? (
              <AmendButton
                action={to('/insureds/amend/extend')}
                intent="extend"
                label={t('insureds.actions.extend')}
                id={policy.id}
              />
            ) : null}
            {actions.trip_dates ? (
              <AmendButton
                action={to('/insureds/amend/trip-dates')}
                intent="trip_dates"
                label={t('insureds.actions.trip_dates')}
                id={policy.id}
              />
            ) : null}
            {actions.cancel ? (
              <AmendButton
                action={to('/insureds/amend/cancel')}
                intent="cancel"
                label={t('insureds.actions.cancel')}
                id={policy.id}
              />
            ) : null}
            {actions.add_policy ? (
              <ButtonLink to={to(`/insureds/order?${addPolicy}`)}>
                {t('insureds.actions.add_policy')}
              </ButtonLink>
            ) : null}
          </div>
        }
      />
      <RouteTabs
        label={policy.full_name}
        tabs={tabs.map((tab) => ({
          key: tab.key,
          label: t(`insureds.tabs.${tab.key}`),
          to: tab.segment ? `${base}/${tab.segment}` : base,
          index: !tab.segment,
        }))}
      />
      <Outlet />
      <ThreadLinks threads={threads} start={startThread} />
    </div>
  );
}
