/** Partner applicants' value lists and constants (pure: pages and the schema share them). */
export {
  PARTNER_APPLICANT_STATUSES,
  type PartnerApplicantStatus,
} from '../../../drizzle/schema/applicants-enums';

/** Who reads the list (spec 000 s.6 "partner applicants read") and who may send applicants. */
export const READ_PARTNER_APPLICANTS = 'read_partner_applicants';
export const SEND_PARTNER_APPLICANTS = 'update_partner_applicants';

export const PARTNER_APPLICANTS_PER_PAGE = 25;

/** An export holds at most one sheet's worth of applicants (spec 000 s.8: 5000 applicants per sheet). */
export const PARTNER_APPLICANTS_EXPORT_MAX = 5000;
