/** The audit trail's search (pure zod): who, which entity, which action, between which days. */
import { z } from 'zod';
import { listQuerySchema } from '../list-query';
import { isoDate } from '../validation';

const day = z.preprocess((v) => (v === '' ? undefined : v), isoDate.optional()).catch(undefined);
const word = z
  .preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,59}$/)
      .optional(),
  )
  .catch(undefined);

export const auditQuerySchema = listQuerySchema.extend({
  /** Who acted: part of their name or email. */
  user: z.string().trim().max(200).optional().catch(undefined),
  entity_type: word,
  entity_id: z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional())
    .catch(undefined),
  action: word,
  from: day,
  to: day,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
