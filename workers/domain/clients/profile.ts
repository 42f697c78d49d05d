/** The school area's own profile: what a school user reads and may change of their own client. */
import { savingClient } from './saving';
import { eq } from 'drizzle-orm';
import { clients } from '../../../drizzle/schema';
import { runBatch } from '../../platform/db';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { contactsForLog, readContacts, replaceContacts, type ContactsValue } from '../contacts/service';
import type { SchoolClientInput } from './schema';
import { findOwnClient } from '../access/finders';
import { userName } from './managers';
import { ownerOf, type ClientDetail, detailOf, logView } from './detail';

// ---------------------------------------------------------------- the school's own profile

/** GET client/fetch (school area): the signed-in school user's own client. */
export async function getOwnClient(ctx: ActorCtx): Promise<ClientDetail> {
  return detailOf(ctx.db, await findOwnClient(ctx, 'read_school_profile'));
}

/**
 * POST client/update (school area): what a school may change of itself (name, description, website,
 * phone, language, owner / secondary / accounting contacts). Other contact types are kept.
 */
export async function updateOwnClient(ctx: ActorCtx, input: SchoolClientInput): Promise<ClientDetail> {
  return savingClient(async () => {
    const before = await findOwnClient(ctx, 'update_school_profile');
    const owner = ownerOf(before);
    const current = await readContacts(ctx.db, owner);
    const toInput = (c: ContactsValue['initial']) =>
      c
        ? {
            first_name: c.first_name,
            last_name: c.last_name,
            email: c.email ?? undefined,
            phone_country: c.phone_country ?? undefined,
            phone_number: c.phone_number ?? undefined,
            job_title: c.job_title ?? undefined,
            department: c.department ?? undefined,
            is_master_user: c.is_master_user,
          }
        : undefined;
    const nextContacts = {
      initial: toInput(current.initial),
      custom: current.custom.map((c) => toInput(c)!),
      owner: input.contacts.owner,
      secondary: input.contacts.secondary,
      accounting: input.contacts.accounting,
    };
    const set = {
      name: input.name,
      description: input.description ?? null,
      website: input.website ?? null,
      phone_country: input.phone_country?.toUpperCase() ?? null,
      phone_number: input.phone_number ?? null,
      preferred_lang: input.preferred_lang,
      updated_at: ctx.now,
    };
    const after = { ...before, ...set };
    const manager = (await userName(ctx.db, before.account_manager_id))?.name ?? null;
    await runBatch(ctx.db, [
      ctx.db.update(clients).set(set).where(eq(clients.id, before.id)),
      ...replaceContacts(ctx.db, owner, nextContacts, ctx.now),
      logActivity(ctx, {
        entity_type: 'client',
        entity_id: before.id,
        action: 'profile_updated',
        before: { ...logView(before, manager), ...contactsForLog(current) },
        after: { ...logView(after, manager), ...contactsForLog(nextContacts) },
        company_id: before.company_id,
        client_id: before.id,
      }),
    ]);
    return detailOf(ctx.db, after);
  });
}
