/**
 * /insureds/new/link-dependents?batch={id} (or ?import={id}): each immediate family member of an
 * imported order picks the student it travels with. A plain form of selects (works without JavaScript),
 * saved in one go; then the group leaders, then the fees.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { linkDependents } from '@server/domain/enrollments/edit';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { ValidationFailed } from '@server/domain/errors';
import { msg } from '@server/domain/messages';
import { linkDependentsFormSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { batchCounts, dependentsStep, importBatchStep, nextAfterReview } from '~/lib/imports.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, inputClass } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ImportSteps } from '~/components/imports/import-bits';
import { britishDate } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'link');
      const step = await dependentsStep(ctx, ib.batch);
      const counts = await batchCounts(ctx, ib.batch.id);
      return {
        batch: { id: ib.batch.public_id },
        import: ib.imp ? { id: ib.imp.public_id } : null,
        ...step,
        counts,
        next: nextAfterReview(ib.batch.public_id, counts, 'link'),
        title: pageTitle(context, request, 'imports.link.title'),
      };
    },
  })(args);

/** Saves every family member's student in one go; a family member left without one is named. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: linkDependentsFormSchema,
    permission: ORDER_PERMISSION,
    async handle(input, kit) {
      const { formData, redirect } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'link', formData);
      await linkDependents(ctx, ib.batch, input.links);
      const counts = await batchCounts(ctx, ib.batch.id);
      if (counts.family_unlinked > 0)
        throw ValidationFailed.field(
          'links',
          msg('imports.link.unlinked', { count: counts.family_unlinked }),
        );
      return redirect(nextAfterReview(ib.batch.public_id, counts, 'link'));
    },
  })(args);

export default function LinkDependents() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const reviewHref = data.import
    ? `/insureds/review-applicants?import=${data.import.id}`
    : `/insureds/review-applicants?batch=${data.batch.id}`;
  const errors = answer?.submission?.error ?? {};
  return (
    <div className="mx-auto max-w-4xl">
      <ImportSteps current="link" links={{ review: reviewHref }} />
      <PageHeader title={t('imports.link.title')} description={t('imports.link.description')} />
      {data.family.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-700">{t('imports.link.none')}</p>
          <div className="mt-5 flex gap-3">
            <ButtonLink to={to(reviewHref)} variant="secondary">
              {t('common.back')}
            </ButtonLink>
            <ButtonLink to={to(data.next)}>{t('common.continue')}</ButtonLink>
          </div>
        </Card>
      ) : data.student_count === 0 ? (
        <Alert>{t('imports.link.no_students')}</Alert>
      ) : (
        <AppForm method="post" className="space-y-5">
          <input type="hidden" name="batch" value={data.batch.id} />
          <FormErrors errors={[...(errors[''] ?? []), ...(errors.links ?? [])]} />
          <Card flush>
            <ul className="divide-y divide-slate-100">
              {data.family.map((f, i) => {
                const id = `link-${i}`;
                const fieldErrors = errors[`links[${i}].student_id`] ?? errors[`links[${i}].enrollment_id`];
                return (
                  <li
                    key={f.id}
                    data-family-row={f.position}
                    className="grid gap-3 px-4 py-4 sm:grid-cols-2 sm:items-center"
                  >
                    <div>
                      <p className="font-medium text-slate-900">{f.name || `#${f.position}`}</p>
                      <p className="text-xs text-slate-500">
                        {t('imports.review.row')} {f.position}
                        {f.date_of_birth ? ` · ${britishDate(f.date_of_birth)}` : ''}
                      </p>
                    </div>
                    <div>
                      <input type="hidden" name={`links[${i}].enrollment_id`} value={f.id} />
                      <label htmlFor={id} className="sr-only">
                        {t('imports.link.student')}: {f.name}
                      </label>
                      <select
                        id={id}
                        name={`links[${i}].student_id`}
                        defaultValue={f.student_id ?? f.suggested_id ?? ''}
                        aria-invalid={fieldErrors?.length ? true : undefined}
                        className={inputClass}
                      >
                        <option value="">{t('imports.link.choose')}</option>
                        {f.options.map((s) => (
                          <option key={s.id} value={s.id}>
                            {s.label} ({t('imports.review.row')} {s.position})
                          </option>
                        ))}
                      </select>
                      <ErrorList errors={fieldErrors} />
                    </div>
                  </li>
                );
              })}
            </ul>
          </Card>
          <div className="flex flex-wrap gap-3">
            <ButtonLink to={to(reviewHref)} variant="secondary">
              {t('common.back')}
            </ButtonLink>
            <Button type="submit" disabled={busy}>
              {t('imports.link.save')}
            </Button>
          </div>
        </AppForm>
      )}
    </div>
  );
}
