import { FLOW_CARD_LIFECYCLE, type PrintDocTypeName, stateLabel } from '@ringmes/domain';
import { http } from '../api/client.ts';
import type { Page } from '../api/types.ts';
import { formatTime } from '../lib/time.ts';
import type { PrintData } from './layout-page.tsx';

type Row = Record<string, any>;

/**
 * Where each document type's records are read for a printout and how a record becomes print
 * data: plain paths of the server's reads (the reader's permissions apply), so the editor's
 * preview and every page that prints use the same data.
 */
interface PrintSource {
  /** Records to preview with, newest first, narrowed by what was typed (number, code or name). */
  search: (keyword: string) => Promise<{ id: number; label: string }[]>;
  read: (id: number) => Promise<Row>;
  toData: (record: Row) => PrintData;
}

const page = (url: string, keyword: string, param: string) =>
  http
    .get<Page<Row>>(
      url,
      { pageNum: 1, pageSize: 20, ...(keyword ? { [param]: keyword } : {}) },
      { silent: true },
    )
    .then((p) => p.list);

const common = () => ({ printedAt: formatTime(Date.now(), 'YYYY-MM-DD HH:mm') });

const flowCard: PrintSource = {
  search: async (k) =>
    (await page('/api/v1/flow-card/page', k, 'docNo')).map((r) => ({
      id: r.id,
      label: `${r.docNo} ${r.productName ?? ''}`,
    })),
  read: (id) => http.get<Row>(`/api/v1/flow-card/card/${id}`),
  toData: (r) => ({
    ...r,
    ...common(),
    statusLabel: stateLabel(FLOW_CARD_LIFECYCLE, r.status),
    lines: (r.steps ?? []) as Row[],
  }),
};

export const PRINT_SOURCES: Record<PrintDocTypeName, PrintSource> = {
  'flow-card': flowCard,
  'finished-box': flowCard,
  material: {
    search: async (k) =>
      (await page('/api/v1/material-info/page', k, 'code')).map((r) => ({
        id: r.id,
        label: `${r.code} ${r.name}`,
      })),
    read: (id) => http.get<Row>(`/api/v1/material-info/info/${id}`),
    toData: (r) => ({ ...r, ...common() }),
  },
  'sale-order': {
    search: async (k) =>
      (await page('/api/v1/sale-order/page', k, 'docNo')).map((r) => ({
        id: r.id,
        label: `${r.docNo} ${r.customerName ?? ''}`,
      })),
    read: (id) => http.get<Row>(`/api/v1/sale-order/info/${id}`),
    toData: (r) => ({ ...r, ...common(), lines: (r.lines ?? []) as Row[] }),
  },
};

/** The print data of records read by id, in the order given (a list's selected rows). */
export async function printDataOf(docType: PrintDocTypeName, ids: number[]): Promise<PrintData[]> {
  const source = PRINT_SOURCES[docType];
  const rows = await Promise.all(ids.map((id) => source.read(id)));
  return rows.map((r) => source.toData(r));
}
