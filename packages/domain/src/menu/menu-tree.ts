/**
 * The seeded menu of RingMES (spec §2 "Screens and routes"). The server seeds its `menu` table
 * from this tree; the web app takes route titles and active-menu highlighting from it.
 *
 * Conventions chosen where the spec is terse:
 * - Every directory and page carries its absolute path. A page path is the spec route under its
 *   department prefix; sub-directories are menu groups, never routed. A directory's path is the
 *   segment the spec groups its routes under (e.g. /production-department/production-manage/machine).
 *   Where that segment is itself a page (/warehouse-logistics/warehouse-manage and outbound-manage
 *   are the inbound and outbound lists) or the spec names no segment (the four per-workshop
 *   quality groups), the directory gets a key of its own (/warehouse-logistics/inbound,
 *   /quality-testing/lathe-machining, …) and its pages keep their spec paths.
 * - "X with add, edit and detail" gives the hidden pages X-add, X-edit, X-detail, where X is the
 *   list segment without a trailing -manage/-list/-index (material-list → material-add,
 *   supplier-manage → supplier-add); "X with -detail" appends to the full segment
 *   (equipment-ledger-detail). The warehouse transfer "panel for add/edit" is
 *   warehouse-allot-panel; produce-outsourcing/info keeps the spec's nested form.
 * - /system/user/manage and the other two-segment /system routes are pages directly under 系统管理
 *   (a one-page directory per module would add nothing to the menu).
 * - Every "statistics group" is a directory with the segment statisticalStatement, the name the
 *   spec gives the purchase one: /sale-manage/statisticalStatement/salesReport,
 *   /purchase/purchase-manage/statisticalStatement/purchaseReport and the eight production reports
 *   under /production-department/statisticalStatement.
 * - Each workshop group (machine, grinding, inspect-workshop, assembly-workshop) has the task list,
 *   the dispatch list (visible; 派工 is a button on the task list), dispatch-info (hidden, under the
 *   dispatch list), the panel, plan, operator-task with the two hidden process-task-sheet pages,
 *   workshop-operator-task, report-work and semi-manufactures; the turning workshop also has
 *   add-report-work (hidden) and workshop-report-record, which the spec lists only for it.
 * - Each of the five inbound and five outbound document kinds is a visible list (filtered by kind)
 *   with its own permissions and hidden -add/-edit/-detail pages; the overall lists keep
 *   warehouse:inbound:* and warehouse:outbound:*.
 * - Hidden pages (add/edit/detail/info/view/…) are siblings of their list page with
 *   activeMenu = the list page's path. 首页 carries no permission: every signed-in user sees it.
 * - Permissions are area:resource:action. Lists and documents use :list, reports and dashboards
 *   use :query; buttons carry the actions.
 */
import { WORKSHOP_KINDS, type WorkshopKind } from '../production/workshops.ts';
import type { MenuNode } from './types.ts';

const ACTION_NAMES = {
  add: '新增',
  edit: '编辑',
  delete: '删除',
  export: '导出',
  import: '导入',
  approve: '审核',
  unapprove: '反审核',
  post: '过账',
  reverse: '冲销',
  close: '关闭',
  dispatch: '派工',
  release: '下达',
  report: '报工',
  start: '开工',
  inspect: '检验',
  ship: '发货',
  enable: '启用',
  disable: '停用',
  resetPwd: '重置密码',
} as const;

/** A button action: a key of ACTION_NAMES, or [action, Chinese name] where the name differs. */
type Action = keyof typeof ACTION_NAMES | readonly [action: string, name: string];

function buttons(resource: string, actions: readonly Action[]): MenuNode[] {
  return actions.map((action) => {
    const [key, name] = typeof action === 'string' ? [action, ACTION_NAMES[action]] : action;
    return { type: '3', name, permission: `${resource}:${key}` };
  });
}

function dir(name: string, path: string, icon: string, children: MenuNode[]): MenuNode {
  return { type: '1', name, path, icon, children };
}

function page(
  name: string,
  path: string,
  permission: string,
  resource: string,
  actions: readonly Action[],
): MenuNode {
  const node: MenuNode = { type: '2', name, path, permission };
  if (actions.length > 0) node.children = buttons(resource, actions);
  return node;
}

/** A visible list or document page: permission `resource:list`, one button per action. */
function list(name: string, path: string, resource: string, actions: readonly Action[]): MenuNode {
  return page(name, path, `${resource}:list`, resource, actions);
}

/** A visible report or dashboard: permission `resource:query`, by default an export button. */
function query(
  name: string,
  path: string,
  resource: string,
  actions: readonly Action[] = ['export'],
): MenuNode {
  return page(name, path, `${resource}:query`, resource, actions);
}

/** A page reached from a list (add/edit/detail…): hidden, highlighting that list. */
function hidden(name: string, path: string, activeMenu: string): MenuNode {
  return { type: '2', name, path, hidden: true, activeMenu };
}

