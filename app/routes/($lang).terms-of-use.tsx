import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { pageTitle } from '~/lib/meta';
import { LegalPage } from '~/components/legal-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { title: pageTitle(context, request, 'legal.terms.title') };
}

export default function Page() {
  return <LegalPage doc="terms" sections={5} />;
}
