/**
 * /insureds/confirm-enrolment: confirms whether people are enrolled, by the policy ids on their
 * insurance cards (a last name after a comma checks it is the right person). What it is for is written
 * in docs/decisions/after-the-sale.md ("Confirm enrolment").
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { EnrolmentResult } from '@server/domain/policies/enrolment-check';
import {
  ENROLMENT_CHECK_PERMISSION,
  MAX_ENROLMENT_CHECKS,
  confirmEnrolment,
  enrolmentCheckFormSchema,
} from '~/lib/insureds.server';
import { formAction } from '~/lib/actions';
import { wholePage } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';
import { AppForm, FieldShell, FormErrors, TextArea } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { formatDate } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ENROLMENT_CHECK_PERMISSION,
    load: ({ request, context }) => ({
      max: MAX_ENROLMENT_CHECKS,
      title: pageTitle(context, request, 'reminders.enrolment.title'),
    }),
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: enrolmentCheckFormSchema,
    permission: ENROLMENT_CHECK_PERMISSION,
    async handle(input, { ctx }) {
      const checked = await confirmEnrolment(ctx, { items: input.policies });
      return { data: { ...checked, meta: wholePage(checked.results).meta } };
    },
  })(args);

const TONES: Record<EnrolmentResult['state'], string> = {
  enrolled: 'text-green-800',
  upcoming: 'text-green-800',
  ended: 'text-slate-700',
  cancelled: 'text-red-700',
  not_found: 'text-red-700',
  name_mismatch: 'text-red-700',
};

export default function ConfirmEnrolment() {
  const { t } = useTranslation();
  const { max } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const errors = answer?.submission?.error ?? {};
  const result = answer?.ok ? answer.data : null;
  const columns: Column<EnrolmentResult>[] = [
    { key: 'line', card: 'figure', header: t('reminders.enrolment.line'), render: (r) => r.line },
    {
      key: 'policy_id',
      card: 'figure',
      header: t('reminders.enrolment.policy_id'),
      render: (r) => <span className="font-mono">{r.policy_id}</span>,
    },
    {
      key: 'insured',
      card: 'title',
      header: t('reminders.enrolment.insured'),
      render: (r) => (r.insured ? `${r.insured.first_name} ${r.insured.last_name}` : ''),
    },
    {
      key: 'school',
      card: 'hidden',
      header: t('reminders.enrolment.school'),
      render: (r) => (r.insured ? `${r.insured.client} · ${r.insured.campus}` : ''),
    },
    {
      key: 'trip',
      card: 'figure',
      header: t('reminders.enrolment.trip'),
      className: 'whitespace-nowrap',
      render: (r) =>
        r.insured ? `${formatDate(r.insured.start_date)} – ${formatDate(r.insured.end_date)}` : '',
    },
    {
      key: 'result',
      card: 'status',
      header: t('reminders.enrolment.result'),
      render: (r) => (
        <span className={`font-medium ${TONES[r.state]}`} data-testid="enrolment-state">
          {t(`reminders.enrolment.states.${r.state}`, {
            start: r.insured ? formatDate(r.insured.start_date) : '',
            end: r.insured ? formatDate(r.insured.end_date) : '',
          })}
        </span>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title={t('reminders.enrolment.title')} description={t('reminders.enrolment.description')} />
      <Card>
        <AppForm method="post" className="space-y-4">
          <FormErrors errors={errors['']} />
          <FieldShell
            id="enrolment-policies"
            label={t('reminders.enrolment.label')}
            hint={t('reminders.enrolment.hint', { max })}
            errors={errors.policies}
            errorId="enrolment-policies-errors"
          >
            <TextArea
              id="enrolment-policies"
              name="policies"
              rows={6}
              required
              defaultValue={(answer?.submission?.initialValue as { policies?: string } | undefined)?.policies}
              aria-invalid={errors.policies?.length ? true : undefined}
              aria-describedby="enrolment-policies-errors"
              className="font-mono"
            />
          </FieldShell>
          <Button type="submit" disabled={busy}>
            {t('reminders.enrolment.submit')}
          </Button>
        </AppForm>
      </Card>
      {result ? (
        <section className="mt-6">
          <h2 className="mb-3 text-base font-semibold text-slate-900" data-testid="enrolment-summary">
            {t('reminders.enrolment.results')} ·{' '}
            {t('reminders.enrolment.summary', { enrolled: result.enrolled, total: result.total })}
          </h2>
          <DataTable
            rows={result.results}
            columns={columns}
            rowId={(r) => String(r.line)}
            meta={result.meta}
            caption={t('reminders.enrolment.results')}
          />
        </section>
      ) : null}
    </div>
  );
}
