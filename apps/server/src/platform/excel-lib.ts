import type ExcelJSLib from 'exceljs';

let loading: Promise<typeof ExcelJSLib> | undefined;

/**
 * exceljs, loaded on the first import or export rather than at start: loading it (and the zip
 * libraries it pulls in) is a sizeable part of a warm start.
 */
export function exceljs(): Promise<typeof ExcelJSLib> {
  loading ??= import('exceljs').then((m) => m.default);
  return loading;
}
