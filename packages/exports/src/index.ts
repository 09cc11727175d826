/**
 * The CSV exports of D21 (sessions, refunds, balance transactions), for every
 * door that serves them: the API gateway's /gateway/exports/*.csv and the
 * dashboard's Reports page. README.md shows a door's use.
 */
export { cellOf, columnsOf, rowOf, type Column, type JsonSchema } from './columns.js';
export {
  CSV_CONTENT_TYPE,
  CsvExport,
  EXPORT_KINDS,
  exportColumns,
  exportFileName,
  exportHeaders,
  EXPORTS,
  isExportKind,
  openExport,
  sendCsv,
  type ExportKind,
  type ExportOptions,
  type FetchPage,
  type Page,
  type PageRequest,
  type SendCsvOptions,
} from './csv-export.js';
