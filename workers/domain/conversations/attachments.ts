/**
 * Message attachments in R2: checked like every upload (10 MB, the kind read from the content, zip
 * bombs and executables refused) before anything is stored; stored under the thread's prefix; removed
 * again when the message that carries them could not be written, so nothing is left half-stored.
 */
import { and, eq, type SQL } from 'drizzle-orm';
import { messageAttachments } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { publicId } from '../../platform/crypto';
import type { DB } from '../../platform/db';
import {
  checkUpload,
  deleteFiles,
  fileKey,
  fileResponse,
  putFile,
  type CheckedFile,
  type FileKind,
} from '../../platform/storage';
import { NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import { ATTACHMENTS_FIELD, MAX_ATTACHMENTS } from './schema';

/** Documents and images, by their content. */
export const ATTACHMENT_KINDS: readonly FileKind[] = [
  'pdf',
  'png',
  'jpg',
  'gif',
  'webp',
  'docx',
  'xlsx',
  'csv',
];

export interface StoredAttachment {
  public_id: string;
  key: string;
  name: string;
  content_type: string;
  size: number;
}

/** Checks every file first (a refusal names the field), then stores them all. */
export async function storeAttachments(
  env: Env,
  conversationPublicId: string,
  files: Blob[],
): Promise<StoredAttachment[]> {
  if (files.length > MAX_ATTACHMENTS) {
    throw ValidationFailed.field(
      ATTACHMENTS_FIELD,
      msg('conversations.errors.too_many_files', { max: MAX_ATTACHMENTS }),
    );
  }
  const checked: CheckedFile[] = [];
  for (const file of files) {
    checked.push(
      await checkUpload(file, { field: ATTACHMENTS_FIELD, allowed: ATTACHMENT_KINDS, nameMustMatch: true }),
    );
  }
  const stored: StoredAttachment[] = [];
  try {
    for (const file of checked) {
      const key = fileKey(`messages/${conversationPublicId}`, file.name);
      await putFile(env.FILES, key, file);
      stored.push({
        public_id: publicId(),
        key,
        name: file.name,
        content_type: file.contentType,
        size: file.size,
      });
    }
  } catch (e) {
    await removeStored(env, stored);
    throw e;
  }
  return stored;
}

export async function removeStored(env: Env, stored: StoredAttachment[]): Promise<void> {
  await deleteFiles(
    env.FILES,
    stored.map((s) => s.key),
  );
}

/** The rows of a message's attachments, for the batch that writes the message. */
export function attachmentRows(
  stored: StoredAttachment[],
  conversationId: number,
  messageId: number | SQL,
  now: Date,
) {
  return stored.map((s) => ({
    public_id: s.public_id,
    conversation_id: conversationId,
    message_id: messageId,
    file_key: s.key,
    file_name: s.name,
    content_type: s.content_type,
    size: s.size,
    created_at: now,
  }));
}

/**
 * One attachment of a message as a download: the one named, or the only one. The message must be of
 * the thread already found in the actor's scope.
 */
export async function attachmentDownload(
  db: DB,
  env: Env,
  conversationId: number,
  messageId: number,
  attachmentPublicId: string | undefined,
): Promise<Response> {
  const rows = await db
    .select()
    .from(messageAttachments)
    .where(
      and(
        eq(messageAttachments.conversation_id, conversationId),
        eq(messageAttachments.message_id, messageId),
        attachmentPublicId ? eq(messageAttachments.public_id, attachmentPublicId) : undefined,
      ),
    )
    .limit(2);
  if (rows.length !== 1) throw new NotFound();
  const [a] = rows;
  const response = await fileResponse(env.FILES, a.file_key, {
    name: a.file_name,
    contentType: a.content_type,
  });
  if (!response) throw new NotFound();
  return response;
}
