import { json } from '@remix-run/cloudflare';
import { Outlet, useLoaderData } from '@remix-run/react';
import { constraintsOf, contactUsSchema } from '~/lib/schemas.server';
import { AuthLayout } from '~/components/auth/auth-layout';

/** The login-help contact form's browser checks (required, lengths, email). */
export const loader = () => json({ helpConstraint: constraintsOf(contactUsSchema) });

export default function AuthRoutes() {
  const { helpConstraint } = useLoaderData<typeof loader>();
  return (
    <AuthLayout helpConstraint={helpConstraint}>
      <Outlet />
    </AuthLayout>
  );
}
