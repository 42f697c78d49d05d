import type { Actor } from '@server/domain/access/actor';
import type { ActorCtx } from '@server/domain/context';
import { canOpenClientTab, type ClientDetailTab } from '@server/domain/clients/tabs';
import { NotFound } from '@server/domain/errors';

/**
 * A client tab's check in its page loader (which requires read_client): a tab the user may not open is
 * the 404 page, as if it did not exist (the tab bar does not offer it either).
 */
export function requireClientTab(ctx: ActorCtx, tab: ClientDetailTab): void {
  if (!canOpenClientTab(ctx.actor as Actor, tab)) throw new NotFound();
}
