/** Partner applicants' value lists (pure: pages and the schema share them). */
export const PARTNER_APPLICANT_STATUSES = ['pending', 'enrolled'] as const;
export type PartnerApplicantStatus = (typeof PARTNER_APPLICANT_STATUSES)[number];
