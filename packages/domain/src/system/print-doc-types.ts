/**
 * 打印模板's plain data (issue 41 §3): page sizes, element kinds and the document types with
 * their fields — no zod, so the kit list that offers 打印标签 does not pull the layout's schema
 * into its chunk. The layout and its checks are `print-template.ts`.
 */

/** Page sizes in millimetres (width × height, portrait). */
export const PAGE_SIZES = {
  A4: { label: 'A4（210×297 mm）', width: 210, height: 297 },
  A5: { label: 'A5（148×210 mm）', width: 148, height: 210 },
  label60x40: { label: '标签 60×40 mm', width: 60, height: 40 },
} as const;
export type PageSize = keyof typeof PAGE_SIZES;

export const ELEMENT_KINDS = {
  text: '文字',
  field: '字段',
  table: '明细表',
  image: '图片',
  qr: '二维码',
  barcode: '条形码',
} as const;
export type ElementKind = keyof typeof ELEMENT_KINDS;

/** 1-D symbologies drawn by bwip-js: its encoder names. */
export const BARCODE_SYMBOLOGIES = { code128: 'Code 128', ean13: 'EAN-13' } as const;
export type BarcodeSymbology = keyof typeof BARCODE_SYMBOLOGIES;

/** One data field a document type offers: its key in the print data and its Chinese label. */
export interface PrintField {
  key: string;
  label: string;
}

export interface PrintDocType {
  label: string;
  /** The resource whose kit list prints this type for its selected rows (打印标签). */
  resource?: string;
  /** The page a new template of the type starts on. */
  page: PageSize;
  fields: PrintField[];
  /** The line table (`lines` in the print data) and its columns, when the type has lines. */
  lines?: PrintField[];
}

/**
 * The document types that have templates. Labels (流转卡, 成品箱, 物料) print on 60 × 40 mm; the
 * documents on A4/A5. The print data of each is built by the page that prints it from what the
 * server answers for the record (the reader's own permissions apply).
 */
export const PRINT_DOC_TYPES = {
  'flow-card': {
    label: '流转卡',
    page: 'label60x40',
    fields: [
      { key: 'docNo', label: '卡号' },
      { key: 'productName', label: '产品' },
      { key: 'partName', label: '零件/套圈' },
      { key: 'quantity', label: '数量' },
      { key: 'heatNo', label: '炉号' },
      { key: 'productionOrderName', label: '生产订单' },
      { key: 'statusLabel', label: '状态' },
      { key: 'companyName', label: '公司名称' },
      { key: 'printedAt', label: '打印时间' },
    ],
    lines: [
      { key: 'seq', label: '序' },
      { key: 'processName', label: '工序' },
      { key: 'workshopName', label: '车间' },
      { key: 'goodQuantity', label: '合格' },
      { key: 'operatorName', label: '操作工' },
    ],
  },
  'finished-box': {
    label: '成品箱标签',
    page: 'label60x40',
    fields: [
      { key: 'docNo', label: '批号（流转卡号）' },
      { key: 'productName', label: '产品' },
      { key: 'quantity', label: '数量' },
      { key: 'heatNo', label: '炉号' },
      { key: 'productionOrderName', label: '生产订单' },
      { key: 'companyName', label: '公司名称' },
      { key: 'printedAt', label: '装箱日期' },
    ],
  },
  material: {
    label: '物料标签',
    page: 'label60x40',
    resource: 'material-info',
    fields: [
      { key: 'code', label: '物料编码' },
      { key: 'name', label: '物料名称' },
      { key: 'spec', label: '规格型号' },
      { key: 'unitName', label: '基本单位' },
      { key: 'materialTypeName', label: '物料类型' },
      { key: 'drawingNo', label: '图号' },
      { key: 'companyName', label: '公司名称' },
      { key: 'printedAt', label: '打印时间' },
    ],
  },
  'sale-order': {
    label: '销售订单',
    page: 'A4',
    fields: [
      { key: 'docNo', label: '订单编号' },
      { key: 'customerName', label: '客户' },
      { key: 'orderDate', label: '订单日期' },
      { key: 'deliveryDate', label: '交货日期' },
      { key: 'salespersonName', label: '业务员' },
      { key: 'totalAmount', label: '订单金额' },
      { key: 'remark', label: '备注' },
      { key: 'companyName', label: '公司名称' },
      { key: 'printedAt', label: '打印时间' },
    ],
    lines: [
      { key: 'materialName', label: '物料' },
      { key: 'spec', label: '规格型号' },
      { key: 'quantity', label: '数量' },
      { key: 'unitName', label: '单位' },
      { key: 'price', label: '单价' },
      { key: 'amount', label: '金额' },
      { key: 'deliveryDate', label: '交货日期' },
    ],
  },
} as const satisfies Record<string, PrintDocType>;
export type PrintDocTypeName = keyof typeof PRINT_DOC_TYPES;

export const printDocType = (name: string): PrintDocType | undefined =>
  (PRINT_DOC_TYPES as Record<string, PrintDocType>)[name];

/** The label type a resource's list prints for its selected rows, if any. */
export const labelTypeOfResource = (resource: string): PrintDocTypeName | undefined =>
  (Object.keys(PRINT_DOC_TYPES) as PrintDocTypeName[]).find(
    (n) => (PRINT_DOC_TYPES[n] as PrintDocType).resource === resource,
  );
