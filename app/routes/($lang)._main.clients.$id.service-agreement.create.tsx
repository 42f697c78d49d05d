/**
 * /clients/{id}/service-agreement/create: a new service agreement of the client. "Save" keeps it
 * pending; "Save and approve" makes it active and turns each product row into a campus contract.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { agreementFormOptions } from '@server/domain/service-agreements/queries';
import { createServiceAgreement } from '@server/domain/service-agreements/service';
import { todayIso } from '@server/domain/formats';
import { translate } from '@server/platform/i18n';
import { constraintsOf, createAgreementSchema, idSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { queryOf } from '~/lib/lists.server';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { AgreementFields, blankRow } from '~/components/service-agreements/agreement-form';
import { DefaultSubmit } from '~/components/campuses/campus-bits';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_service_agreement',
    params: idSchema,
    async load({ ctx, request, context, params, lang }) {
      const options = await agreementFormOptions(ctx, params.id);
      const campus = queryOf(request).campus;
      return {
        constraint: constraintsOf(createAgreementSchema),
        options,
        campus: options.campuses.some((c) => c.id === campus) ? campus : '',
        today: todayIso(new Date()),
        title: translate(lang, 'app.title_template', {
          title: translate(lang, 'service_agreements.new_title'),
          product: context.env.PRODUCT_NAME,
        }),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: createAgreementSchema,
    permission: 'create_service_agreement',
    async handle(input, { ctx, params, redirect }) {
      // The client is the page's: the form's hidden field only lets the schema read the form whole.
      const sa = await createServiceAgreement(ctx, { ...input, client_id: params.id });
      // An agreement created active wrote its contracts, and the toast says so.
      return redirect(
        `/clients/${params.id}/service-agreement/${sa.id}/edit`,
        sa.status === 'active' ? 'contracts.saved' : 'service_agreements.saved',
      );
    },
  })(args);

export default function CreateAgreement() {
  const { t, i18n } = useTranslation();
  const { options, campus, today, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/service-agreements/schema').then((m) => m.createAgreementSchema),
    id: 'agreement',
    lastResult: data?.submission,
    defaultValue: {
      name: '',
      start_date: today,
      rows: [{ ...blankRow(campus), start_date: today }],
    } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const back = localePath(i18n.language, `/clients/${options.client.id}/service-agreements`);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={t('service_agreements.new_title')}
        description={t('service_agreements.new_description', { client: options.client.name })}
        actions={
          <ButtonLink to={back} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
        }
      />
      <AppForm method="post" {...getFormProps(form)} className="space-y-6">
        <DefaultSubmit name="approve" value="save" />
        <input type="hidden" name="client_id" value={options.client.id} />
        <FormErrors errors={form.errors} />
        <Card>
          {/* The schema loads lazily (useSchemaForm), so Conform cannot type the fields: they are createAgreementSchema's. */}
          <AgreementFields
            form={form}
            fields={fields as unknown as Parameters<typeof AgreementFields>[0]['fields']}
            options={options}
          />
        </Card>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="approve" value="save" variant="secondary" disabled={busy}>
            {t('service_agreements.save')}
          </Button>
          <Button type="submit" name="approve" value="approve" disabled={busy}>
            {t('service_agreements.save_and_approve')}
          </Button>
          <ButtonLink to={back} variant="ghost">
            {t('common.cancel')}
          </ButtonLink>
        </div>
        <p className="text-sm text-slate-600">{t('service_agreements.approve_hint')}</p>
      </AppForm>
    </div>
  );
}
