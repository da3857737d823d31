/**
 * The eight production reports (生产部 › 统计报表) as declarations: which filters a report takes,
 * its columns (and which are totalled), its chart and where a row drills down to. One server
 * module answers every report by name (`GET /api/v1/production-report/{name}`, `…/export`), and
 * one web page draws any of them from its declaration.
 */

/** The filters a report may take: 期间 (a date or month range), 车间, 产品, 操作工, 工序. */
export type ProductionReportFilter = 'period' | 'workshop' | 'product' | 'worker' | 'process';

export type ReportColumnKind = 'text' | 'int' | 'quantity' | 'hours' | 'minutes' | 'rate' | 'status';

export interface ProductionReportColumn {
  key: string;
  label: string;
  kind: ReportColumnKind;
  /** Shown in the totals row: summed by the server (rates recomputed from the sums). */
  total?: boolean;
  /** Opens the record: a flow card (row.flowCardId), a production order (row.productionOrderId). */
  link?: 'flowCard' | 'productionOrder';
  width?: number;
}

export interface ProductionReportChart {
  title: string;
  /** Drawn from the answer's rows, or from its `series` (a grouping the server computes for the chart). */
  source: 'rows' | 'series';
  /** The category axis: a key of the rows / series. */
  category: string;
  /**
   * Bars on the left axis, or on the right one (`axis: 'right'`) when they count something else
   * (流转卡报表: 卡数 in cards on the left, 数量 in pieces on the right — never on one axis).
   */
  bars: { key: string; label: string; stack?: string; axis?: 'right' }[];
  /** The axes' names (their unit) when the bars count two things. */
  axisNames?: { left: string; right: string };
  /** A line on the right axis, in % (a chart has right-hand bars or a line, not both). */
  line?: { key: string; label: string };
  /** At most this many categories (the first ones, as the server orders them). */
  limit?: number;
}

/**
 * Where a row leads: the underlying work reports (报工记录 with the row's filters: a map of work
 * report filter → row key, a key missing on the row is left out; 报工日期 is the row's `month` when
 * it has one, else the report's period), and/or another report (the flow cards behind a row:
 * report name and a map of its parameter → row key).
 */
export interface ProductionReportDrill {
  workReports?: Record<string, string>;
  /** Work-report filters taken from the report's own filters (productId → productId …). */
  workReportsFromFilters?: Partial<Record<ProductionReportFilter, string>>;
  cards?: { report: string; params: Record<string, string>; groupBy?: string };
}

export interface ProductionReportDef {
  /** Route segment and API name. */
  name: string;
  title: string;
  /** Permission resource: `${permission}:query` reads, `${permission}:export` exports. */
  permission: string;
  /** One sentence under the title: what the figures are and where they come from. */
  description: string;
  filters: ProductionReportFilter[];
  /**
   * What the 期间 filter picks: 'day' (default) any range of days (factory time), 'month' whole
   * months (the monthly capacity analyses, whose figures are per month).
   */
  periodUnit?: 'day' | 'month';
  /** Alternative groupings (a segmented control); the first is the default. */
  groupBy?: { value: string; label: string }[];
  /** Paged on the server (card lists); otherwise every row comes at once. */
  paged?: boolean;
  /** The row key identifying a row (the table's key). */
  rowKey: string;
  columns: ProductionReportColumn[];
  chart?: ProductionReportChart;
  drill?: ProductionReportDrill;
}

export const PRODUCTION_REPORT_BASE = '/production-department/statisticalStatement';

const q = (key: string, label: string, total = true): ProductionReportColumn => ({
  key,
  label,
  kind: 'quantity',
  total,
});
const rate = (key: string, label: string): ProductionReportColumn => ({
  key,
  label,
  kind: 'rate',
  total: true,
});

const OUTPUT_DRILL: ProductionReportDrill['workReportsFromFilters'] = {
  product: 'productId',
  worker: 'operatorId',
  process: 'processId',
};

