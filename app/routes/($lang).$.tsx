import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { ErrorPage } from '~/components/error-page';
import { notFound } from '~/lib/loaders.server';

/** Any address no route matches: "Page Not Found!" with status 404. */
export async function loader(_: LoaderFunctionArgs) {
  throw notFound();
}

export default function NotFound() {
  return <ErrorPage status={404} />;
}

export function ErrorBoundary() {
  return <ErrorPage status={404} />;
}
