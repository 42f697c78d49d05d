/** A campus's details tab, the page's own address: its profile and billing. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { updateCampusDetails } from '@server/domain/campuses/edit';
import { campusFormOptions } from '@server/domain/campuses/service';
import { countryOptions } from '@server/domain/contacts/service';
import { campusDetailsSchema, constraintsOf, idSchema, idsSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { AppForm, FormErrors } from '~/components/fields';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { CampusBillingFields, CampusProfileFields, campusFormValue } from '~/components/campuses/campus-bits';
import { Facts } from '~/components/ui/facts';
import { SaveButton, useCampus } from '~/components/campuses/campus-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idSchema,
    async load({ ctx, params }) {
      if (!can(ctx.actor, 'update_campus')) return json({ countries: null, managers: [], constraint: {} });
      const [countries, options] = await Promise.all([
        countryOptions(ctx.db),
        campusFormOptions(ctx, params.id),
      ]);
      return json({
        countries,
        managers: options.account_managers,
        constraint: constraintsOf(campusDetailsSchema),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idsSchema('id', 'campusId'),
    schema: campusDetailsSchema,
    permission: 'update_campus',
    async handle(input, { ctx, params, redirect }) {
      const { account_number_ap, account_number_ar, payment_terms, pay_with_bank_transfer, ...profile } =
        input;
      await updateCampusDetails(ctx, params.campusId, profile, {
        account_number_ap,
        account_number_ar,
        payment_terms,
        pay_with_bank_transfer,
      });
      return redirect(`/clients/${params.id}/campuses/${params.campusId}`, 'campuses.saved');
    },
  })(args);

export default function CampusDetailsTab() {
  const { t } = useTranslation();
  const { campus, can: allowed } = useCampus();
  const { countries, managers, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const [form, fields] = useSchemaForm({
    id: `campus-details-${campus.updated_at}`,
    schema: () => import('@server/domain/campuses/schema').then((m) => m.campusDetailsSchema),
    lastResult: data?.submission,
    defaultValue: campusFormValue(campus),
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!allowed.update || !countries) {
    return (
      <div className="space-y-6">
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.profile')}</h2>
          <Facts
            items={[
              { label: t('campuses.fields.name'), value: campus.name },
              { label: t('campuses.fields.initial'), value: campus.initial },
              { label: t('campuses.fields.country'), value: campus.country?.name },
              {
                label: t('campuses.fields.phone_number'),
                value: campus.phone_number ? `${campus.phone_country ?? ''} ${campus.phone_number}` : null,
              },
              { label: t('campuses.fields.website'), value: campus.website },
              {
                label: t('campuses.fields.preferred_lang'),
                value: t(`campuses.languages.${campus.preferred_lang}`),
              },
              { label: t('campuses.fields.account_manager'), value: campus.account_manager?.name },
              { label: t('campuses.fields.description'), value: campus.description },
            ]}
          />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.billing')}</h2>
          <Facts
            items={[
              { label: t('campuses.fields.account_number_ap'), value: campus.account_number_ap },
              { label: t('campuses.fields.account_number_ar'), value: campus.account_number_ar },
              {
                label: t('campuses.fields.payment_terms'),
                value: campus.payment_terms ? t(`campuses.payment_terms.${campus.payment_terms}`) : null,
              },
              {
                label: t('campuses.fields.pay_with_bank_transfer'),
                value: campus.pay_with_bank_transfer ? t('campuses.yes') : t('campuses.no'),
              },
            ]}
          />
        </Card>
      </div>
    );
  }
  return (
    <AppForm method="post" {...getFormProps(form)} key={form.id} className="space-y-6">
      <FormErrors errors={form.errors} />
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.profile')}</h2>
        <CampusProfileFields
          fields={fields}
          managers={allowed.companyUser ? managers : campus.account_manager ? [campus.account_manager] : []}
          countries={countries}
        />
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.billing')}</h2>
        <CampusBillingFields fields={fields} />
      </Card>
      <SaveButton />
    </AppForm>
  );
}
