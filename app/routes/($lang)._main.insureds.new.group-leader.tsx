/**
 * /insureds/new/group-leader?batch={id}: assign a group leader of the order to selected applicants
 * (`policies/group-leader/update` semantics). A step of both flows: one by one (fees → here → review)
 * and the spreadsheet (link dependents → here → import fees, those pages addressed by `?import=`).
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ORDER_PERMISSION, assignGroupLeader } from '@server/domain/enrollments/service';
import { groupLeaderChoices } from '@server/domain/enrollments/queries';
import { groupLeaderFormSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { orderStep } from '~/lib/enrollments.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { GroupLeaderForm, type GroupLeaderErrors } from '~/components/enrollments/group-leader-form';
import { OrderSteps } from '~/components/enrollments/order-bits';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { ctx, batch } = await orderStep(kit, 'group_leader');
      const title = pageTitle(context, request, 'order.group_leader.title');
      return { batch, choices: await groupLeaderChoices(ctx, batch.id), title };
    },
  })(args);

/** Gives the ticked applicants the chosen group leader, or takes it away ("No group leader"). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: groupLeaderFormSchema,
    permission: ORDER_PERMISSION,
    async handle(input, kit) {
      const { redirect } = kit;
      const { ctx, batch } = await orderStep(kit, 'group_leader');
      await assignGroupLeader(ctx, {
        group_leader_id: input.group_leader_id || null,
        enrollment_ids: input.enrollment_ids,
      });
      return redirect(`/insureds/new/group-leader?batch=${batch.id}`, 'order.group_leader.saved');
    },
  })(args);

/** A refusal's messages on the form's parts: the leader, the ticked applicants (`policies`), the rest. */
function errorsOf(errors: Record<string, string[] | null> | undefined): GroupLeaderErrors | null {
  if (!errors) return null;
  const out: GroupLeaderErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    if (!messages?.length) continue;
    const part =
      key === 'group_leader_id'
        ? 'group_leader_id'
        : key === 'enrollment_ids' || key === 'policies'
          ? 'enrollment_ids'
          : 'form';
    (out[part] ??= []).push(...messages);
  }
  return out;
}

export default function GroupLeaderStep() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
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
        <GroupLeaderForm
          leaders={choices.leaders}
          members={choices.members}
          errors={errorsOf(result?.submission?.error)}
        />
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