const CRUD: readonly Action[] = ['add', 'edit', 'delete', 'export'];
const DICT: readonly Action[] = ['add', 'edit', 'delete'];
/** Master-data dictionaries: the resource kit also exports them to Excel. */
const DICT_EXPORT: readonly Action[] = ['add', 'edit', 'delete', 'export'];

// ---------------------------------------------------------------- 首页

const HOME = '/home';

const home = dir('首页', HOME, 'HomeOutlined', [
  { type: '2', name: '首页', path: `${HOME}/info`, affix: true, noCache: true },
]);

// ---------------------------------------------------------------- 销售管理

const SALE = '/sale-manage';
const SALE_ORDER = `${SALE}/sale-order`;
const STOCK_UP = `${SALE}/inventory-manage`;

const sale = dir('销售管理', SALE, 'ShoppingCartOutlined', [
  list('销售订单', SALE_ORDER, 'sale:order', [
    'add',
    'edit',
    'delete',
    'approve',
    'unapprove',
    'close',
    'export',
    ['overCredit', '超信用审核'],
  ]),
  hidden('新增销售订单', `${SALE}/sale-order-add`, SALE_ORDER),
  hidden('编辑销售订单', `${SALE}/sale-order-edit`, SALE_ORDER),
  hidden('销售订单详情', `${SALE}/sale-order-detail`, SALE_ORDER),
  list('销售仓库', `${SALE}/sales-warehouse`, 'sale:warehouse', ['ship', ['return', '退货'], 'export']),
  list('备货管理', STOCK_UP, 'sale:stockUp', [
    'add',
    'edit',
    'delete',
    'approve',
    'unapprove',
    'close',
    'export',
  ]),
  hidden('新增备货单', `${SALE}/stock-up-add`, STOCK_UP),
  hidden('编辑备货单', `${SALE}/stock-up-edit`, STOCK_UP),
  hidden('备货单详情', `${SALE}/stock-up-detail`, STOCK_UP),
  dir('销售统计', `${SALE}/statisticalStatement`, 'LineChartOutlined', [
    query('销售统计报表', `${SALE}/statisticalStatement/salesReport`, 'sale:report'),
  ]),
]);

// ---------------------------------------------------------------- 生产部

const PROD = '/production-department';
const PROD_MANAGE = `${PROD}/production-manage`;
const REQUISITION = `${PROD}/buying-requisition`;
const PRODUCTION_ORDER = `${PROD_MANAGE}/production-order`;
const WORK_REPORT_RECORD = `${PROD_MANAGE}/work-report-record`;
const PRODUCE_OUTSOURCING = `${PROD}/produce-outsourcing`;
const PROD_STATS = `${PROD}/statisticalStatement`;

/**
 * 装配车间 › 选配 (issue 38 §4): size groups of the measured rings in stock, the matching proposal
 * for a bearing and clearance group and its acceptance; 选配合格率 by month.
 */
function matchingPages(at: (segment: string) => string, res: (name: string) => string): MenuNode[] {
  return [
    list('选配', at('ring-matching'), res('Matching'), [['accept', '接受方案']]),
    query('选配合格率', at('ring-matching-yield'), res('MatchingYield')),
  ];
}

function workshop(w: WorkshopKind): MenuNode {
  const base = `${PROD_MANAGE}/${w.segment}`;
  const at = (segment: string) => `${base}/${segment}`;
  const res = (name: string) => `production:${w.resource}${name}`;
  const reportRecords: MenuNode[] = w.reportRecords
    ? [
        hidden('新增报工', at('add-report-work'), at('report-work')),
        list('车间报工记录', at('workshop-report-record'), res('ReportRecord'), ['export']),
      ]
    : [];
  return dir(w.name, base, w.icon, [
    list(`${w.label}任务`, at(w.task), res('Task'), ['dispatch', 'close', 'export']),
    list(`${w.label}派工`, at(w.dispatch), res('Dispatch'), ['add', 'edit', 'delete', 'close', 'export']),
    hidden('派工信息', at('dispatch-info'), at(w.dispatch)),
    query(`${w.label}看板`, at(w.panel), res('Panel'), []),
    list('排产计划', at('plan'), res('Plan'), ['edit', 'export']),
    list('操作工任务', at('operator-task'), res('OperatorTask'), ['start', 'report']),
    hidden('工序任务单新增', at('process-task-sheet-add'), at('operator-task')),
    hidden('工序任务单开工', at('process-task-sheet-start'), at('operator-task')),
    list('车间操作工任务', at('workshop-operator-task'), res('WorkshopOperatorTask'), ['export']),
    list('报工', at('report-work'), res('Report'), [
      'add',
      'edit',
      'delete',
      'approve',
      'unapprove',
      // A workshop's own quality lead may be granted it; the demo gives it to 质检员 on 报工记录 only.
      ['inspectOverride', '越过检验入账'],
      'export',
    ]),
    ...reportRecords,
    list('半成品', at('semi-manufactures'), res('Semi'), ['export']),
    ...(w.type === 'assembly' ? matchingPages(at, res) : []),
  ]);
}

