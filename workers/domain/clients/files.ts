/** A client's files in R2: the logo and the return policy (stored, replaced, answered). */
import { savingClient } from './saving';
import { eq } from 'drizzle-orm';
import { clients } from '../../../drizzle/schema';
import { runBatch } from '../../platform/db';
import {
  checkUpload,
  deleteFile,
  fileKey,
  fileResponse,
  putFile,
  type FileKind,
} from '../../platform/storage';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import type { ClientFileKind } from './schema';
import { findClient } from '../access/finders';

export const CLIENT_FILE_KINDS: Record<ClientFileKind, readonly FileKind[]> = {
  logo: ['png', 'jpg', 'gif', 'webp'],
  return_policy: ['pdf', 'docx'],
};

/** The original name of a stored file, from its key (`<prefix>/<random>-<name>`). */
export function storedFileName(key: string | null): string | null {
  if (!key) return null;
  const last = key.split('/').pop() ?? '';
  const dash = last.indexOf('-');
  return dash >= 0 ? last.slice(dash + 1) : last;
}

export async function storeFiles(
  ctx: ActorCtx,
  clientPublicId: string,
  files: Partial<Record<ClientFileKind, unknown>>,
): Promise<Partial<Record<ClientFileKind, { key: string; name: string }>>> {
  const checked: Partial<Record<ClientFileKind, Awaited<ReturnType<typeof checkUpload>>>> = {};
  // Check every file before storing any, so a bad second file leaves nothing behind.
  for (const kind of Object.keys(CLIENT_FILE_KINDS) as ClientFileKind[]) {
    const file = files[kind];
    if (file instanceof Blob && file.size > 0)
      checked[kind] = await checkUpload(file, { field: kind, allowed: CLIENT_FILE_KINDS[kind] });
    else if (file instanceof Blob && file.size === 0 && file instanceof File && file.name)
      checked[kind] = await checkUpload(file, { field: kind, allowed: CLIENT_FILE_KINDS[kind] });
  }
  const out: Partial<Record<ClientFileKind, { key: string; name: string }>> = {};
  for (const [kind, file] of Object.entries(checked) as [
    ClientFileKind,
    (typeof checked)[ClientFileKind],
  ][]) {
    if (!file) continue;
    const key = fileKey(`clients/${clientPublicId}/${kind}`, file.name);
    await putFile(ctx.env.FILES, key, file);
    out[kind] = { key, name: file.name };
  }
  return out;
}

// ---------------------------------------------------------------- files (logo, return policy)

/** GET clients/{id}/logo and /return-policy: the stored file, or NotFound when there is none. */
export async function clientFileResponse(
  ctx: ActorCtx,
  id: string,
  kind: ClientFileKind,
  disposition: 'inline' | 'attachment' = kind === 'logo' ? 'inline' : 'attachment',
): Promise<Response> {
  const client = await findClient(ctx, id, 'read_client|read_school_profile');
  const key = kind === 'logo' ? client.logo_key : client.return_policy_key;
  if (!key) throw new NotFound();
  const response = await fileResponse(ctx.env.FILES, key, { name: storedFileName(key) ?? kind, disposition });
  if (!response) throw new NotFound();
  return response;
}

/** Replaces the client's logo or return policy (the old file is removed once the new one is recorded). */
export async function setClientFile(ctx: ActorCtx, id: string, kind: ClientFileKind, file: unknown) {
  return savingClient(async () => {
    const client = await findClient(ctx, id, 'update_client');
    if (!(file instanceof Blob)) throw ValidationFailed.field(kind, msg('validation.required'));
    const stored = (await storeFiles(ctx, client.public_id, { [kind]: file }))[kind];
    if (!stored) throw ValidationFailed.field(kind, msg('validation.required'));
    const column = kind === 'logo' ? 'logo_key' : 'return_policy_key';
    const oldKey = client[column];
    try {
      await runBatch(ctx.db, [
        ctx.db
          .update(clients)
          .set({ [column]: stored.key, updated_at: ctx.now })
          .where(eq(clients.id, client.id)),
        logActivity(ctx, {
          entity_type: 'client',
          entity_id: client.id,
          action: `${kind}_updated`,
          before: { [kind]: storedFileName(oldKey) },
          after: { [kind]: stored.name },
          company_id: client.company_id,
          client_id: client.id,
        }),
      ]);
    } catch (e) {
      await deleteFile(ctx.env.FILES, stored.key);
      throw e;
    }
    await deleteFile(ctx.env.FILES, oldKey);
    return { name: stored.name };
  });
}
