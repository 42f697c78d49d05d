/**
 * /insureds/new/add?batch={id}: applicants one by one. The form has every applicant field; the server
 * checks it with the order's rules (the product's limits, duplicates in the order, family links) and
 * an applicant with errors is not stored: the form keeps what was typed and shows each error on its
 * field. The applicants added so far are listed below with Edit (`&edit={id}` fills the form) and
 * Delete. Works without JavaScript.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countryOptions } from '@server/domain/contacts/service';
import { APPLICANT_FIELDS } from '@server/domain/enrollments/values';
import {
  ORDER_PERMISSION,
  addApplicant,
  deleteEnrollments,
  updateEnrollment,
} from '@server/domain/enrollments/service';
import { getEnrollment, listEnrollments } from '@server/domain/enrollments/queries';
import { msg } from '@server/domain/messages';
import { personOfPolicy } from '@server/domain/policies/service';
import {
  applicantFormSchema,
  constraintsOf,
  enrollmentIdSchema,
  pageQuerySchema,
} from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { ignoreRefusal } from '~/lib/actions.server';
import { intentAction, unreachable } from '~/lib/actions';
import { orderStep } from '~/lib/enrollments.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { ApplicantFields, type CountryOption } from '~/components/enrollments/applicant-fields';
import { ApplicantsTable, type EnrollmentRowView } from '~/components/enrollments/applicants-table';
import { OrderSteps } from '~/components/enrollments/order-bits';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

const FORM_FIELDS = [...APPLICANT_FIELDS, 'dependency_id'] as const;

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    query: pageQuerySchema,
    async load(kit) {
      const { request, context, query } = kit;
      const { ctx, batch } = await orderStep(kit, 'add');
      const title = pageTitle(context, request, 'order.add.title');
      const url = new URL(request.url);
      const [list, countries] = await Promise.all([
        listEnrollments(ctx, { page: query.page, items: 500, policy_batch: batch.id }),
        countryOptions(ctx.db),
      ]);
      const editId = url.searchParams.get('edit');
      const editing = editId ? (list.items.find((e) => e.id === editId) ?? null) : null;
      const students = list.items
        .filter((e) => e.type === 'student' && e.id !== editing?.id)
        .map((e) => ({ id: e.id, name: e.full_name ?? '—' }));
      // "Add policy for this person" (an insured's page): the new applicant starts from that person's details.
      const prefillId = url.searchParams.get('prefill');
      const prefill = prefillId && !editing ? await personOfPolicy(ctx, prefillId) : null;
      const constraint = constraintsOf(applicantFormSchema);
      return { batch, list, countries, editing, students, prefill, title, constraint };
    },
  })(args);

/** Add an applicant, save the one being edited (`&edit={id}`), or delete one from the list. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      add: { schema: applicantFormSchema, permission: ORDER_PERMISSION },
      save: { schema: applicantFormSchema, permission: ORDER_PERMISSION },
      delete: {
        schema: enrollmentIdSchema,
        permission: ORDER_PERMISSION,
        confirm: {
          question: async ({ enrollment_id }: { enrollment_id: string }, { ctx }) =>
            msg('order.add.delete_confirm', {
              name: (await getEnrollment(ctx, enrollment_id)).full_name ?? '',
            }),
          button: 'order.table.delete',
        },
      },
    },
    async handle(input, kit) {
      const { redirect, request } = kit;
      const { ctx, batch } = await orderStep(kit, 'add');
      const here = `/insureds/new/add?batch=${batch.id}`;
      switch (input.intent) {
        case 'delete':
          await ignoreRefusal(deleteEnrollments(ctx, [input.enrollment_id]));
          return redirect(here, 'order.add.deleted');
        case 'add':
        case 'save': {
          const raw: Record<string, string> = {};
          // Read by the applicant's field names (APPLICANT_FIELDS), each a field of the parsed form.
          const values = input as unknown as Record<string, unknown>;
          for (const f of APPLICANT_FIELDS) raw[f] = values[f] == null ? '' : String(values[f]);
          const dependency_id = input.dependency_id || null;
          const editId = new URL(request.url).searchParams.get('edit');
          if (editId) {
            await updateEnrollment(ctx, editId, { ...raw, dependency_id }, { validateFirst: true });
            return redirect(here, 'order.add.saved');
          }
          await addApplicant(ctx, batch.id, { raw, dependency_id });
          return redirect(here, 'order.add.added');
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

/**
 * A refusal's messages for keys that are not a field of the form (a duplicate in the order is a `row`
 * problem): shown with the form's own errors.
 */