const production = dir('生产部', PROD, 'ToolOutlined', [
  list('请购单', REQUISITION, 'production:requisition', [
    'add',
    'edit',
    'delete',
    'approve',
    'unapprove',
    'close',
    'export',
  ]),
  hidden('新增请购单', `${REQUISITION}-add`, REQUISITION),
  hidden('编辑请购单', `${REQUISITION}-edit`, REQUISITION),
  hidden('请购单详情', `${REQUISITION}-detail`, REQUISITION),
  dir('生产管理', PROD_MANAGE, 'ProfileOutlined', [
    list('生产订单', PRODUCTION_ORDER, 'production:order', [
      'add',
      'edit',
      'delete',
      'release',
      ['unrelease', '反下达'],
      'start',
      ['complete', '完工'],
      ['dispatch', '派单'],
      'close',
      'export',
      // 成本: the order's actual cost (material, wages, outsourcing, overhead, scrap) on its detail.
      ['cost', '成本'],
    ]),
    hidden('新增生产订单', `${PROD_MANAGE}/produce-order-add`, PRODUCTION_ORDER),
    hidden('编辑生产订单', `${PROD_MANAGE}/produce-order-edit`, PRODUCTION_ORDER),
    hidden('生产订单派单', `${PROD_MANAGE}/produce-order-dispatch`, PRODUCTION_ORDER),
    hidden('生产订单详情', `${PROD_MANAGE}/produce-order-detail`, PRODUCTION_ORDER),
    // One order's MRP sheet (`?id=`), opened from the order.
    hidden('生产订单MRP', `${PROD_MANAGE}/produce-order-mrp`, PRODUCTION_ORDER),
    // 越过检验入账: posts a 待检验 report without its inspection's result (quality's call, not the workshop's).
    list('报工记录', WORK_REPORT_RECORD, 'production:reportRecord', [
      'export',
      ['inspectOverride', '越过检验入账'],
    ]),
    hidden('报工记录详情', `${WORK_REPORT_RECORD}-detail`, WORK_REPORT_RECORD),
    ...WORKSHOP_KINDS.map(workshop),
  ]),
  list('生产委外', PRODUCE_OUTSOURCING, 'production:outsourcing', [
    'add',
    'edit',
    'delete',
    'approve',
    'close',
    'export',
  ]),
  hidden('生产委外详情', `${PRODUCE_OUTSOURCING}/info`, PRODUCE_OUTSOURCING),
  // 「运算」 over every open sales order; 生成请购单 and 生成自制件订单 are production:requisition:add
  // and production:order:add, the permissions of the documents they make.
  query('物料需求计划', `${PROD}/mrp`, 'production:mrp', []),
  dir('生产报表', PROD_STATS, 'LineChartOutlined', [
    query('流转卡报表', `${PROD_STATS}/processFlowCardReport`, 'production:flowCard'),
    query('车间流转卡报表', `${PROD_STATS}/flowCardByWorkShopPage`, 'production:flowCardByWorkshop'),
    query(
      '订单车间流转卡报表',
      `${PROD_STATS}/flowCardBySalesAndWorkshopPage`,
      'production:flowCardBySalesWorkshop',
    ),
    query('工序月产能分析', `${PROD_STATS}/analyzeMonthlyProcessCapacity`, 'production:processCapacity'),
    query('生产汇总', `${PROD_STATS}/productionTotal`, 'production:productionTotal'),
    query('员工月产能分析', `${PROD_STATS}/analyzeMonthlyWorkerCapacity`, 'production:workerCapacity'),
    query('在制需求', `${PROD_STATS}/listInProgressRequirement`, 'production:inProgressRequirement'),
    query('员工废品统计', `${PROD_STATS}/workerRejectStats`, 'production:workerReject'),
  ]),
]);

// ---------------------------------------------------------------- 技术部

const TECH = '/technology-dept';
const TECH_MANAGE = `${TECH}/technology-manage`;

const technology = dir('技术部', TECH, 'ExperimentOutlined', [
  list('技术文档', TECH_MANAGE, 'technology:document', [
    ...CRUD,
    ['approve', '审批'],
    ['unapprove', '反审批'],
    ['publish', '发布'],
    ['void', '作废'],
  ]),
  hidden('技术文档详情', `${TECH_MANAGE}-detail`, TECH_MANAGE),
]);

// ---------------------------------------------------------------- 采购管理

const PURCHASE = '/purchase';
const PURCHASE_ORDER = `${PURCHASE}/purchase-manage`;
const PURCHASE_RETURN = `${PURCHASE}/purchase-rejected`;
const OUTSOURCING = `${PURCHASE}/outsourcing-manage`;
const OUTSOURCING_RETURN = `${PURCHASE}/outsourcing-rejected`;
const PURCHASE_STATS = `${PURCHASE_ORDER}/statisticalStatement`;
const ORDER_ACTIONS: readonly Action[] = ['add', 'edit', 'delete', 'approve', 'unapprove', 'close', 'export'];

