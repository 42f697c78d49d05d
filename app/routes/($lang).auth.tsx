import { Outlet } from '@remix-run/react';
import { AuthLayout } from '~/components/auth/auth-layout';

export default function AuthRoutes() {
  return (
    <AuthLayout>
      <Outlet />
    </AuthLayout>
  );
}
