/**
 * /insureds/{id}/edit-details: edit an insured's personal details with the applicant rules of the order
 * flow. Trip dates, group and cancellation are amendments (their own pages). A cancelled insured cannot
 * be edited ('You cannot edit cancelled insureds'); a policy changed since the form was read is refused.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { countryOptions } from '@server/domain/contacts/service';
import { GENDERS } from '@db/enums';
import { updatePolicyDetails } from '@server/domain/policies/details';
import { getPolicy } from '@server/domain/policies/service';
import { POLICY_DETAIL_FIELDS } from '@server/domain/policies/tabs';
import { constraintsOf, policyDetailsSchema, idSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, Field, FormErrors, SelectField } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'update_insured',
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const [policy, countries] = await Promise.all([getPolicy(ctx, params.id), countryOptions(ctx.db)]);
      return json({
        constraint: constraintsOf(policyDetailsSchema),
        policy,
        countries,
        title: pageTitle(context, request, 'insureds.edit.title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: policyDetailsSchema,
    permission: 'update_insured',
    async handle(input, { ctx, params, redirect }) {
      const { changed } = await updatePolicyDetails(ctx, params.id, input);
      return redirect(
        `/insureds/${params.id}/insured_details`,
        changed ? 'insureds.edit.saved' : 'insureds.edit.unchanged',
      );
    },
  })(args);

export default function EditInsuredDetails() {
  const { t, i18n } = useTranslation();
  const { policy, countries, constraint } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const defaults: Record<string, string> = { version: String(policy.version) };
  for (const f of POLICY_DETAIL_FIELDS) {
    // Read by the field names the form edits (POLICY_DETAIL_FIELDS), each a column of the policy.
    const v = (policy as unknown as Record<string, unknown>)[f];
    defaults[f] = v == null ? '' : String(v);
  }
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/policies/schema').then((m) => m.policyDetailsSchema),
    id: `edit-${policy.id}-${policy.version}`,
    lastResult: answer?.submission,
    defaultValue: defaults,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const back = localePath(i18n.language, `/insureds/${policy.id}/insured_details`);
  const label = (name: string) => t(`order.fields.${name}`);
  const choose = t('order.add.choose');
  const countryChoices = countries.map((c) => ({ value: String(c.id), label: c.name }));
  const phoneCountries = countries.map((c) => ({ value: c.abbreviation, label: c.name }));
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={t('insureds.edit.title')}
        description={`${policy.full_name} · ${policy.policy_number}`}
        actions={
          <ButtonLink to={back} variant="secondary">
            {t('insureds.edit.back')}
          </ButtonLink>
        }
      />
      {policy.status === 'cancelled' ? (
        <Alert tone="error">{t('insureds.errors.cancelled_edit')}</Alert>
      ) : (
        <Card>
          <AppForm method="post" {...getFormProps(form)} className="space-y-6">
            <FormErrors errors={form.errors} />
            <input type="hidden" name="version" value={String(policy.version)} />
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <Field
                label={label('first_name')}
                field={fields.first_name}
                inputProps={{ autoComplete: 'off' }}
              />
              <Field
                label={label('last_name')}
                field={fields.last_name}
                inputProps={{ autoComplete: 'off' }}
              />
              <Field label={label('date_of_birth')} field={fields.date_of_birth} type="date" />
              <SelectField
                label={label('gender')}
                field={fields.gender}
                placeholder={choose}
                options={GENDERS.map((v) => ({ value: v, label: t(`order.genders.${v}`) }))}
              />
              <Field label={label('email')} field={fields.email} type="email" />
              <Field label={label('personal_email')} field={fields.personal_email} type="email" />
              <SelectField
                label={label('phone_country')}
                field={fields.phone_country}
                placeholder={choose}
                options={phoneCountries}
              />
              <Field
                label={label('phone_number')}
                field={fields.phone_number}
                type="tel"
                inputProps={{ inputMode: 'numeric' }}
              />
              <Field label={label('passport_number')} field={fields.passport_number} />
              <SelectField
                label={label('residence_country_id')}
                field={fields.residence_country_id}
                placeholder={choose}
                options={countryChoices}
              />
              <SelectField
                label={label('destination_country_id')}
                field={fields.destination_country_id}
                placeholder={choose}
                options={countryChoices}
              />
              <Field label={label('destination_address')} field={fields.destination_address} />
              <Field label={label('student_number')} field={fields.student_number} />
              <Field label={label('plan')} field={fields.plan} />
              <Field label={label('year_of_study')} field={fields.year_of_study} />
            </div>
            <Button type="submit" disabled={busy}>
              {t('insureds.edit.save')}
            </Button>
          </AppForm>
        </Card>
      )}
    </div>
  );
}
