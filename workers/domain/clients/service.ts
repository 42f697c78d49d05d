/**
 * Clients (schools): create, read, update (profile, billing settings, contacts, addresses, fact-find).
 * Every function finds the client through `findClient(ctx, id, permission)` (access/finders.ts: the
 * permission, then the tenant scope), so a client of another tenant answers NotFound. Beside it: the
 * client as shown (detail.ts), account managers (managers.ts), files (files.ts), notes and logs
 * (notes.ts), the school's own profile (profile.ts), states and bulk actions (status.ts), lists
 * (queries.ts) and the tabs of one client (tabs.ts).
 */
import { savingClient } from './saving';
import { eq } from 'drizzle-orm';
import { clients } from '../../../drizzle/schema';
import { idByPublicId, runBatch, type Statement } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import { deleteFile } from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { isOnlyAccountManager } from '../access/scope';
import { diff, logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import {
  addressForLog,
  contactsForLog,
  readAddress,
  readContacts,
  replaceAddress,
  replaceContacts,
  type ContactOwner,
} from '../contacts/service';
import type { AddressInput, AddressKind } from '../contacts/schema';
import { ValidationFailed } from '../errors';
import { msg } from '../validation';
import type { ClientCreateInput, ClientFileKind, ClientUpdateInput } from './schema';
import { companyForNewRecord, findClient, type ClientRow } from '../access/finders';
import { resolveAccountManager, userName } from './managers';
import { ownerOf, type ClientDetail, detailOf, logView, withoutEmpty, cleanFactFind } from './detail';
import { storeFiles } from './files';

// ---------------------------------------------------------------- create

/**
 * Creates a client with its contacts, addresses, fact-find and files (clients/add, /clients/new), in one
 * batch with its activity-log row. The company is the one chosen in the top bar (or `company_id` when
 * the user looks at several). An account manager creating a client manages it unless they name another.
 */
export async function createClient(
  ctx: ActorCtx,
  input: ClientCreateInput,
  files: Partial<Record<ClientFileKind, unknown>> = {},
): Promise<ClientDetail> {
  return savingClient(async () => {
    requirePermission(ctx.actor, 'create_client');
    const companyId = companyForNewRecord(ctx.actor, input.company_id);
    if (companyId === 'invalid')
      throw ValidationFailed.field('company_id', msg('clients.errors.company_invalid'));
    if (companyId === 'required')
      throw ValidationFailed.field('company_id', msg('clients.errors.company_required'));
    const manager = input.account_manager_id
      ? await resolveAccountManager(ctx.db, companyId, input.account_manager_id)
      : isOnlyAccountManager(ctx.actor)
        ? { id: ctx.actor.user_id, name: `${ctx.actor.first_name} ${ctx.actor.last_name}` }
        : null;

    const clientPublicId = publicId();
    const stored = await storeFiles(ctx, clientPublicId, files);
    const row: typeof clients.$inferInsert = {
      public_id: clientPublicId,
      company_id: companyId,
      name: input.name,
      type: input.type,
      status: input.status,
      account_manager_id: manager?.id ?? null,
      website: input.website ?? null,
      description: input.description ?? null,
      phone_country: input.phone_country?.toUpperCase() ?? null,
      phone_number: input.phone_number ?? null,
      preferred_lang: input.preferred_lang,
      expiry_reminders: input.expiry_reminders,
      billing_enabled: input.billing_enabled,
      payment_terms: input.payment_terms,
      payment_method: input.payment_method,
      payment_frequency: input.payment_frequency ?? null,
      invoice_rule: input.invoice_rule,
      tax_number: input.tax_number ?? null,
      account_number_ap: input.account_number_ap ?? null,
      account_number_ar: input.account_number_ar ?? null,
      fact_find: cleanFactFind(input.fact_find),
      logo_key: stored.logo?.key ?? null,
      return_policy_key: stored.return_policy?.key ?? null,
      created_at: ctx.now,
      updated_at: ctx.now,
    };
    // One batch: the new row's id is not known yet, so the other rows name it by its public id.
    const newId = idByPublicId(clients, clientPublicId);
    const owner: ContactOwner = { type: 'client', id: newId };
    try {
      await runBatch(ctx.db, [
        ctx.db.insert(clients).values(row),
        ...replaceContacts(ctx.db, owner, input.contacts, ctx.now),
        ...replaceAddress(ctx.db, owner, 'billing', input.billing_address, ctx.now),
        ...replaceAddress(ctx.db, owner, 'mailing', input.mailing_address, ctx.now),
        logActivity(ctx, {
          entity_type: 'client',
          entity_id: newId,
          action: 'created',
          after: withoutEmpty({
            ...logView(row as ClientRow, manager?.name ?? null),
            ...contactsForLog(input.contacts),
            billing_address: addressForLog(input.billing_address),
            mailing_address: addressForLog(input.mailing_address),
            logo: stored.logo?.name ?? null,
            return_policy: stored.return_policy?.name ?? null,
          }),
          company_id: companyId,
          client_id: newId,
        }),
      ]);
    } catch (e) {
      await Promise.all(Object.values(stored).map((f) => deleteFile(ctx.env.FILES, f?.key)));
      throw e;
    }
    const [created] = await ctx.db
      .select()
      .from(clients)
      .where(eq(clients.public_id, clientPublicId))
      .limit(1);
    return detailOf(ctx.db, created);
  });
}

// ---------------------------------------------------------------- read

/** GET clients/{id}: the client with contacts, addresses and counts. */
export async function getClient(ctx: ActorCtx, id: string): Promise<ClientDetail> {
  return detailOf(ctx.db, await findClient(ctx, id, 'read_client'));
}

// ---------------------------------------------------------------- update

/**
 * PATCH clients/{client_id}/update and every edit form of the client page: the sections given change,
 * the rest stays. One batch: the row, contacts and addresses when given, and one activity-log row with
 * the fields that changed.
 */
export async function updateClient(
  ctx: ActorCtx,
  id: string,
  input: ClientUpdateInput,
): Promise<ClientDetail> {
  return savingClient(async () => {
    const before = await findClient(ctx, id, 'update_client');
    const oldManager = await userName(ctx.db, before.account_manager_id);
    let manager: { id: number; name: string } | null | undefined;
    if (input.account_manager_id !== undefined || 'account_manager_id' in input) {
      manager = await resolveAccountManager(ctx.db, before.company_id, input.account_manager_id);
    }
    const set: Partial<typeof clients.$inferInsert> = { updated_at: ctx.now };
    const copy = [
      'name',
      'type',
      'website',
      'description',
      'preferred_lang',
      'expiry_reminders',
      'billing_enabled',
      'payment_terms',
      'payment_method',
      'payment_frequency',
      'invoice_rule',
      'tax_number',
      'account_number_ap',
      'account_number_ar',
      'phone_number',
    ] as const;
    for (const key of copy) if (key in input) (set as Record<string, unknown>)[key] = input[key] ?? null;
    if ('phone_country' in input) set.phone_country = input.phone_country?.toUpperCase() ?? null;
    if (manager !== undefined) set.account_manager_id = manager?.id ?? null;
    if (input.fact_find) set.fact_find = cleanFactFind(input.fact_find);

    const owner = ownerOf(before);
    const statements: Statement[] = [ctx.db.update(clients).set(set).where(eq(clients.id, before.id))];
    const logBefore: Record<string, unknown> = logView(before, oldManager?.name ?? null);
    const after = { ...before, ...set } as ClientRow;
    const logAfter: Record<string, unknown> = logView(
      after,
      manager !== undefined ? (manager?.name ?? null) : (oldManager?.name ?? null),
    );
    if (input.contacts) {
      Object.assign(logBefore, contactsForLog(await readContacts(ctx.db, owner)));
      Object.assign(logAfter, contactsForLog(input.contacts));
      statements.push(...replaceContacts(ctx.db, owner, input.contacts, ctx.now));
    }
    for (const kind of ['billing', 'mailing'] as const) {
      const key = `${kind}_address` as const;
      if (!(key in input)) continue;
      const address = input[key] ?? null;
      logBefore[key] = addressForLog(await readAddress(ctx.db, owner, kind));
      logAfter[key] = addressForLog(address);
      statements.push(...replaceAddress(ctx.db, owner, kind, address, ctx.now));
    }
    // Saving a form without changing anything writes no log row.
    const changed = diff(logBefore, logAfter);
    if (Object.keys(changed.after ?? {}).length) {
      statements.push(
        logActivity(ctx, {
          entity_type: 'client',
          entity_id: before.id,
          action: 'updated',
          before: logBefore,
          after: logAfter,
          company_id: before.company_id,
          client_id: before.id,
        }),
      );
    }
    await runBatch(ctx.db, statements);
    return detailOf(ctx.db, after);
  });
}

// ---------------------------------------------------------------- addresses (catalogue calls)

/** GET clients/{id}/billing-address/fetch and /mailing-address/fetch. */
export async function getClientAddress(ctx: ActorCtx, id: string, kind: AddressKind) {
  const client = await findClient(ctx, id, 'read_client');
  return readAddress(ctx.db, ownerOf(client), kind);
}

/** PATCH clients/{id}/billing-address/update and /mailing-address/update (empty removes the address). */
export async function updateClientAddress(
  ctx: ActorCtx,
  id: string,
  kind: AddressKind,
  input: AddressInput | null | undefined,
) {
  return savingClient(async () => {
    const client = await findClient(ctx, id, 'update_client');
    const owner = ownerOf(client);
    const before = await readAddress(ctx.db, owner, kind);
    await runBatch(ctx.db, [
      ...replaceAddress(ctx.db, owner, kind, input, ctx.now),
      ctx.db.update(clients).set({ updated_at: ctx.now }).where(eq(clients.id, client.id)),
      logActivity(ctx, {
        entity_type: 'client',
        entity_id: client.id,
        action: `${kind}_address_updated`,
        before: { [`${kind}_address`]: addressForLog(before) },
        after: { [`${kind}_address`]: addressForLog(input) },
        company_id: client.company_id,
        client_id: client.id,
      }),
    ]);
    return readAddress(ctx.db, owner, kind);
  });
}
