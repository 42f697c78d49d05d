import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { clientFileResponse } from '@server/domain/clients/files';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

const KINDS = { logo: 'logo', 'return-policy': 'return_policy' } as const;

/** GET /clients/{id}/files/logo and /files/return-policy: the client's file from R2 (a resource route). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  const kind = KINDS[params.kind as keyof typeof KINDS];
  if (!kind) throw new Response('Not Found', { status: 404 });
  return orNotFound(clientFileResponse(ctx, params.id ?? '', kind));
}