const purchase = dir('采购管理', PURCHASE, 'ShoppingOutlined', [
  list('采购订单', PURCHASE_ORDER, 'purchase:order', ORDER_ACTIONS),
  hidden('新增采购订单', `${PURCHASE}/purchase-add`, PURCHASE_ORDER),
  hidden('编辑采购订单', `${PURCHASE}/purchase-edit`, PURCHASE_ORDER),
  hidden('采购订单详情', `${PURCHASE}/purchase-detail`, PURCHASE_ORDER),
  hidden('采购订单跟踪', `${PURCHASE_ORDER}-detail`, PURCHASE_ORDER),
  // The buyer drafts 采购退货出库 against received orders; the warehouse posts them.
  list('采购退货', PURCHASE_RETURN, 'purchase:return', ['add', 'edit', 'delete', 'export']),
  hidden('新增采购退货', `${PURCHASE_RETURN}-add`, PURCHASE_RETURN),
  hidden('编辑采购退货', `${PURCHASE_RETURN}-edit`, PURCHASE_RETURN),
  hidden('采购退货详情', `${PURCHASE_RETURN}-detail`, PURCHASE_RETURN),
  list('委外订单', OUTSOURCING, 'purchase:outsourcing', ORDER_ACTIONS),
  hidden('委外订单详情', `${OUTSOURCING}-info`, OUTSOURCING),
  hidden('新增委外订单', `${PURCHASE}/outsourcing-add`, OUTSOURCING),
  hidden('编辑委外订单', `${PURCHASE}/outsourcing-edit`, OUTSOURCING),
  // The buyer drafts 委外退货出库 against received outsourcing orders; the warehouse posts them.
  list('委外退货', OUTSOURCING_RETURN, 'purchase:outsourcingReturn', ['add', 'edit', 'delete', 'export']),
  hidden('新增委外退货', `${OUTSOURCING_RETURN}-add`, OUTSOURCING_RETURN),
  hidden('编辑委外退货', `${OUTSOURCING_RETURN}-edit`, OUTSOURCING_RETURN),
  hidden('委外退货详情', `${OUTSOURCING_RETURN}-detail`, OUTSOURCING_RETURN),
  dir('采购统计', PURCHASE_STATS, 'LineChartOutlined', [
    query('采购明细报表', `${PURCHASE_STATS}/purchaseReport`, 'purchase:report'),
  ]),
]);

// ---------------------------------------------------------------- 仓储物流

const WL = '/warehouse-logistics';
const FINISHED = `${WL}/finish-warehouse`;
const STOCKTAKE = `${WL}/inventory-manage`;
const TRANSFER = `${WL}/warehouse-allot`;
const INBOUND = `${WL}/warehouse-manage`;
const OUTBOUND = `${WL}/outbound-manage`;
const DOCUMENT_ACTIONS: readonly Action[] = ['add', 'edit', 'delete', 'post', 'reverse', 'export'];

/** One inbound/outbound document kind: its list (filtered by kind) and hidden add/edit/detail. */
function documentKind(
  base: string,
  segment: string,
  name: string,
  resource: string,
  extra: readonly Action[] = [],
): MenuNode[] {
  const path = `${base}/${segment}`;
  return [
    list(name, path, `warehouse:${resource}`, [...DOCUMENT_ACTIONS, ...extra]),
    hidden(`新增${name}单`, `${path}-add`, path),
    hidden(`编辑${name}单`, `${path}-edit`, path),
    hidden(`${name}单详情`, `${path}-detail`, path),
  ];
}

const warehouse = dir('仓储物流', WL, 'TruckOutlined', [
  list('成品仓库', FINISHED, 'warehouse:finished', ['export']),
  hidden('成品仓库详情', `${FINISHED}-detail`, FINISHED),
  list('库存盘点', STOCKTAKE, 'warehouse:stocktake', DOCUMENT_ACTIONS),
  hidden('盘点单详情', `${STOCKTAKE}-detail`, STOCKTAKE),
  hidden('盘点差异报告', `${WL}/inventory-detail`, STOCKTAKE),
  list('调拨', TRANSFER, 'warehouse:transfer', DOCUMENT_ACTIONS),
  hidden('调拨单编辑', `${TRANSFER}-panel`, TRANSFER),
  hidden('调拨单详情', `${TRANSFER}-detail`, TRANSFER),
  dir('入库管理', `${WL}/inbound`, 'ImportOutlined', [
    list('入库单列表', INBOUND, 'warehouse:inbound', [
      'add',
      'edit',
      'delete',
      'post',
      'reverse',
      'import',
      'export',
    ]),
    ...documentKind(INBOUND, 'purchase-warehousing', '采购入库', 'purchaseInbound'),
    ...documentKind(INBOUND, 'production-warehousing', '生产入库', 'productionInbound'),
    ...documentKind(INBOUND, 'outsourced-warehousing', '委外入库', 'outsourcedInbound'),
    ...documentKind(INBOUND, 'sales-returns-warehousing', '销售退货入库', 'salesReturnInbound'),
    ...documentKind(INBOUND, 'other-warehousing', '其他入库', 'otherInbound'),
  ]),
  dir('出库管理', `${WL}/outbound`, 'ExportOutlined', [
    list('出库单列表', OUTBOUND, 'warehouse:outbound', [
      'add',
      'edit',
      'delete',
      'post',
      'reverse',
      'import',
      'export',
    ]),
    ...documentKind(OUTBOUND, 'internal-requisition-outbound', '领料出库', 'requisitionOutbound'),
    ...documentKind(OUTBOUND, 'outsourcing-receive-outbound', '委外发料出库', 'outsourcingOutbound'),
    // 生成出货检验: the keeper raises the shipment inspection of his draft (the gate of 系统设置).
    ...documentKind(OUTBOUND, 'sales-outbound', '销售出库', 'salesOutbound', [
      ['requestInspection', '生成出货检验'],
    ]),
    ...documentKind(OUTBOUND, 'purchase-return-outbound', '采购退货出库', 'purchaseReturnOutbound'),
    ...documentKind(OUTBOUND, 'other-outbound', '其他出库', 'otherOutbound'),
  ]),
  list('库存明细', `${WL}/inventory-details`, 'warehouse:stock', ['export']),
]);

