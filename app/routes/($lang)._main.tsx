import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { Outlet } from '@remix-run/react';
import { requireUser } from '~/lib/guards.server';
import { AppShell } from '~/components/shell/app-shell';

/** Every signed-in page: the permission guard runs per route; this layout only requires a session. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  return json(null);
}

export default function MainLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
