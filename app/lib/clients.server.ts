import type { AppLoadContext } from '@remix-run/cloudflare';
import type { Actor } from '@server/domain/access/actor';
import type { ActorCtx } from '@server/domain/context';
import { canOpenClientTab, type ClientDetailTab } from '@server/domain/clients/tabs';
import { requirePermissions } from '~/lib/guards.server';

/**
 * A client tab's loader guard: a signed-in user who may read clients and open this tab; a tab the
 * user may not open answers 404, as if it did not exist (the tab bar does not offer it either).
 */
export function requireClientTab(request: Request, context: AppLoadContext, tab: ClientDetailTab): ActorCtx {
  const ctx = requirePermissions(request, context, 'read_client');
  if (!canOpenClientTab(ctx.actor as Actor, tab)) throw new Response('Not Found', { status: 404 });
  return ctx;
}