// ---------------------------------------------------------------- 计量检定

const measure = dir('计量检定', '/measure-check', 'ColumnWidthOutlined', [
  list('外径测量', '/measure-check/outside-diameter', 'measure:outsideDiameter', [
    'add',
    'edit',
    'delete',
    'import',
    'export',
  ]),
]);

// ---------------------------------------------------------------- 质量检测

const QT = '/quality-testing';
const SHIPMENT_INSPECTION = `${QT}/shipment-inspection`;
const PROCESS_INSPECTION = `${QT}/process-inspection`;
const RING_STANDARD = `${QT}/bearing-ring-standard`;
const INSPECTION_ACTIONS: readonly Action[] = [
  'add',
  'edit',
  'delete',
  'inspect',
  'approve',
  ['concede', '让步接收'],
  'export',
];

/** An incoming or reporting inspection of one workshop: list, add, detail, view, result entry. */
function workshopInspection(name: string, segment: string, resource: string): MenuNode[] {
  const path = `${QT}/${segment}`;
  return [
    list(name, path, `quality:${resource}`, INSPECTION_ACTIONS),
    hidden(`新增${name}`, `${path}-add`, path),
    hidden(`${name}详情`, `${path}-detail`, path),
    hidden(`查看${name}`, `${path}-view`, path),
    hidden(`${name}结果录入`, `${path}-quality-testing`, path),
  ];
}

const quality = dir('质量检测', QT, 'SafetyCertificateOutlined', [
  list('出货检验', SHIPMENT_INSPECTION, 'quality:shipment', INSPECTION_ACTIONS),
  hidden('出货检验详情', `${SHIPMENT_INSPECTION}-detail`, SHIPMENT_INSPECTION),
  hidden('查看出货检验', `${SHIPMENT_INSPECTION}-view`, SHIPMENT_INSPECTION),
  hidden('出货检验结果录入', `${SHIPMENT_INSPECTION}-quality-testing`, SHIPMENT_INSPECTION),
  list('过程检验', PROCESS_INSPECTION, 'quality:process', INSPECTION_ACTIONS),
  hidden('过程检验详情', `${PROCESS_INSPECTION}-detail`, PROCESS_INSPECTION),
  hidden('查看过程检验', `${PROCESS_INSPECTION}-view`, PROCESS_INSPECTION),
  hidden('过程检验结果录入', `${PROCESS_INSPECTION}-quality-testing`, PROCESS_INSPECTION),
  list('检验项目', `${QT}/inspection-item`, 'quality:item', ['add', 'edit', 'delete', 'import', 'export']),
  dir('车加工检验', `${QT}/lathe-machining`, 'AuditOutlined', [
    ...workshopInspection('车加工来料检验', 'lathe-machining-incoming', 'latheIncoming'),
    ...workshopInspection('车加工报工检验', 'lathe-machining-reporting', 'latheReporting'),
  ]),
  dir('磨加工检验', `${QT}/grinding`, 'AuditOutlined', [
    ...workshopInspection('磨加工来料检验', 'grinding-incoming', 'grindingIncoming'),
    ...workshopInspection('磨加工报工检验', 'grinding-reporting', 'grindingReporting'),
  ]),
  dir('检测车间检验', `${QT}/inspect-workshop`, 'AuditOutlined', [
    ...workshopInspection('检测车间来料检验', 'inspect-incoming', 'inspectIncoming'),
    ...workshopInspection('检测车间报工检验', 'inspect-workshop-reporting', 'inspectReporting'),
  ]),
  dir('装配检验', `${QT}/assemble`, 'AuditOutlined', [
    ...workshopInspection('装配来料检验', 'assemble-incoming', 'assembleIncoming'),
    ...workshopInspection('装配报工检验', 'assemble-reporting', 'assembleReporting'),
  ]),
  list('轴承套圈标准', RING_STANDARD, 'quality:ringStandard', ['add', 'edit', 'delete', 'import', 'export']),
  hidden('轴承套圈标准详情', `${RING_STANDARD}-detail`, RING_STANDARD),
  // 质量追溯: a heat forward to the customers, a card or a shipped batch back to the steel.
  query('质量追溯', `${QT}/trace`, 'quality:trace', []),
]);

