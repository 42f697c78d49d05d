import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { clientFileResponse } from '@server/domain/clients/files';
import { idSchema } from '~/lib/schemas.server';
import { pageLoader, notFound } from '~/lib/loaders.server';

const KINDS = { logo: 'logo', 'return-policy': 'return_policy' } as const;

/** GET /clients/{id}/files/logo and /files/return-policy: the client's file from R2 (a resource route). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    load({ ctx, params, allParams }) {
      const kind = KINDS[allParams.kind as keyof typeof KINDS];
      if (!kind) throw notFound();
      return clientFileResponse(ctx, params.id, kind);
    },
  })(args);
