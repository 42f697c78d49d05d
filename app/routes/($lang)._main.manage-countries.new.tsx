import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { useActionData, useNavigation, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { createCountry } from '@server/domain/countries/service';
import { constraintsOf, countrySchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { CountryFields } from '~/components/countries/country-bits';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_country',
    load({ request, context }) {
      return json({
        constraint: constraintsOf(countrySchema),
        title: pageTitle(context, request, 'countries.new_title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: countrySchema,
    permission: 'create_country',
    async handle(input, { ctx, redirect }) {
      const { id } = await createCountry(ctx, input);
      return redirect(`/manage-countries/${id}`, 'countries.created');
    },
  })(args);

export default function NewCountry() {
  const { t, i18n } = useTranslation();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const { constraint } = useLoaderData<typeof loader>();
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/countries/schema').then((m) => m.countrySchema),
    id: 'country',
    lastResult,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title={t('countries.new_title')} description={t('countries.new_intro')} />
      <Card>
        <AppForm method="post" {...getFormProps(form)} className="space-y-6">
          <FormErrors errors={form.errors} />
          <CountryFields fields={fields} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={busy}>
              {t('countries.create')}
            </Button>
            <ButtonLink to={localePath(i18n.language, '/manage-countries')} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}