// ---------------------------------------------------------------- 财务部

const FIN = '/finance-department';
const WAGE = `${FIN}/process-wage`;
const RECEIVABLE = `${FIN}/receivable-management`;
const PAYABLE = `${FIN}/account-payable-management`;

/** 收款 / 付款 buttons on the 应收 / 应付 page. */
const SETTLE = (verb: string): readonly Action[] => [
  ['list', `${verb}查询`],
  ['add', `新增${verb}单`],
  ['edit', `编辑${verb}单`],
  ['delete', `删除${verb}单`],
  ['approve', `确认${verb}`],
  ['unapprove', `反确认${verb}`],
  ['export', `导出${verb}单`],
];

/** A page with the buttons of a second resource that lives on it (收款单 on 应收管理). */
function withButtons(node: MenuNode, resource: string, actions: readonly Action[]): MenuNode {
  return { ...node, children: [...(node.children ?? []), ...buttons(resource, actions)] };
}

const finance = dir('财务部', FIN, 'AccountBookOutlined', [
  // First: 财务 lands on the receivables due. 收款 and 付款 are tabs of these pages.
  withButtons(
    list('应收管理', RECEIVABLE, 'finance:receivable', [
      'add',
      'edit',
      'delete',
      'approve',
      'unapprove',
      'export',
    ]),
    'finance:receipt',
    SETTLE('收款'),
  ),
  hidden('新增应收单', `${RECEIVABLE}-add`, RECEIVABLE),
  hidden('编辑应收单', `${RECEIVABLE}-edit`, RECEIVABLE),
  hidden('应收单详情', `${RECEIVABLE}-detail`, RECEIVABLE),
  withButtons(
    list('应付管理', PAYABLE, 'finance:payable', ['add', 'edit', 'delete', 'approve', 'unapprove', 'export']),
    'finance:payment',
    SETTLE('付款'),
  ),
  hidden('新增应付单', `${PAYABLE}-add`, PAYABLE),
  hidden('编辑应付单', `${PAYABLE}-edit`, PAYABLE),
  hidden('应付单详情', `${PAYABLE}-detail`, PAYABLE),
  query('销售报表', `${FIN}/sales-report`, 'finance:salesReport'),
  query('采购报表', `${FIN}/purchase-report`, 'finance:purchaseReport'),
  query('生产报表', `${FIN}/production-report`, 'finance:productionReport'),
  query('成本差异', `${FIN}/cost-variance`, 'finance:costVariance'),
  query('产品成本', `${FIN}/product-cost`, 'finance:productCost'),
  query('库存报表', `${FIN}/inventory-report`, 'finance:inventoryReport'),
  query('报工统计', `${FIN}/job-booking`, 'finance:jobBooking'),
  query('工单统计', `${FIN}/work-order`, 'finance:workOrder'),
  query('生产统计', `${FIN}/production-statistics`, 'finance:productionStatistics'),
  query('产线统计', `${FIN}/production-line`, 'finance:productionLine'),
  query('库存预警', `${FIN}/inventory-alert`, 'finance:inventoryAlert'),
  query('设备点检统计', `${FIN}/equipment-inspection`, 'finance:equipmentInspection'),
  query('设备保养统计', `${FIN}/equipment-maintenance`, 'finance:equipmentMaintenance'),
  // 结账 goes with 编辑; 反结账 reopens the latest closed month and is granted on its own.
  list('工序工资', WAGE, 'finance:wage', [...CRUD, ['reopen', '反结账']]),
  hidden('新增工序工资', `${WAGE}-add`, WAGE),
  hidden('编辑工序工资', `${WAGE}-edit`, WAGE),
]);

// ---------------------------------------------------------------- 工厂信息

const FI = '/factory-info';
const EQUIPMENT = `${FI}/equipment-manage`;
const LEDGER = `${EQUIPMENT}/equipment-ledger`;
const REPAIR = `${EQUIPMENT}/report-for-repair`;
const MAINTENANCE = `${EQUIPMENT}/maintenance`;
const SPOT_CHECK = `${EQUIPMENT}/inspection`;
const TEAM = `${FI}/production-team`;
const MATERIAL = `${FI}/material-manage`;
const MATERIAL_LIST = `${MATERIAL}/material-list`;
const TEMPLATE = `${MATERIAL}/material-template-manage`;
const BOM = `${MATERIAL}/product-bom`;
const PRODUCT = `${MATERIAL}/product-manage`;
const PROCESS = `${FI}/process-manage`;
const ROUTE = `${PROCESS}/process-route`;
const PROCESS_LIST = `${PROCESS}/process-manage`;
const SUPPLIER = `${FI}/supplier`;
const CUSTOM = `${FI}/custom`;

