import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { LegalPage } from '~/components/legal-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    access: 'public',
    permission: null,
    load: ({ request, context }) => ({ title: pageTitle(context, request, 'legal.privacy.title') }),
  })(args);

export default function Page() {
  return <LegalPage doc="privacy" sections={6} />;
}