export const PRODUCTION_REPORTS: readonly ProductionReportDef[] = [
  {
    name: 'processFlowCardReport',
    title: '流转卡报表',
    permission: 'production:flowCard',
    description:
      '按开卡日期列出流转卡及其工序进度：已完成工序、当前工序与车间、完工数与废品；点卡号看流转卡，点报工看该卡的报工单。',
    filters: ['period', 'workshop', 'product', 'worker'],
    paged: true,
    rowKey: 'flowCardId',
    columns: [
      { key: 'docNo', label: '流转卡号', kind: 'text', link: 'flowCard', width: 150 },
      { key: 'orderNo', label: '生产订单', kind: 'text', link: 'productionOrder', width: 150 },
      { key: 'productName', label: '产品', kind: 'text', width: 180 },
      { key: 'status', label: '状态', kind: 'status', width: 80 },
      { key: 'openedOn', label: '开卡日期', kind: 'text', width: 110 },
      q('quantity', '卡数量'),
      { key: 'stepsDone', label: '已完成工序', kind: 'text', width: 100 },
      { key: 'currentStep', label: '当前工序', kind: 'text', width: 160 },
      { key: 'currentWorkshop', label: '当前车间', kind: 'text', width: 110 },
      q('waitingQuantity', '当前工序在制'),
      q('finishedQuantity', '完工数'),
      q('scrapQuantity', '废品数'),
      rate('progressRate', '完工进度'),
    ],
    chart: {
      title: '流转卡按状态',
      source: 'series',
      category: 'label',
      bars: [
        { key: 'cards', label: '卡数' },
        { key: 'quantity', label: '数量', axis: 'right' },
      ],
      axisNames: { left: '卡数（张）', right: '数量' },
    },
    drill: { workReports: { flowCardId: 'flowCardId' } },
  },
  {
    name: 'flowCardByWorkShopPage',
    title: '车间流转卡报表',
    permission: 'production:flowCardByWorkshop',
    description:
      '各车间此刻的在制流转卡与在制数量（卡在该车间工序上等待加工的件数），以及期间内的报工产出与合格率。',
    filters: ['period', 'workshop', 'product', 'worker'],
    rowKey: 'workshopId',
    columns: [
      { key: 'workshopName', label: '车间', kind: 'text', width: 140 },
      { key: 'openCards', label: '在制卡数', kind: 'int', total: true },
      q('waitingQuantity', '在制数量'),
      { key: 'reportCount', label: '期间报工数', kind: 'int', total: true },
      q('goodQuantity', '期间合格'),
      q('workScrapQuantity', '工废'),
      q('materialScrapQuantity', '料废'),
      rate('yieldRate', '合格率'),
    ],
    chart: {
      title: '各车间在制与期间产出',
      source: 'rows',
      category: 'workshopName',
      bars: [
        { key: 'waitingQuantity', label: '在制数量' },
        { key: 'goodQuantity', label: '期间合格' },
      ],
      line: { key: 'yieldRate', label: '合格率' },
    },
    drill: {
      workReports: { workshopType: 'workshopType' },
      workReportsFromFilters: OUTPUT_DRILL,
      cards: { report: 'processFlowCardReport', params: { atWorkshopId: 'workshopId' } },
    },
  },
  {
    name: 'flowCardBySalesAndWorkshopPage',
    title: '订单车间流转卡报表',
    permission: 'production:flowCardBySalesWorkshop',
    description:
      '按销售订单（订单日期在期间内）看其流转卡的件数此刻在哪个车间：各车间在制、委外在外、已完工入库。',
    filters: ['period', 'product'],
    paged: true,
    rowKey: 'saleOrderId',
    columns: [
      { key: 'saleOrderNo', label: '销售订单', kind: 'text', width: 150 },
      { key: 'customerName', label: '客户', kind: 'text', width: 160 },
      { key: 'deliveryDate', label: '交货日期', kind: 'text', width: 110 },
      { key: 'cards', label: '流转卡数', kind: 'int', total: true },
      q('cardQuantity', '开卡数量'),
      q('machine', '车加工在制'),
      q('grinding', '磨加工在制'),
      q('inspect', '检测在制'),
      q('assembly', '装配在制'),
      q('outsourced', '委外在外'),
      q('finished', '已完工'),
      q('scrap', '废品'),
    ],
    chart: {
      title: '订单件数所在车间',
      source: 'rows',
      category: 'saleOrderNo',
      limit: 20,
      bars: [
        { key: 'machine', label: '车加工', stack: 'where' },
        { key: 'grinding', label: '磨加工', stack: 'where' },
        { key: 'inspect', label: '检测', stack: 'where' },
        { key: 'assembly', label: '装配', stack: 'where' },
        { key: 'outsourced', label: '委外', stack: 'where' },
        { key: 'finished', label: '已完工', stack: 'where' },
      ],
    },
    drill: { cards: { report: 'processFlowCardReport', params: { saleOrderId: 'saleOrderId' } } },
  },
  {
    name: 'analyzeMonthlyProcessCapacity',
    title: '工序月产能分析',
    permission: 'production:processCapacity',
    description:
      '每道工序每月的产出对比产能：产能(分钟) = 工序所属车间在用设备台数 × 当月工作日(周一至周六) × 班次 480 分钟；产能(件) = 产能分钟 ÷ 工序标准工时；利用率 = 产出标准工时 ÷ 产能分钟。',
    periodUnit: 'month',
    filters: ['period', 'workshop', 'product', 'worker', 'process'],
    rowKey: 'key',
    columns: [
      { key: 'month', label: '月份', kind: 'text', width: 90 },
      { key: 'processName', label: '工序', kind: 'text', width: 140 },
      { key: 'workshopName', label: '车间', kind: 'text', width: 110 },
      { key: 'equipmentCount', label: '设备台数', kind: 'int' },
      { key: 'workDays', label: '工作日', kind: 'int' },
      q('goodQuantity', '产出(合格)'),
      q('capacityQuantity', '产能(件)'),
      { key: 'earnedMinutes', label: '产出标准工时(分)', kind: 'minutes', total: true },
      { key: 'capacityMinutes', label: '产能(分钟)', kind: 'minutes', total: true },
      { key: 'hours', label: '报工工时', kind: 'hours', total: true },
      rate('utilisationRate', '利用率'),
    ],
    chart: {
      title: '工序产出与产能',
      source: 'series',
      category: 'label',
      bars: [
        { key: 'earnedMinutes', label: '产出标准工时(分)' },
        { key: 'capacityMinutes', label: '产能(分钟)' },
      ],
      line: { key: 'utilisationRate', label: '利用率' },
    },
    drill: { workReports: { processId: 'processId' }, workReportsFromFilters: OUTPUT_DRILL },
  },
  {
    name: 'analyzeMonthlyWorkerCapacity',
    title: '员工月产能分析',
    permission: 'production:workerCapacity',
    description:
      '每位操作工每月的产出：产出标准工时 = Σ 合格数 × 标准工时；可用工时 = 当月工作日 × 480 分钟；利用率 = 产出标准工时 ÷ 可用工时；效率 = 产出标准工时 ÷ 报工工时。',
    periodUnit: 'month',
    filters: ['period', 'workshop', 'product', 'worker', 'process'],
    rowKey: 'key',
    columns: [
      { key: 'month', label: '月份', kind: 'text', width: 90 },
      { key: 'operatorName', label: '操作工', kind: 'text', width: 120 },
      { key: 'reportCount', label: '报工数', kind: 'int', total: true },
      q('goodQuantity', '合格数'),
      q('scrapQuantity', '废品数'),
      { key: 'hours', label: '报工工时', kind: 'hours', total: true },
      { key: 'earnedMinutes', label: '产出标准工时(分)', kind: 'minutes', total: true },
      { key: 'availableMinutes', label: '可用工时(分)', kind: 'minutes', total: true },
      rate('utilisationRate', '利用率'),
      rate('efficiencyRate', '效率'),
    ],
    chart: {
      title: '操作工产出标准工时与可用工时',
      source: 'series',
      category: 'label',
      limit: 30,
      bars: [
        { key: 'earnedMinutes', label: '产出标准工时(分)' },
        { key: 'availableMinutes', label: '可用工时(分)' },
      ],
      line: { key: 'utilisationRate', label: '利用率' },
    },
    drill: { workReports: { operatorId: 'operatorId' }, workReportsFromFilters: OUTPUT_DRILL },
  },
  {
    name: 'productionTotal',
    title: '生产汇总',
    permission: 'production:productionTotal',
    description: '已入账报工的合格、工废、料废、返工与工时，按月份、车间、工序、产品或操作工汇总。',
    filters: ['period', 'workshop', 'product', 'worker', 'process'],
    groupBy: [
      { value: 'month', label: '按月份' },
      { value: 'workshop', label: '按车间' },
      { value: 'process', label: '按工序' },
      { value: 'product', label: '按产品' },
      { value: 'worker', label: '按操作工' },
    ],
    rowKey: 'key',
    columns: [
      { key: 'label', label: '分组', kind: 'text', width: 180 },
      { key: 'code', label: '编码', kind: 'text', width: 120 },
      { key: 'reportCount', label: '报工数', kind: 'int', total: true },
      q('goodQuantity', '合格数'),
      q('workScrapQuantity', '工废'),
      q('materialScrapQuantity', '料废'),
      q('reworkQuantity', '返工数'),
      { key: 'hours', label: '工时', kind: 'hours', total: true },
      rate('yieldRate', '合格率'),
    ],
    chart: {
      title: '合格与废品',
      source: 'rows',
      category: 'label',
      limit: 30,
      bars: [
        { key: 'goodQuantity', label: '合格数' },
        { key: 'workScrapQuantity', label: '工废', stack: 'scrap' },
        { key: 'materialScrapQuantity', label: '料废', stack: 'scrap' },
      ],
      line: { key: 'yieldRate', label: '合格率' },
    },
    drill: {
      workReports: {
        processId: 'processId',
        productId: 'productId',
        operatorId: 'operatorId',
        workshopType: 'workshopType',
      },
      workReportsFromFilters: OUTPUT_DRILL,
    },
  },
  {
    name: 'listInProgressRequirement',
    title: '在制需求',
    permission: 'production:inProgressRequirement',
    description:
      '已下达、生产中的生产订单尚未领料的物料需求，对比合格库存、在制（自制件的未完工生产订单）与在途（未到货采购订单）：缺口 = 未领 − 库存 − 在制 − 在途。期间按计划开工日期。',
    filters: ['period', 'product'],
    groupBy: [
      { value: 'material', label: '按物料' },
      { value: 'order', label: '按订单' },
    ],
    // Paged (biggest shortage first): a factory has hundreds of materials short at a time; the
    // chart shows the page's first 15, on page 1 the 15 biggest shortages.
    paged: true,
    rowKey: 'key',
    columns: [
      { key: 'orderNo', label: '生产订单', kind: 'text', link: 'productionOrder', width: 150 },
      { key: 'materialCode', label: '物料编码', kind: 'text', width: 130 },
      { key: 'materialName', label: '物料名称', kind: 'text', width: 170 },
      { key: 'orders', label: '订单数', kind: 'int', total: true },
      q('requiredQuantity', '需求'),
      q('issuedQuantity', '已领'),
      q('openQuantity', '未领'),
      q('stockQuantity', '合格库存', false),
      q('inProductionQuantity', '在制', false),
      q('inTransitQuantity', '在途', false),
      q('shortageQuantity', '缺口'),
    ],
    chart: {
      title: '未领需求与库存（前 15）',
      source: 'rows',
      category: 'materialName',
      limit: 15,
      bars: [
        { key: 'openQuantity', label: '未领' },
        { key: 'stockQuantity', label: '合格库存' },
        { key: 'shortageQuantity', label: '缺口' },
      ],
    },
    drill: {
      cards: { report: 'listInProgressRequirement', params: { materialId: 'materialId' }, groupBy: 'order' },
    },
  },
  {
    name: 'workerRejectStats',
    title: '员工废品统计',
    permission: 'production:workerReject',
    description:
      '每位操作工的废品按类别（工废：操作原因；料废：来料原因）和原因统计；废品率 = 废品 ÷ 该操作工期间报工的合格 + 废品。',
    filters: ['period', 'workshop', 'product', 'worker', 'process'],
    rowKey: 'key',
    columns: [
      { key: 'operatorName', label: '操作工', kind: 'text', width: 120 },
      { key: 'reasonLabel', label: '废品原因', kind: 'text', width: 170 },
      q('workScrapQuantity', '工废'),
      q('materialScrapQuantity', '料废'),
      q('scrapQuantity', '废品合计'),
      q('outputQuantity', '操作工产出(合格+废品)', false),
      rate('scrapRate', '废品率'),
    ],
    chart: {
      title: '操作工废品（工废 / 料废）',
      source: 'series',
      category: 'label',
      limit: 30,
      bars: [
        { key: 'workScrapQuantity', label: '工废', stack: 'scrap' },
        { key: 'materialScrapQuantity', label: '料废', stack: 'scrap' },
      ],
      line: { key: 'scrapRate', label: '废品率' },
    },
    drill: {
      workReports: { operatorId: 'operatorId', scrapReason: 'scrapReason' },
      workReportsFromFilters: { product: 'productId', process: 'processId' },
    },
  },
];

export function productionReport(name: string): ProductionReportDef | undefined {
  return PRODUCTION_REPORTS.find((r) => r.name === name);
}
