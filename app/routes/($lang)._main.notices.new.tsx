import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { createNotice } from '@server/domain/notices/service';
import { noticeOptions } from '@server/domain/notices/options';
import { constraintsOf, noticeSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { Card, PageHeader } from '~/components/ui/card';
import { NoticeEditor } from '~/components/notices/notice-editor';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_notice',
    async load({ ctx, request, context }) {
      return json({
        options: await noticeOptions(ctx),
        constraint: constraintsOf(noticeSchema),
        title: pageTitle(context, request, 'notices.new_title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: noticeSchema,
    permission: 'create_notice',
    async handle(input, { ctx, redirect }) {
      const notice = await createNotice(ctx, input);
      return redirect(`/notices/${notice.id}`, 'notices.created');
    },
  })(args);

export default function NewNotice() {
  const { t } = useTranslation();
  const { options, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={t('notices.new_title')} description={t('notices.new_intro')} />
      <Card>
        <NoticeEditor
          id="notice"
          options={options}
          constraint={constraint}
          lastResult={lastResult}
          submitLabel={t('notices.create')}
        />
      </Card>
    </div>
  );
}
