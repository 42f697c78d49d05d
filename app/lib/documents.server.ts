/** My Documents' services as the pages reach them (the browser build leaves this module empty). */
export { listMyDocuments } from '@server/domain/documents/service';
export { MY_DOCUMENTS_PERMISSION } from '@server/domain/documents/values';
