import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { Outlet } from '@remix-run/react';
import { AppShell } from '~/components/shell/app-shell';
import { pageLoader } from '~/lib/loaders.server';

/** Every signed-in page: the permission guard runs per route; this layout only requires a session. */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    load: () => json(null),
  })(args);

export default function MainLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