const factory = dir('工厂信息', FI, 'BankOutlined', [
  dir('工厂建模', `${FI}/factory-modeling`, 'ApartmentOutlined', [
    {
      ...list('工厂模型', `${FI}/factory-modeling/factory-modeling-main`, 'factory:workshop', []),
      // Production lines are edited in the same tree as their workshops.
      children: [
        ...buttons('factory:workshop', CRUD),
        ...buttons('factory:line', [
          ['list', '产线查询'],
          ['add', '新增产线'],
          ['edit', '编辑产线'],
          ['delete', '删除产线'],
          ['export', '导出产线'],
        ]),
      ],
    },
  ]),
  dir('仓库建模', `${FI}/warehouse-modeling`, 'DatabaseOutlined', [
    list('仓库管理', `${FI}/warehouse-modeling/warehouse-manage`, 'factory:warehouse', CRUD),
    list('库位管理', `${FI}/warehouse-modeling/warehouse-location-manage`, 'factory:location', CRUD),
  ]),
  dir('设备管理', EQUIPMENT, 'DesktopOutlined', [
    list('设备台账', LEDGER, 'factory:equipment', ['add', 'edit', 'delete', 'import', 'export']),
    hidden('设备台账详情', `${LEDGER}-detail`, LEDGER),
    hidden('设备信息', `${LEDGER}-info`, LEDGER),
    list('报修', REPAIR, 'factory:repair', [
      'add',
      'edit',
      'delete',
      'dispatch',
      ['start', '开始维修'],
      ['finish', '维修完成'],
      ['confirm', '确认修复'],
      'close',
      'export',
    ]),
    hidden('报修详情', `${REPAIR}-detail`, REPAIR),
    hidden('查看报修', `${REPAIR}-view`, REPAIR),
    list('保养', MAINTENANCE, 'factory:maintenance', CRUD),
    hidden('保养详情', `${MAINTENANCE}-detail`, MAINTENANCE),
    hidden('查看保养', `${MAINTENANCE}-view`, MAINTENANCE),
    list('点检', SPOT_CHECK, 'factory:inspection', CRUD),
    hidden('点检信息', `${SPOT_CHECK}-info`, SPOT_CHECK),
    hidden('点检详情', `${SPOT_CHECK}-detail`, SPOT_CHECK),
    hidden('查看点检', `${SPOT_CHECK}-view`, SPOT_CHECK),
    // Issue 42: OEE by plant, workshop and machine; 设置 edits shift calendars, targets and signal
    // mappings; 机器信号 is what a signed third-party app (a site without a broker) is granted.
    query('设备OEE', `${EQUIPMENT}/oee`, 'factory:oee', [
      'export',
      ['setting', 'OEE设置'],
      ['signal', '机器信号'],
    ]),
  ]),
  dir('生产班组', TEAM, 'TeamOutlined', [
    list('班组管理', `${TEAM}/production-team-index`, 'factory:team', CRUD),
    hidden('新增班组', `${TEAM}/production-team-add`, `${TEAM}/production-team-index`),
    hidden('编辑班组', `${TEAM}/production-team-edit`, `${TEAM}/production-team-index`),
  ]),
  dir('物料管理', MATERIAL, 'AppstoreOutlined', [
    list('物料列表', MATERIAL_LIST, 'factory:material', ['add', 'edit', 'delete', 'import', 'export']),
    hidden('新增物料', `${MATERIAL}/material-add`, MATERIAL_LIST),
    hidden('编辑物料', `${MATERIAL}/material-edit`, MATERIAL_LIST),
    hidden('物料详情', `${MATERIAL}/material-detail`, MATERIAL_LIST),
    list('物料模板', TEMPLATE, 'factory:template', CRUD),
    hidden('新增物料模板', `${MATERIAL}/material-template-add`, TEMPLATE),
    hidden('编辑物料模板', `${MATERIAL}/material-template-edit`, TEMPLATE),
    hidden('物料模板详情', `${MATERIAL}/material-template-detail`, TEMPLATE),
    list('产品BOM', BOM, 'factory:bom', ['add', 'edit', 'delete', 'enable', 'disable', 'export']),
    hidden('新增产品BOM', `${BOM}-add`, BOM),
    hidden('编辑产品BOM', `${BOM}-edit`, BOM),
    hidden('产品BOM详情', `${BOM}-detail`, BOM),
    list('产品管理', PRODUCT, 'factory:product', CRUD),
    hidden('新增产品', `${MATERIAL}/product-add`, PRODUCT),
    list('计量单位', `${MATERIAL}/material-unit`, 'factory:unit', DICT_EXPORT),
    list('物料分类', `${MATERIAL}/material-classification`, 'factory:materialClass', DICT_EXPORT),
    list('制造方式', `${MATERIAL}/manufacturing-method`, 'factory:manufactureMethod', DICT_EXPORT),
  ]),
  dir('工艺管理', PROCESS, 'NodeIndexOutlined', [
    list('工艺路线', ROUTE, 'factory:route', ['add', 'edit', 'delete', 'enable', 'disable', 'export']),
    hidden('新增工艺路线', `${ROUTE}-add`, ROUTE),
    hidden('编辑工艺路线', `${ROUTE}-edit`, ROUTE),
    hidden('工艺路线详情', `${ROUTE}-detail`, ROUTE),
    list('工序管理', PROCESS_LIST, 'factory:process', CRUD),
    hidden('新增工序', `${PROCESS}/process-add`, PROCESS_LIST),
    hidden('编辑工序', `${PROCESS}/process-edit`, PROCESS_LIST),
    hidden('工序详情', `${PROCESS}/process-detail`, PROCESS_LIST),
    list('工序分类', `${PROCESS}/process-classify`, 'factory:processClass', DICT_EXPORT),
  ]),
  dir('供应商', SUPPLIER, 'ShopOutlined', [
    list('供应商管理', `${SUPPLIER}/supplier-manage`, 'factory:supplier', CRUD),
    hidden('新增供应商', `${SUPPLIER}/supplier-add`, `${SUPPLIER}/supplier-manage`),
    hidden('编辑供应商', `${SUPPLIER}/supplier-edit`, `${SUPPLIER}/supplier-manage`),
    list('供应商分类', `${SUPPLIER}/supplier-classify`, 'factory:supplierClass', DICT_EXPORT),
  ]),
  dir('客户', CUSTOM, 'ContactsOutlined', [
    list('客户管理', `${CUSTOM}/custom-manage`, 'factory:customer', CRUD),
    hidden('新增客户', `${CUSTOM}/custom-add`, `${CUSTOM}/custom-manage`),
    hidden('编辑客户', `${CUSTOM}/custom-edit`, `${CUSTOM}/custom-manage`),
    list('客户分类', `${CUSTOM}/custom-classify`, 'factory:customerClass', DICT_EXPORT),
    list('客户等级', `${CUSTOM}/custom-grade`, 'factory:customerGrade', DICT_EXPORT),
    list('客户标签', `${CUSTOM}/custom-label`, 'factory:customerLabel', DICT_EXPORT),
  ]),
]);

