/**
 * The insurer services, for the insurers page, whose `export const action = intentAction({ ... })` the
 * browser build keeps with everything its handler names (see auth.server.ts).
 */
export {
  createInsurer,
  deleteInsurer,
  getInsurer,
  insurerActivity,
  insurersSummary,
  listInsurers,
  updateInsurer,
  updateInsurerStatus,
} from '@server/domain/insurers/service';
