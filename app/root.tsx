import {
  json,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from '@remix-run/cloudflare';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { useChangeLanguage } from 'remix-i18next/react';
import stylesheet from '~/styles/app.css';
import { HTML_LANG, isLanguage, splitLocale, type Language } from '~/i18n/config';
import { shellData } from '~/lib/shell.server';
import { ErrorPage } from '~/components/error-page';
import { SnackbarProvider } from '~/components/ui/snackbar';
import { takeToast } from '~/lib/actions.server';
import { notFound } from '~/lib/guards.server';
import { useNonce } from '~/lib/nonce';
import { useRenderedMark, useWithoutScripts } from '~/lib/hydrate';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // An unknown language prefix (or /en/...) is not a page.
  if (params.lang !== undefined && (!isLanguage(params.lang) || params.lang === 'en')) {
    throw notFound();
  }
  const { lang, path } = splitLocale(new URL(request.url).pathname);
  const { toast, clear } = takeToast(request, context);
  return json(
    {
      lang,
      csrfToken: context.csrfToken,
      toast,
      // Set by an action of this request that asks before acting (app/lib/actions.server.ts, `confirm`).
      confirmation: context.confirmation ?? null,
      ...(await shellData(context, { lang, path })),
    },
    clear ? { headers: { 'set-cookie': clear } } : undefined,
  );
}

export type RootData = SerializeFrom<typeof loader>;

export function useRootData(): RootData {
  return useRouteLoaderData<typeof loader>('root') as RootData;
}

export const meta: MetaFunction = () => [{ title: 'Admin - Enrolment Portal' }];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const { i18n } = useTranslation();
  const lang = (data?.lang ?? i18n.language ?? 'en') as Language;
  const nonce = useNonce();
  const bundle = i18n.getResourceBundle(lang, 'translation') ?? {};
  // A page whose route says `handle = { hydrate: false }` (the sign-in steps) is plain HTML: no scripts.
  const scripts = !useWithoutScripts();
  useRenderedMark();
  return (
    <html lang={HTML_LANG[lang] ?? 'en-GB'} className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full">
        {children}
        {scripts ? (
          <>
            <script
              nonce={nonce}
              suppressHydrationWarning
              dangerouslySetInnerHTML={{
                __html: `window.__i18n=${JSON.stringify({ lang, resources: bundle }).replace(/</g, '\\u003c')};`,
              }}
            />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const { lang, toast } = useRootData();
  useChangeLanguage(lang);
  return (
    <SnackbarProvider toast={toast}>
      <Outlet />
    </SnackbarProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage status={status} />;
}
