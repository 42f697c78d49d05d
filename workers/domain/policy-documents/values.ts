/**
 * Policy documents' limits and address segments, free of zod, so pages read them without loading the
 * schema library (schema.ts re-exports them).
 */
import type { PolicyDocumentKind } from '../../../drizzle/schema/policy-enums';

/** At most this many insureds in one documents ZIP (the spec's bulk limit of 5000 applicants). */
export const MAX_ZIP_POLICIES = 5000;
/** At most this many insureds in one `policies/download` answered in the request itself. */
export const MAX_DIRECT_DOWNLOAD = 50;

/** The address segment of each kind: /insureds/{id}/insurance-card.pdf, /insureds/{id}/certificate.pdf. */
export const KIND_SEGMENTS: Record<PolicyDocumentKind, string> = {
  insurance_card: 'insurance-card',
  certificate: 'certificate',
};
