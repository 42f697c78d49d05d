/**
 * /clients/{id}/add-campus: a new campus of the client with every field, its contacts (initial, owner,
 * secondary, accounting) and its billing and mailing addresses. Works without JavaScript; a validation
 * error keeps everything typed.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { CAMPUS_CONTACT_TYPES } from '@server/domain/campuses/values';
import { createCampus } from '@server/domain/campuses/edit';
import { campusFormOptions } from '@server/domain/campuses/service';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { translate } from '@server/platform/i18n';
import { constraintsOf, createCampusSchema, idSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { AddressFieldset, ContactsEditor, fieldsetOf } from '~/components/contacts/contacts-editor';
import { CampusBillingFields, CampusProfileFields, DefaultSubmit } from '~/components/campuses/campus-bits';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_campus',
    params: idSchema,
    async load({ ctx, context, params, lang }) {
      const [options, countries] = await Promise.all([
        campusFormOptions(ctx, params.id),
        countryOptions(ctx.db),
      ]);
      return {
        constraint: constraintsOf(createCampusSchema),
        ...options,
        countries,
        title: translate(lang, 'app.title_template', {
          title: translate(lang, 'campuses.new_title'),
          product: context.env.PRODUCT_NAME,
        }),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: createCampusSchema,
    permission: 'create_campus',
    async handle(input, { ctx, params, redirect }) {
      // The client is the page's: the form's hidden field only lets the schema read the form whole.
      const campus = await createCampus(ctx, { ...input, client_id: params.id });
      return redirect(`/clients/${params.id}/campuses/${campus.id}`, 'campuses.saved');
    },
  })(args);

export default function AddCampus() {
  const { t, i18n } = useTranslation();
  const { client, account_managers, countries, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/campuses/schema').then((m) => m.createCampusSchema),
    id: 'add-campus',
    lastResult: data?.submission,
    defaultValue: {
      client_id: client.id,
      preferred_lang: 'en',
      contacts: contactsFormValue(null, { secondary: 1, custom: 0 }),
    } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const back = localePath(i18n.language, `/clients/${client.id}/campuses`);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={t('campuses.new_title')}
        description={t('campuses.new_description', { client: client.name })}
        actions={
          <ButtonLink to={back} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
        }
      />
      <AppForm method="post" {...getFormProps(form)} className="space-y-6">
        <DefaultSubmit name="save" value="1" />
        <input type="hidden" name="client_id" value={client.id} />
        <FormErrors errors={form.errors} />
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.profile')}</h2>
          <CampusProfileFields fields={fields} managers={account_managers} countries={countries} />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.billing')}</h2>
          <CampusBillingFields fields={fields} />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.contacts')}</h2>
          <ContactsEditor
            form={form}
            field={fieldsetOf(fields.contacts)}
            types={CAMPUS_CONTACT_TYPES}
            countries={countries}
          />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.addresses')}</h2>
          <div className="grid gap-4 lg:grid-cols-2">
            <AddressFieldset
              field={fieldsetOf(fields, 'billing_address')}
              kind="billing"
              countries={countries}
            />
            <AddressFieldset
              field={fieldsetOf(fields, 'mailing_address')}
              kind="mailing"
              countries={countries}
            />
          </div>
        </Card>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {t('campuses.create')}
          </Button>
          <ButtonLink to={back} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
        </div>
      </AppForm>
    </div>
  );
}
