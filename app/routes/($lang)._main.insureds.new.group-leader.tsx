/**
 * /insureds/new/group-leader?batch={id}: assign a group leader of the order to selected applicants
 * (`policies/group-leader/update` semantics). A step of both flows: one by one (fees → here → review)
 * and the spreadsheet (link dependents → here → import fees, those pages addressed by `?import=`).
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { isEditable } from '@server/domain/enrollments/service';
import { groupLeaderChoices } from '@server/domain/enrollments/queries';
import { groupLeaderAction, orderStep } from '~/lib/enrollments.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { GroupLeaderForm } from '~/components/enrollments/group-leader-form';
import { ClosedOrder, OrderSteps, useFlashParam } from '~/components/enrollments/order-bits';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { ctx, batch } = await orderStep(request, context);
  const title = pageTitle(context, request, 'order.group_leader.title');
  if (!isEditable(batch)) return { closed: true as const, batch, title };
  return { closed: false as const, batch, choices: await groupLeaderChoices(ctx, batch.id), title };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const { ctx, batch, lang } = await orderStep(request, context);
  const result = await groupLeaderAction(ctx, form);
  if (!result.ok) return json({ errors: result.errors }, { status: 400 });
  return redirect(localePath(lang, `/insureds/new/group-leader?batch=${batch.id}&assigned=1`));
}

export default function GroupLeaderStep() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  useFlashParam('assigned', () => t('order.group_leader.saved'));
  if (data.closed) return <ClosedOrder />;
  const { batch, choices } = data;
  const lp = (path: string) => localePath(i18n.language, path);
  const fromSheet = batch.source === 'import';
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title={t('order.group_leader.title')}
        description={`${batch.campus.name} · ${batch.product.name}`}
      />
      {fromSheet ? null : <OrderSteps current="group_leader" batchId={batch.id} />}
      <Card>
        <p className="mb-5 text-sm text-slate-600">{t('order.group_leader.description')}</p>
        <GroupLeaderForm leaders={choices.leaders} members={choices.members} errors={result?.errors} />
      </Card>
      <div className="flex flex-wrap justify-between gap-3">
        <ButtonLink
          to={lp(
            fromSheet
              ? `/insureds/new/link-dependents?import=${batch.import_id}`
              : `/insureds/new/fees?batch=${batch.id}`,
          )}
          variant="secondary"
        >
          {fromSheet ? t('order.group_leader.back_import') : t('order.group_leader.back')}
        </ButtonLink>
        <ButtonLink
          to={lp(
            fromSheet
              ? `/insureds/new/import-fees?import=${batch.import_id}`
              : `/insureds/new/review?batch=${batch.id}`,
          )}
        >
          {fromSheet ? t('order.group_leader.continue_import') : t('order.group_leader.continue')}
        </ButtonLink>
      </div>
    </div>
  );
}
