/**
 * 财务部 reports, declared once: the server answers them from their facts (modules/finance/
 * reports.ts), the web draws every one with the same page (modules/finance/reports/). A report
 * sums its measures over facts grouped by one of its groupings, within its filters; a row drills
 * down to the facts behind it, each linking to its document.
 */

export type ReportValueKind = 'text' | 'date' | 'int' | 'quantity' | 'money' | 'percent';

export interface ReportFilterDef {
  name: string;
  label: string;
  /** `range`: a date range (from/to); `date`: one day (the report's as-of date); `ref`: a record. */
  kind: 'range' | 'date' | 'ref';
  /** For `ref`: the resource in the registry. */
  ref?: string;
}

export interface ReportMeasureDef {
  name: string;
  label: string;
  kind: ReportValueKind;
  /** A quotient of two summed measures (num / den, 6 places: a unit cost), computed after summing. */
  per?: [string, string];
  /** A ratio of two summed measures in percent (num / den × 100), computed after summing. */
  ratio?: [string, string];
  /** Drawn in the chart: bars on the left axis, or a line on the right axis. */
  chart?: 'bar' | 'line';
  /**
   * A quantity of the fact's material in its base unit (the fact's `unit_name`): summed per unit
   * and never across units — a row or total over 件, kg and 粒 shows one figure per unit.
   */
  perUnit?: boolean;
}

export interface ReportColumnDef {
  name: string;
  label: string;
  kind: ReportValueKind;
}

export interface FinanceReportDef {
  name: string;
  title: string;
  route: string;
  /** Permission prefix; `:query` reads, `:export` exports. */
  permission: string;
  filters: ReportFilterDef[];
  /** The groupings offered; the first is the default. `month` groups by the fact's month. */
  groups: { value: string; label: string }[];
  measures: ReportMeasureDef[];
  /** The drill-down's columns (the facts), besides the measures. */
  detail: ReportColumnDef[];
  /** The resource whose detail page a drill-down row opens (`docResource` on the row overrides). */
  docResource?: string;
}

const FIN = '/finance-department';
const range = (label = '日期'): ReportFilterDef => ({ name: 'range', label, kind: 'range' });
const ref = (name: string, label: string, r: string): ReportFilterDef => ({
  name,
  label,
  kind: 'ref',
  ref: r,
});
const m = (name: string, label: string, kind: ReportValueKind, extra: Partial<ReportMeasureDef> = {}) => ({
  name,
  label,
  kind,
  ...extra,
});
const c = (name: string, label: string, kind: ReportValueKind = 'text'): ReportColumnDef => ({
  name,
  label,
  kind,
});
const MONTH = { value: 'month', label: '按月份' };

