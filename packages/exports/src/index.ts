/**
 * The CSV exports of D21 (sessions, refunds, balance transactions), for every
 * door that serves them: the API gateway's /gateway/exports/*.csv and the
 * dashboard's Reports page. README.md shows a door's use.
 */
export { cellOf, columnsOf, rowOf } from './columns.js';
export {
  EXPORT_KINDS,
  exportColumns,
  exportFileName,
  exportHeaders,
  EXPORTS,
  isExportKind,
  openExport,
  sendCsv,
  type ExportKind,
  type FetchPage,
  type Page,
  type PageRequest,
} from './csv-export.js';
export { EXPORTS_BUSY, ExportSlots, SLOT_STORE_OPTIONS, withExportSlot, type SlotStore } from './export-slots.js';
