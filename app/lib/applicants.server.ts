/** Partner applicants' services as the pages reach them (the browser build leaves this module empty). */
export { exportPartnerApplicants, listPartnerApplicants } from '@server/domain/applicants/service';
export { READ_PARTNER_APPLICANTS } from '@server/domain/applicants/values';