export const FINANCE_REPORTS: FinanceReportDef[] = [
  {
    name: 'sales-report',
    title: '销售报表',
    route: `${FIN}/sales-report`,
    permission: 'finance:salesReport',
    filters: [
      range('出库日期'),
      ref('customerId', '客户', 'customer'),
      ref('materialId', '产品', 'material-info'),
    ],
    groups: [MONTH, { value: 'customer', label: '按客户' }, { value: 'material', label: '按产品' }],
    measures: [
      m('quantity', '销售数量', 'quantity', { perUnit: true }),
      m('revenue', '销售收入(元)', 'money', { chart: 'bar' }),
      m('cost', '销售成本(元)', 'money', { chart: 'bar' }),
      m('margin', '毛利(元)', 'money'),
      m('marginRate', '毛利率(%)', 'percent', { ratio: ['margin', 'revenue'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '出库单号'),
      c('day', '出库日期', 'date'),
      c('customerName', '客户'),
      c('materialName', '产品'),
      c('orderNo', '销售订单'),
    ],
    docResource: 'stock-outbound',
  },
  {
    name: 'purchase-report',
    title: '采购报表',
    route: `${FIN}/purchase-report`,
    permission: 'finance:purchaseReport',
    filters: [
      range('入库日期'),
      ref('supplierId', '供应商', 'supplier'),
      ref('materialId', '物料', 'material-info'),
    ],
    groups: [MONTH, { value: 'supplier', label: '按供应商' }, { value: 'material', label: '按物料' }],
    measures: [
      m('quantity', '入库数量(净)', 'quantity', { perUnit: true }),
      m('amount', '采购金额(元)', 'money', { chart: 'bar' }),
      m('returnAmount', '退货金额(元)', 'money', { chart: 'bar' }),
      m('netAmount', '净采购额(元)', 'money'),
    ],
    detail: [
      c('docNo', '单号'),
      c('day', '日期', 'date'),
      c('kindLabel', '类型'),
      c('supplierName', '供应商'),
      c('materialName', '物料'),
      c('orderNo', '采购订单'),
    ],
  },
  {
    name: 'production-report',
    title: '生产报表',
    route: `${FIN}/production-report`,
    permission: 'finance:productionReport',
    filters: [range('计划开工日期'), ref('materialId', '产品', 'material-info')],
    groups: [{ value: 'order', label: '按生产订单' }, { value: 'material', label: '按产品' }, MONTH],
    measures: [
      m('planned', '计划数量', 'quantity', { perUnit: true }),
      m('produced', '完工数量', 'quantity', { chart: 'bar', perUnit: true }),
      m('materialCost', '材料成本(元)', 'money', { chart: 'bar' }),
      m('laborCost', '计件人工(元)', 'money', { chart: 'bar' }),
      m('totalCost', '总成本(元)', 'money'),
      m('completion', '完工率(%)', 'percent', { ratio: ['produced', 'planned'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '生产订单'),
      c('day', '计划开工', 'date'),
      c('materialName', '产品'),
      c('statusLabel', '状态'),
    ],
    docResource: 'production-order',
  },
  {
    name: 'cost-variance',
    title: '成本差异',
    route: `${FIN}/cost-variance`,
    permission: 'finance:costVariance',
    filters: [range('完工入库日期'), ref('materialId', '产品', 'material-info')],
    groups: [{ value: 'order', label: '按生产订单' }, { value: 'material', label: '按产品' }, MONTH],
    measures: [
      m('produced', '完工数量', 'quantity', { perUnit: true }),
      m('standardTotal', '标准成本(元)', 'money', { chart: 'bar' }),
      m('actualTotal', '实际成本(元)', 'money', { chart: 'bar' }),
      m('materialVariance', '材料差异(元)', 'money'),
      m('labourVariance', '人工差异(元)', 'money'),
      m('outsourcingVariance', '委外差异(元)', 'money'),
      m('overheadVariance', '制造费用差异(元)', 'money'),
      m('totalVariance', '总差异(元)', 'money'),
      m('varianceRate', '差异率(%)', 'percent', { ratio: ['totalVariance', 'standardTotal'], chart: 'line' }),
    ],
    detail: [c('docNo', '生产订单'), c('day', '完工入库', 'date'), c('materialName', '产品')],
    docResource: 'production-order',
  },
  {
    name: 'product-cost',
    title: '产品成本',
    route: `${FIN}/product-cost`,
    permission: 'finance:productCost',
    filters: [range('入库日期'), ref('materialId', '产品', 'material-info')],
    groups: [
      MONTH,
      { value: 'material', label: '按产品' },
      { value: 'materialMonth', label: '按产品和月份' },
    ],
    measures: [
      m('produced', '完工入库数量', 'quantity', { perUnit: true }),
      m('totalCost', '总成本(元)', 'money'),
      m('unitCost', '单位成本(元)', 'money', { per: ['totalCost', 'produced'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '入库单号'),
      c('day', '入库日期', 'date'),
      c('materialName', '产品'),
      c('orderNo', '生产订单'),
    ],
    docResource: 'stock-inbound',
  },
  {
    name: 'inventory-report',
    title: '库存报表',
    route: `${FIN}/inventory-report`,
    permission: 'finance:inventoryReport',
    filters: [
      { name: 'date', label: '截止日期', kind: 'date' },
      ref('warehouseId', '仓库', 'warehouse-management'),
      ref('materialTypeId', '物料类型', 'material-type'),
    ],
    groups: [
      { value: 'warehouse', label: '按仓库' },
      { value: 'materialType', label: '按物料类型' },
      { value: 'material', label: '按物料' },
    ],
    measures: [
      m('quantity', '库存数量', 'quantity', { perUnit: true }),
      m('value', '库存金额(元)', 'money', { chart: 'bar' }),
    ],
    detail: [
      c('materialCode', '物料编码'),
      c('materialName', '物料'),
      c('materialTypeName', '物料类型'),
      c('warehouseName', '仓库'),
    ],
  },
  {
    name: 'job-booking',
    title: '报工统计',
    route: `${FIN}/job-booking`,
    permission: 'finance:jobBooking',
    filters: [
      range('报工日期'),
      ref('operatorId', '操作工', 'user'),
      ref('processId', '工序', 'process-manage'),
    ],
    groups: [
      { value: 'operator', label: '按操作工' },
      { value: 'process', label: '按工序' },
      { value: 'workshop', label: '按车间' },
      MONTH,
    ],
    measures: [
      m('reports', '报工单数', 'int'),
      m('good', '合格数', 'quantity', { chart: 'bar', perUnit: true }),
      m('workScrap', '工废数', 'quantity', { chart: 'bar', perUnit: true }),
      m('materialScrap', '料废数', 'quantity', { perUnit: true }),
      m('rework', '返工数', 'quantity', { perUnit: true }),
      m('hours', '工时', 'quantity'),
      m('wage', '计件工资(元)', 'money'),
      m('passRate', '合格率(%)', 'percent', { ratio: ['good', 'output'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '报工单号'),
      c('day', '报工日期', 'date'),
      c('operatorName', '操作工'),
      c('processName', '工序'),
      c('materialName', '产品'),
      c('statusLabel', '状态'),
    ],
    docResource: 'work-report',
  },
  {
    name: 'work-order',
    title: '工单统计',
    route: `${FIN}/work-order`,
    permission: 'finance:workOrder',
    filters: [range('计划开工日期'), ref('materialId', '产品', 'material-info')],
    groups: [{ value: 'status', label: '按状态' }, { value: 'material', label: '按产品' }, MONTH],
    measures: [
      m('orders', '工单数', 'int', { chart: 'bar' }),
      m('planned', '计划数量', 'quantity', { perUnit: true }),
      m('produced', '完工数量', 'quantity', { perUnit: true }),
      m('late', '逾期工单', 'int', { chart: 'bar' }),
      m('completion', '完工率(%)', 'percent', { ratio: ['produced', 'planned'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '生产订单'),
      c('day', '计划开工', 'date'),
      c('dueDate', '交期', 'date'),
      c('materialName', '产品'),
      c('statusLabel', '状态'),
    ],
    docResource: 'production-order',
  },
  {
    name: 'production-statistics',
    title: '生产统计',
    route: `${FIN}/production-statistics`,
    permission: 'finance:productionStatistics',
    filters: [range('报工日期'), ref('materialId', '产品', 'material-info')],
    groups: [
      { value: 'day', label: '按日' },
      { value: 'workshop', label: '按车间' },
      { value: 'material', label: '按产品' },
      MONTH,
    ],
    measures: [
      m('good', '产出合格数', 'quantity', { chart: 'bar', perUnit: true }),
      m('scrap', '废品数', 'quantity', { chart: 'bar', perUnit: true }),
      m('rework', '返工数', 'quantity', { perUnit: true }),
      m('yield', '良率(%)', 'percent', { ratio: ['good', 'output'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '报工单号'),
      c('day', '报工日期', 'date'),
      c('workshopName', '车间'),
      c('processName', '工序'),
      c('materialName', '产品'),
    ],
    docResource: 'work-report',
  },
  {
    name: 'production-line',
    title: '产线统计',
    route: `${FIN}/production-line`,
    permission: 'finance:productionLine',
    filters: [range('报工日期'), ref('lineId', '产线', 'production-line')],
    groups: [{ value: 'line', label: '按产线' }, { value: 'equipment', label: '按设备' }, MONTH],
    measures: [
      m('reports', '报工单数', 'int'),
      m('good', '合格数', 'quantity', { chart: 'bar', perUnit: true }),
      m('scrap', '废品数', 'quantity', { chart: 'bar', perUnit: true }),
      m('hours', '工时', 'quantity'),
      m('yield', '良率(%)', 'percent', { ratio: ['good', 'output'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '报工单号'),
      c('day', '报工日期', 'date'),
      c('lineName', '产线'),
      c('equipmentName', '设备'),
      c('processName', '工序'),
    ],
    docResource: 'work-report',
  },
  {
    name: 'equipment-inspection',
    title: '设备点检统计',
    route: `${FIN}/equipment-inspection`,
    permission: 'finance:equipmentInspection',
    filters: [range('点检日期'), ref('equipmentId', '设备', 'equipment')],
    groups: [{ value: 'equipment', label: '按设备' }, { value: 'checker', label: '按点检人' }, MONTH],
    measures: [
      m('records', '点检次数', 'int', { chart: 'bar' }),
      m('ng', '异常次数', 'int', { chart: 'bar' }),
      m('ngItems', '异常项数', 'int'),
      m('ngRate', '异常率(%)', 'percent', { ratio: ['ng', 'records'], chart: 'line' }),
    ],
    detail: [
      c('docNo', '点检单号'),
      c('day', '点检日期', 'date'),
      c('equipmentName', '设备'),
      c('checkerName', '点检人'),
      c('resultLabel', '结果'),
    ],
    docResource: 'inspection-record',
  },
  {
    name: 'equipment-maintenance',
    title: '设备保养统计',
    route: `${FIN}/equipment-maintenance`,
    permission: 'finance:equipmentMaintenance',
    filters: [range('保养日期'), ref('equipmentId', '设备', 'equipment')],
    groups: [{ value: 'equipment', label: '按设备' }, { value: 'person', label: '按保养人' }, MONTH],
    measures: [
      m('records', '保养次数', 'int', { chart: 'bar' }),
      m('minutes', '保养时长(分钟)', 'int', { chart: 'line' }),
    ],
    detail: [
      c('docNo', '保养单号'),
      c('day', '保养日期', 'date'),
      c('equipmentName', '设备'),
      c('personName', '保养人'),
      c('content', '保养内容'),
    ],
    docResource: 'maintenance-record',
  },
];

const BY_NAME = new Map(FINANCE_REPORTS.map((r) => [r.name, r]));
export const financeReport = (name: string) => BY_NAME.get(name);