// ---------------------------------------------------------------- 车间看板

const WD = '/workshop-dashboard';

const dashboards = dir('车间看板', WD, 'FundProjectionScreenOutlined', [
  query('全厂看板', `${WD}/whole-dashboard`, 'dashboard:whole', []),
  query('车加工车间看板', `${WD}/machine-dashboard`, 'dashboard:machine', []),
  query('磨加工车间看板', `${WD}/grinding-dashboard`, 'dashboard:grinding', []),
  query('检测车间看板', `${WD}/inspect-dashboard`, 'dashboard:inspect', []),
  query('装配车间看板', `${WD}/assemble-dashboard`, 'dashboard:assembly', []),
]);

// ---------------------------------------------------------------- 统计报表

const SR = '/statistics-report';

/** 统计报表 of measurements: export, 建立控制限 (Phase I baseline, rules) and 批准控制限 (freeze). */
const SPC_REPORT: readonly Action[] = ['export', ['limit', '建立控制限'], ['limitApprove', '批准控制限']];

const reports = dir('统计报表', SR, 'BarChartOutlined', [
  query('沟道测量', `${SR}/track-measure`, 'report:trackMeasure', SPC_REPORT),
  query('角度测量', `${SR}/angle-measure`, 'report:angleMeasure', SPC_REPORT),
  query('高度测量', `${SR}/height-measure`, 'report:heightMeasure', SPC_REPORT),
  query('内外径测量', `${SR}/neiwaijing-measure`, 'report:innerOuterMeasure', SPC_REPORT),
]);

// ---------------------------------------------------------------- 系统管理

const SYS = '/system';

const system = dir('系统管理', SYS, 'SettingOutlined', [
  list('用户管理', `${SYS}/user/manage`, 'system:user', [
    'add',
    'edit',
    'delete',
    'resetPwd',
    ['assignRole', '分配角色'],
    'export',
  ]),
  list('角色管理', `${SYS}/role/manage`, 'system:role', DICT),
  list('菜单管理', `${SYS}/menu/manage`, 'system:menu', DICT),
  list('部门管理', `${SYS}/department/manage`, 'system:dept', DICT),
  // System enums (sysenum) are maintained on the settings page.
  list('系统设置', `${SYS}/sysSetting/settingInfo`, 'system:setting', [
    'add',
    'edit',
    'delete',
    'export',
    // Saved views of the lists shared with a role (issue 41 §5).
    ['shareView', '共享列表视图'],
  ]),
  list('消息中心', `${SYS}/message/index`, 'system:message', []),
  list('第三方应用', `${SYS}/three-app/manage`, 'system:app', DICT),
]);

/** The complete seeded menu, top-level directories in menu order (首页 first). */
export const MENU_TREE: MenuNode[] = [
  home,
  sale,
  production,
  technology,
  purchase,
  warehouse,
  measure,
  quality,
  finance,
  factory,
  dashboards,
  reports,
  system,
];