function otherErrors(errors: Record<string, string[] | null> | undefined): string[] {
  return Object.entries(errors ?? {})
    .filter(([key]) => key !== '' && !(FORM_FIELDS as readonly string[]).includes(key))
    .flatMap(([, messages]) => messages ?? []);
}

function formValue(e: EnrollmentRowView | null) {
  if (!e) return { type: 'student' };
  const value: Record<string, string> = {};
  for (const f of APPLICANT_FIELDS) {
    // Read by the applicant's field names (APPLICANT_FIELDS), each a column of the enrolment.
    const v = (e as unknown as Record<string, unknown>)[f];
    value[f] = v == null ? '' : String(v);
  }
  value.dependency_id = e.dependency_id ?? '';
  return value;
}

function ApplicantForm({
  editing,
  prefill,
  countries,
  students,
  cancelTo,
}: {
  editing: EnrollmentRowView | null;
  prefill?: Record<string, string> | null;
  countries: CountryOption[];
  students: { id: string; name: string }[];
  cancelTo: string;
}) {
  const { t } = useTranslation();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [js, setJs] = useState(false);
  useEffect(() => setJs(true), []);
  const loaded = useLoaderData<typeof loader>();
  const [form, fields] = useSchemaForm({
    id: editing ? `applicant-${editing.id}` : 'applicant-new',
    schema: () => import('@server/domain/enrollments/inputs').then((m) => m.applicantFormSchema),
    lastResult: data?.intent === 'delete' ? undefined : data?.submission,
    defaultValue: editing ? formValue(editing) : { ...formValue(null), ...prefill },
    constraint: loaded.constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  // The schema loads lazily (useSchemaForm), so Conform cannot type the fields: they are applicantFormSchema's.
  const all = fields as unknown as Parameters<typeof ApplicantFields>[0]['fields'];
  const family = all.type?.value === 'immediate_family';
  const showDependency = !js || family || !!all.dependency_id?.errors?.length || !!all.dependency_id?.value;
  return (
    <AppForm method="post" {...getFormProps(form)} className="space-y-6" preventScrollReset>
      <input type="hidden" name="intent" value={editing ? 'save' : 'add'} />
      <FormErrors errors={[...(form.errors ?? []), ...otherErrors(data?.submission?.error)]} />
      <ApplicantFields
        fields={all}
        countries={countries}
        students={students}
        showDependency={showDependency}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {editing ? t('order.add.save') : t('order.add.submit')}
        </Button>
        {editing ? (
          <ButtonLink to={cancelTo} variant="secondary" preventScrollReset>
            {t('order.add.cancel_edit')}
          </ButtonLink>
        ) : null}
      </div>
    </AppForm>
  );
}

export default function AddApplicants() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { batch, list, countries, editing, students, prefill } = data;
  const lp = (path: string) => localePath(i18n.language, path);
  const self = lp(`/insureds/new/add?batch=${batch.id}`);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={t('order.add.title')}
        description={`${batch.campus.name} · ${batch.product.name}`}
        actions={
          <ButtonLink to={lp('/insureds/order')} variant="secondary">
            {t('order.back_to_order')}
          </ButtonLink>
        }
      />
      <OrderSteps current="add" batchId={batch.id} />
      {batch.status === 'open' ? <Alert tone="info">{t('order.review.in_cart')}</Alert> : null}
      <Card>
        <h2 className="mb-5 text-base font-semibold">
          {editing ? t('order.add.edit_applicant') : t('order.add.new_applicant')}
        </h2>
        <ApplicantForm
          key={`${editing?.id ?? 'new'}-${list.meta.total}`}
          editing={editing}
          prefill={prefill}
          countries={countries}
          students={students}
          cancelTo={self}
        />
      </Card>
      <Card flush className="overflow-hidden">
        <div className="border-b border-slate-200 px-6 py-4">
          <h2 className="text-base font-semibold">
            {t('order.add.list')} ({list.meta.total})
          </h2>
        </div>
        {list.items.length ? (
          <>
            <ApplicantsTable
              rows={list.items}
              caption={t('order.add.list')}
              editPath={(id) => `${self}&edit=${id}`}
            />
            {list.meta.last_page > 1 ? <Pagination meta={list.meta} /> : null}
          </>
        ) : (
          <p className="px-6 py-8 text-center text-sm text-slate-500">{t('order.add.none')}</p>
        )}
      </Card>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {list.meta.total ? (
          <ButtonLink to={lp(`/insureds/new/fees?batch=${batch.id}`)}>{t('order.add.continue')}</ButtonLink>
        ) : (
          <p className="text-sm text-slate-500">{t('order.add.need_one')}</p>
        )}
      </div>
    </div>
  );
}
