/**
 * Amendments of issued policies: the engine (quote, then confirm once) and the direct group changes.
 * Cancellation by spreadsheet calls createAmendment / quoteAmendment / confirmAmendment too.
 */
export {
  createAmendment,
  quoteAmendment,
  confirmAmendment,
  getAmendment,
  findAmendment,
  amendNow,
  type AmendmentView,
  type AmendmentResult,
  type AmendmentLineView,
  type AmendmentInvoice,
} from './service';
export { updateGroupName, assignGroupLeader, namesIssuedPolicies } from './groups';
export { runConfirmJob, applyAmendment } from './confirm';
export * from './schema';
