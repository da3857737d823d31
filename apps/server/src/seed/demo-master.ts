import { deriveWeights } from '../modules/factory/material.ts';
import type { Db } from '../platform/db/db.ts';

/**
 * Demo master data of a deep-groove ball bearing factory (SEED=demo): the four workshops with
 * their lines, teams and equipment; five warehouses with locations; units, material types and
 * dictionaries; ~50 materials from GCr15 steel tube to finished 6204-2RS; the 轴承套圈 template;
 * processes with piece rates; an active process route and BOM for every ring and bearing;
 * suppliers and customers. Everything is fixed data (no randomness, no relative dates), so two
 * demo databases are identical.
 */
export async function seedDemoMasterData(db: Db): Promise<void> {
  const users = await db.selectFrom('appUser').select(['id', 'userName']).execute();
  const userIds = new Map<string, number>(users.map((u) => [u.userName, u.id]));
  /** A demo user's id, or null when that account was not seeded. */
  const user = (userName: string): number | null => userIds.get(userName) ?? null;
  const admin = user('admin');
  const audit = { createdBy: admin, updatedBy: admin };

  /** Inserts header rows (with the audit columns) and answers their ids by code. */
  async function insert(table: string, rows: Record<string, unknown>[]): Promise<Map<string, number>> {
    const out = await db
      .insertInto(table)
      .values(rows.map((r) => ({ ...r, ...audit })))
      .returning(['id', 'code'])
      .execute();
    return new Map(out.map((r) => [r.code as string, r.id as number]));
  }
  /** Inserts line rows under one header, numbering them 1, 2, 3… */
  async function insertLines(table: string, parent: Record<string, number>, rows: Record<string, unknown>[]) {
    if (rows.length === 0) return;
    await db
      .insertInto(table)
      .values(rows.map((r, i) => ({ ...parent, lineNo: i + 1, ...r })))
      .execute();
  }
  const idOf = (ids: Map<string, number>, code: string): number => {
    const id = ids.get(code);
    if (id === undefined) throw new Error(`演示数据引用了不存在的编码 ${code}`);
    return id;
  };

  // ------------------------------------------------------------ 工厂建模

  const workshops = await insert('workshop', [
    {
      code: 'WS01',
      name: '车加工车间',
      type: 'machine',
      managerId: user('head01'),
      remark: '下料、车削，套圈毛坯成形',
    },
    {
      code: 'WS02',
      name: '磨加工车间',
      type: 'grinding',
      managerId: user('head01'),
      remark: '端面、外径、内径、沟道磨削及超精',
    },
    {
      code: 'WS03',
      name: '检测车间',
      type: 'inspect',
      managerId: user('qc01'),
      remark: '清洗、尺寸与外观检测、探伤',
    },
    {
      code: 'WS04',
      name: '装配车间',
      type: 'assembly',
      managerId: user('head01'),
      remark: '合套、装球、注脂、压盖、包装',
    },
  ]);
  const ws = (code: string) => idOf(workshops, code);

  const lines = await insert('productionLine', [
    { code: 'CJ-L01', name: '数控车削一线', workshopId: ws('WS01') },
    { code: 'CJ-L02', name: '数控车削二线', workshopId: ws('WS01') },
    { code: 'CJ-L03', name: '下料线', workshopId: ws('WS01') },
    { code: 'MJ-L01', name: '内圈磨削线', workshopId: ws('WS02') },
    { code: 'MJ-L02', name: '外圈磨削线', workshopId: ws('WS02') },
    { code: 'MJ-L03', name: '超精研线', workshopId: ws('WS02') },
    { code: 'JC-L01', name: '清洗检测线', workshopId: ws('WS03') },
    { code: 'JC-L02', name: '无损探伤线', workshopId: ws('WS03') },
    { code: 'ZP-L01', name: '自动装配一线', workshopId: ws('WS04') },
    { code: 'ZP-L02', name: '自动装配二线', workshopId: ws('WS04') },
    { code: 'ZP-L03', name: '包装线', workshopId: ws('WS04') },
  ]);
  const line = (code: string) => idOf(lines, code);

  const members = (...names: string[]) => names.map(user).filter((id): id is number => id !== null);
  await insert('productionTeam', [
    {
      code: 'TM-CJ-A',
      name: '车加工甲班',
      workshopId: ws('WS01'),
      leaderId: user('op01'),
      memberIds: members('op01'),
      remark: '白班',
    },
    {
      code: 'TM-MJ-A',
      name: '磨加工甲班',
      workshopId: ws('WS02'),
      leaderId: user('op02'),
      memberIds: members('op02'),
    },
    {
      code: 'TM-JC-A',
      name: '检测班',
      workshopId: ws('WS03'),
      leaderId: user('qc01'),
      memberIds: members('qc01'),
    },
    {
      code: 'TM-ZP-A',
      name: '装配班',
      workshopId: ws('WS04'),
      leaderId: user('head01'),
      memberIds: members('op01', 'op02'),
      remark: '车、磨操作工兼任装配',
    },
  ]);

  // ------------------------------------------------------------ 仓库建模

  const keeper = user('wh01');
  const warehouses = await insert('warehouse', [
    { code: 'WH-RM', name: '原材料仓', type: 'raw', keeperId: keeper, address: '厂区北侧 1 号库房' },
    { code: 'WH-SF', name: '半成品仓', type: 'semi', keeperId: keeper, address: '磨加工车间东侧' },
    { code: 'WH-FG', name: '成品仓', type: 'finished', keeperId: keeper, address: '厂区南侧 2 号库房' },
    { code: 'WH-AX', name: '辅料仓', type: 'auxiliary', keeperId: keeper, address: '装配车间二楼' },
    { code: 'WH-SC', name: '废品仓', type: 'scrap', keeperId: keeper, address: '厂区西北角废料棚' },
  ]);
  const wh = (code: string) => idOf(warehouses, code);

  const locations: [string, string, string][] = [
    ['WH-RM', 'RM-A01', '钢管区 A01'],
    ['WH-RM', 'RM-A02', '钢管区 A02'],
    ['WH-RM', 'RM-A03', '钢管区 A03'],
    ['WH-RM', 'RM-B01', '锻件区 B01'],
    ['WH-RM', 'RM-B02', '锻件区 B02'],
    ['WH-RM', 'RM-Q01', '来料待检区'],
    ['WH-SF', 'SF-A01', '内圈区 A01'],
    ['WH-SF', 'SF-A02', '内圈区 A02'],
    ['WH-SF', 'SF-B01', '外圈区 B01'],
    ['WH-SF', 'SF-B02', '外圈区 B02'],
    ['WH-SF', 'SF-Q01', '热处理返回待检区'],
    ['WH-FG', 'FG-A01', '62 系列 A01'],
    ['WH-FG', 'FG-A02', '62 系列 A02'],
    ['WH-FG', 'FG-A03', '62 系列 A03'],
    ['WH-FG', 'FG-B01', '63 系列 B01'],
    ['WH-FG', 'FG-Q01', '出货待检区'],
    ['WH-FG', 'FG-S01', '发货暂存区'],
    ['WH-AX', 'AX-A01', '钢球架 A01'],
    ['WH-AX', 'AX-A02', '保持架架 A02'],
    ['WH-AX', 'AX-A03', '密封件架 A03'],
    ['WH-AX', 'AX-B01', '油脂区 B01'],
    ['WH-AX', 'AX-C01', '刀具量具柜 C01'],
    ['WH-SC', 'SC-01', '车削废料区'],
    ['WH-SC', 'SC-02', '磨削废品区'],
    ['WH-SC', 'SC-03', '待评审区'],
  ];
  await insert(
    'shelfLocation',
    locations.map(([warehouse, code, name]) => ({ warehouseId: wh(warehouse), code, name })),
  );

  // ------------------------------------------------------------ 设备台账

  // biome-ignore format: a data table, one record per line
  const equipment: {
    code: string;
    name: string;
    model: string;
    workshop: string;
    line?: string;
    maker: string;
    purchaseDate: string;
    status?: string;
    cycle: number;
    last: string;
  }[] = [
    // 车加工
    { code: 'EQ-CJ-001', name: '数控车床', model: 'CK6140', workshop: 'WS01', line: 'CJ-L01', maker: '沈阳机床股份有限公司', purchaseDate: '2021-03-15', cycle: 90, last: '2026-09-10' },
    { code: 'EQ-CJ-002', name: '数控车床', model: 'CK6140', workshop: 'WS01', line: 'CJ-L01', maker: '沈阳机床股份有限公司', purchaseDate: '2021-03-15', cycle: 90, last: '2026-09-12' },
    { code: 'EQ-CJ-003', name: '数控车床', model: 'CK6136', workshop: 'WS01', line: 'CJ-L02', maker: '大连机床集团有限责任公司', purchaseDate: '2022-06-20', cycle: 90, last: '2026-08-28' },
    { code: 'EQ-CJ-004', name: '数控车床', model: 'CK6136', workshop: 'WS01', line: 'CJ-L02', maker: '大连机床集团有限责任公司', purchaseDate: '2022-06-20', status: 'repair', cycle: 90, last: '2026-07-15' },
    { code: 'EQ-CJ-005', name: '带锯床', model: 'GB4230', workshop: 'WS01', line: 'CJ-L03', maker: '浙江锯床机械有限公司', purchaseDate: '2019-11-02', cycle: 60, last: '2026-10-20' },
    { code: 'EQ-CJ-006', name: '带锯床', model: 'GB4230', workshop: 'WS01', line: 'CJ-L03', maker: '浙江锯床机械有限公司', purchaseDate: '2023-05-16', cycle: 60, last: '2026-10-28' },
    // 磨加工
    { code: 'EQ-MJ-001', name: '双端面磨床', model: 'MY7650', workshop: 'WS02', line: 'MJ-L01', maker: '无锡机床股份有限公司', purchaseDate: '2020-05-08', cycle: 60, last: '2026-10-05' },
    { code: 'EQ-MJ-002', name: '无心磨床', model: 'M1080', workshop: 'WS02', line: 'MJ-L02', maker: '无锡机床股份有限公司', purchaseDate: '2020-05-08', cycle: 60, last: '2026-10-06' },
    { code: 'EQ-MJ-003', name: '无心磨床', model: 'M1080', workshop: 'WS02', line: 'MJ-L02', maker: '无锡机床股份有限公司', purchaseDate: '2023-02-17', cycle: 60, last: '2026-10-18' },
    { code: 'EQ-MJ-004', name: '内圆磨床', model: '3MZ2110', workshop: 'WS02', line: 'MJ-L01', maker: '无锡机床股份有限公司', purchaseDate: '2021-09-01', cycle: 60, last: '2026-09-25' },
    { code: 'EQ-MJ-005', name: '沟道磨床', model: '3MZ1410', workshop: 'WS02', line: 'MJ-L01', maker: '无锡机床股份有限公司', purchaseDate: '2021-09-01', cycle: 60, last: '2026-09-26' },
    { code: 'EQ-MJ-006', name: '外沟磨床', model: '3MZ1420', workshop: 'WS02', line: 'MJ-L02', maker: '无锡机床股份有限公司', purchaseDate: '2022-04-11', cycle: 60, last: '2026-10-02' },
    { code: 'EQ-MJ-007', name: '沟道超精机', model: '3MZ3310', workshop: 'WS02', line: 'MJ-L03', maker: '无锡机床股份有限公司', purchaseDate: '2022-04-11', cycle: 90, last: '2026-08-30' },
    { code: 'EQ-MJ-008', name: '双端面磨床', model: 'MY7650', workshop: 'WS02', line: 'MJ-L02', maker: '无锡机床股份有限公司', purchaseDate: '2024-03-12', cycle: 60, last: '2026-10-22' },
    { code: 'EQ-MJ-009', name: '沟道超精机', model: '3MZ3310', workshop: 'WS02', line: 'MJ-L03', maker: '无锡机床股份有限公司', purchaseDate: '2024-03-12', cycle: 90, last: '2026-09-18' },
    // 检测
    { code: 'EQ-JC-001', name: '超声波清洗机', model: 'QX-1200', workshop: 'WS03', line: 'JC-L01', maker: '昆山超声设备有限公司', purchaseDate: '2020-08-19', cycle: 30, last: '2026-11-02' },
    { code: 'EQ-JC-002', name: '套圈内外径测量仪', model: 'D913', workshop: 'WS03', line: 'JC-L01', maker: '洛阳轴承检测仪器厂', purchaseDate: '2021-01-10', cycle: 180, last: '2026-07-01' },
    { code: 'EQ-JC-003', name: '涡流探伤仪', model: 'EEC-35', workshop: 'WS03', line: 'JC-L02', maker: '厦门无损检测设备有限公司', purchaseDate: '2022-10-22', cycle: 90, last: '2026-09-15' },
    { code: 'EQ-JC-004', name: '磁粉探伤机', model: 'CJW-2000', workshop: 'WS03', line: 'JC-L02', maker: '厦门无损检测设备有限公司', purchaseDate: '2019-06-30', status: 'idle', cycle: 90, last: '2026-08-20' },
    { code: 'EQ-JC-005', name: '轴承振动测量仪', model: 'S0910', workshop: 'WS03', line: 'JC-L01', maker: '杭州轴承试验研究中心', purchaseDate: '2023-05-12', cycle: 180, last: '2026-06-18' },
    // 装配
    { code: 'EQ-ZP-001', name: '自动合套机', model: 'HT-6200', workshop: 'WS04', line: 'ZP-L01', maker: '宁波自动化装备有限公司', purchaseDate: '2022-03-03', cycle: 30, last: '2026-11-05' },
    { code: 'EQ-ZP-002', name: '装球机', model: 'ZQ-62', workshop: 'WS04', line: 'ZP-L01', maker: '宁波自动化装备有限公司', purchaseDate: '2022-03-03', cycle: 30, last: '2026-11-05' },
    { code: 'EQ-ZP-003', name: '保持架铆合机', model: 'MH-62', workshop: 'WS04', line: 'ZP-L01', maker: '宁波自动化装备有限公司', purchaseDate: '2022-03-03', cycle: 30, last: '2026-11-06' },
    { code: 'EQ-ZP-004', name: '注脂机', model: 'ZZ-300', workshop: 'WS04', line: 'ZP-L02', maker: '宁波自动化装备有限公司', purchaseDate: '2023-07-14', cycle: 30, last: '2026-11-08' },
    { code: 'EQ-ZP-005', name: '压盖机', model: 'YG-62', workshop: 'WS04', line: 'ZP-L02', maker: '宁波自动化装备有限公司', purchaseDate: '2023-07-14', cycle: 30, last: '2026-11-08' },
    { code: 'EQ-ZP-006', name: '自动包装机', model: 'BZ-200', workshop: 'WS04', line: 'ZP-L03', maker: '温州包装机械有限公司', purchaseDate: '2020-12-01', cycle: 60, last: '2026-10-12' },
  ];
  await insert(
    'equipment',
    equipment.map((e) => ({
      code: e.code,
      name: e.name,
      model: e.model,
      workshopId: ws(e.workshop),
      lineId: e.line ? line(e.line) : null,
      maker: e.maker,
      purchaseDate: e.purchaseDate,
      status: e.status ?? 'running',
      maintenanceCycleDays: e.cycle,
      lastMaintenanceDate: e.last,
    })),
  );

  // ------------------------------------------------------------ 物料字典

  // 小数位数: counted units whole, kg and 米 to the gram and the millimetre, 吨 to 0.1 kg.
  const units = await insert('materialUnit', [
    { code: 'PCS', name: '件', precision: 0 },
    { code: 'SET', name: '套', precision: 0 },
    { code: 'EA', name: '个', precision: 0 },
    { code: 'GRN', name: '粒', precision: 0 },
    { code: 'KG', name: 'kg', precision: 3 },
    { code: 'G', name: 'g', precision: 2 },
    { code: 'T', name: '吨', precision: 4 },
    { code: 'M', name: '米', precision: 3 },
    { code: 'BOX', name: '箱', precision: 0 },
    { code: 'BKT', name: '桶', precision: 0 },
  ]);
  const unit = (code: string) => idOf(units, code);

  // Parents first: a child row needs its parent's id.
  const typeTree: [string, string, string | null][] = [
    ['RAW', '原材料', null],
    ['RAW-TUBE', '钢管', 'RAW'],
    ['RAW-FORGE', '锻件', 'RAW'],
    ['SEMI', '半成品', null],
    ['SEMI-IR', '内圈', 'SEMI'],
    ['SEMI-OR', '外圈', 'SEMI'],
    ['FIN', '成品', null],
    ['FIN-DGBB', '深沟球轴承', 'FIN'],
    ['AUX', '辅料', null],
    ['AUX-BALL', '钢球', 'AUX'],
    ['AUX-CAGE', '保持架', 'AUX'],
    ['AUX-SEAL', '密封圈', 'AUX'],
    ['AUX-GREASE', '油脂', 'AUX'],
    ['TOOL', '刀具量具', null],
  ];
  const types = new Map<string, number>();
  for (const [i, [code, name, parent]] of typeTree.entries()) {
    const ids = await insert('materialType', [
      { code, name, parentId: parent ? idOf(types, parent) : null, orderNum: (i + 1) * 10 },
    ]);
    types.set(code, idOf(ids, code));
  }
  const type = (code: string) => idOf(types, code);

  const dictionary = (rows: [string, string, string?][]) =>
    rows.map(([code, name, remark], i) => ({ code, name, orderNum: (i + 1) * 10, remark: remark ?? null }));
  const classes = await insert(
    'materialClassification',
    dictionary([
      ['KEY', '关键件', '直接影响轴承精度和寿命：套圈、钢球、轴承钢'],
      ['MAJOR', '重要件', '保持架、密封件、油脂'],
      ['GENERAL', '一般件', '包装材料、刀具、量具等'],
    ]),
  );
  const methods = await insert(
    'manufacturingMethod',
    dictionary([
      ['MAKE', '自制', '由生产订单在本厂加工'],
      ['BUY', '外购', '由采购订单购入'],
      ['SUB', '委外', '由委外订单交供应商加工'],
    ]),
  );
  const groups = await insert(
    'productGroup',
    dictionary([
      ['P60', '60 系列深沟球轴承'],
      ['P62', '62 系列深沟球轴承'],
      ['P63', '63 系列深沟球轴承'],
      ['PRING', '轴承套圈', '对外销售的套圈备件'],
    ]),
  );
  const processClasses = await insert(
    'processClassify',
    dictionary([
      ['TURN', '车加工'],
      ['HEAT', '热处理'],
      ['GRIND', '磨加工'],
      ['INSP', '检测'],
      ['ASSY', '装配'],
    ]),
  );
  const supplierClasses = await insert(
    'supplierClassify',
    dictionary([
      ['STEEL', '钢材'],
      ['FORGE', '锻件'],
      ['HEAT', '热处理外协'],
      ['BALL', '钢球'],
      ['CAGE', '保持架'],
      ['SEAL', '密封件'],
      ['GREASE', '润滑油脂'],
      ['PACK', '包装材料'],
      ['TOOL', '刀具量具'],
    ]),
  );
  const customerClasses = await insert(
    'customerClassify',
    dictionary([
      ['AUTO', '汽车配件'],
      ['MOTOR', '电机'],
      ['AGRI', '农业机械'],
      ['REDUCER', '减速机'],
      ['DEALER', '经销商'],
    ]),
  );
  const grades = await insert(
    'customerGrade',
    dictionary([
      ['A', 'A 级（战略客户）', '年采购额 500 万元以上'],
      ['B', 'B 级（重点客户）', '年采购额 100–500 万元'],
      ['C', 'C 级（普通客户）'],
    ]),
  );
  const labels = await insert(
    'customerLabel',
    dictionary([
      ['LONG', '长期合作'],
      ['NET60', '月结60天'],
      ['REPORT', '需出货检验报告'],
      ['EXPORT', '出口配套'],
      ['NEW', '新客户'],
      ['PRICE', '价格敏感'],
    ]),
  );

  // ------------------------------------------------------------ 物料模板

  const templates = await insert('materialTemplate', [
    { code: 'TPL-RING', name: '轴承套圈', remark: '内圈、外圈按对应轴承型号的公称尺寸和精度等级描述' },
  ]);
  const ringTemplate = idOf(templates, 'TPL-RING');
  await insertLines('materialTemplateAttribute', { materialTemplateId: ringTemplate }, [
    { name: '内径 d', dataType: 'number', unit: 'mm', required: true },
    { name: '外径 D', dataType: 'number', unit: 'mm', required: true },
    { name: '宽度 B', dataType: 'number', unit: 'mm', required: true },
    { name: '精度等级', dataType: 'enum', required: true, options: 'P0,P6,P5,P4' },
  ]);

  // ------------------------------------------------------------ 物料

  interface Material {
    code: string;
    name: string;
    spec: string;
    type: string;
    unit: string;
    cls: string;
    method: string;
    group?: string;
    warehouse: string;
    cost?: string;
    price?: string;
    min?: string;
    max?: string;
    batch?: boolean;
    drawingNo?: string;
    attributes?: Record<string, string | number>;
    /** 「unitQuantity unit = baseQuantity base units」: 0.180 kg = 1 件, 1 箱 = 100 套. A kg line is the unit weight. */
    conversions?: [unit: string, unitQuantity: string, baseQuantity: string][];
    remark?: string;
  }
  const materials: Material[] = [];

  // GCr15 bearing steel tube, bought and stocked by kg; 1 m weighs 0.02466 × (D − t) × t kg.
  const tubes: [string, number, number, string][] = [
    ['RM-T-3055', 30, 5.5, '5.9000'],
    ['RM-T-3660', 36, 6, '5.9000'],
    ['RM-T-4560', 45, 6, '5.8000'],
    ['RM-T-5270', 52, 7, '5.8000'],
    ['RM-T-6280', 62, 8, '5.8500'],
  ];
  for (const [code, d, t, cost] of tubes) {
    materials.push({
      code,
      name: 'GCr15 轴承钢管',
      spec: `Φ${d}×${t}`,
      type: 'RAW-TUBE',
      unit: 'KG',
      cls: 'KEY',
      method: 'BUY',
      warehouse: 'WH-RM',
      cost,
      min: '2000',
      max: '20000',
      batch: true,
      conversions: [
        ['T', '1', '1000'],
        ['M', '1', (0.02466 * (d - t) * t).toFixed(3)],
      ],
      remark: '冷拔退火管，按炉号管理批次',
    });
  }
  const forgings: [string, string, string, string][] = [
    ['RM-F-6206-OR', '6206 外圈锻件', 'Φ64×Φ52×17', '0.180'],
    ['RM-F-6305-OR', '6305 外圈锻件', 'Φ64×Φ49×18', '0.210'],
    ['RM-F-6305-IR', '6305 内圈锻件', 'Φ41×Φ23×18', '0.120'],
  ];
  for (const [code, name, spec, weight] of forgings) {
    materials.push({
      code,
      name,
      spec,
      type: 'RAW-FORGE',
      unit: 'PCS',
      cls: 'KEY',
      method: 'BUY',
      warehouse: 'WH-RM',
      conversions: [['KG', weight, '1']],
      cost: '2.600000',
      min: '1000',
      max: '10000',
      batch: true,
      remark: 'GCr15 热锻+球化退火',
    });
  }

  // Rings of each bearing size, in P0 and P6: d, D, B; weights of the outer and inner ring.
  const sizes: [model: string, d: number, D: number, B: number, orKg: string, irKg: string][] = [
    ['6204', 20, 47, 14, '0.045', '0.026'],
    ['6205', 25, 52, 15, '0.053', '0.031'],
    ['6206', 30, 62, 16, '0.085', '0.048'],
    ['6305', 25, 62, 17, '0.100', '0.058'],
  ];
  const ringCode = (model: string, ring: 'IR' | 'OR', grade: string) => `SF-${model}-${ring}-${grade}`;
  for (const [model, d, D, B, orKg, irKg] of sizes) {
    for (const grade of ['P0', 'P6']) {
      const p6 = grade === 'P6';
      for (const ring of ['IR', 'OR'] as const) {
        const outer = ring === 'OR';
        materials.push({
          code: ringCode(model, ring, grade),
          name: `${model} ${outer ? '外圈' : '内圈'}`,
          spec: `${outer ? `D${D}` : `d${d}`}×B${B} ${grade}`,
          type: outer ? 'SEMI-OR' : 'SEMI-IR',
          unit: 'PCS',
          cls: 'KEY',
          method: 'MAKE',
          group: 'PRING',
          warehouse: 'WH-SF',
          conversions: [['KG', outer ? orKg : irKg, '1']],
          // Larger rings cost more; P6 takes longer grinding and tighter inspection.
          cost: ((outer ? 1.1 : 0.8) * (p6 ? 1.25 : 1) * (D / 47)).toFixed(2),
          drawingNo: `RM-${model}-${ring}-01`,
          attributes: { '内径 d': d, '外径 D': D, '宽度 B': B, 精度等级: grade },
        });
      }
    }
  }

  // Balls: G10 chrome steel; a ball of diameter d mm weighs 7.85 × π/6 × d³ mg.
  const balls: [string, string, string][] = [
    ['AX-B-7938', '7.938', '5/16"'],
    ['AX-B-9525', '9.525', '3/8"'],
    ['AX-B-10319', '10.319', '13/32"'],
  ];
  for (const [code, dia, inch] of balls) {
    const grams = (7.85e-3 * Math.PI * Number(dia) ** 3) / 6;
    materials.push({
      code,
      name: '轴承钢球',
      spec: `G10 Φ${dia} (${inch})`,
      type: 'AUX-BALL',
      unit: 'GRN',
      cls: 'KEY',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: ((0.03 * Number(dia) ** 3) / 500).toFixed(4),
      min: '20000',
      max: '300000',
      batch: true,
      // Balls are sold by the weight of a thousand (千粒重): 2.0526 kg = 1000 粒 for Φ7.938.
      conversions: [['KG', grams.toFixed(4), '1000']],
    });
  }
  for (const model of ['6204', '6205', '6206', '6305']) {
    materials.push({
      code: `AX-C-${model}`,
      name: `${model} 浪形保持架`,
      spec: `${model} 冲压钢板 08F`,
      type: 'AUX-CAGE',
      unit: 'PCS',
      cls: 'MAJOR',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: { '6204': '0.25', '6205': '0.28', '6206': '0.36', '6305': '0.42' }[model],
      min: '5000',
      max: '50000',
      conversions: [['BOX', '1', '1000']],
    });
  }
  for (const model of ['6204', '6205', '6206']) {
    materials.push({
      code: `AX-S-${model}-RS`,
      name: `${model} 橡胶密封圈`,
      spec: `${model}-RS 丁腈橡胶骨架`,
      type: 'AUX-SEAL',
      unit: 'PCS',
      cls: 'MAJOR',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: '0.18',
      min: '10000',
      max: '100000',
      conversions: [['BOX', '1', '1000']],
    });
  }
  for (const model of ['6204', '6205', '6305']) {
    materials.push({
      code: `AX-S-${model}-Z`,
      name: `${model} 防尘盖`,
      spec: `${model}-Z 冲压钢板`,
      type: 'AUX-SEAL',
      unit: 'PCS',
      cls: 'MAJOR',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: '0.12',
      min: '10000',
      max: '100000',
      conversions: [['BOX', '1', '1000']],
    });
  }
  materials.push(
    {
      code: 'AX-G-LI2',
      name: '锂基润滑脂',
      spec: '2 号 通用锂基脂',
      type: 'AUX-GREASE',
      unit: 'G',
      cls: 'MAJOR',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: '0.032',
      min: '50000',
      max: '500000',
      batch: true,
      conversions: [
        ['KG', '1', '1000'],
        ['BKT', '1', '18000'],
      ],
    },
    {
      code: 'AX-G-PU',
      name: '聚脲润滑脂',
      spec: '低噪音 电机轴承专用',
      type: 'AUX-GREASE',
      unit: 'G',
      cls: 'MAJOR',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: '0.085',
      min: '20000',
      max: '200000',
      batch: true,
      conversions: [
        ['KG', '1', '1000'],
        ['BKT', '1', '16000'],
      ],
    },
  );

  // Finished bearings: rings, balls, cage, seal kind, grease per bearing, box size, prices.
  interface Bearing {
    code: string;
    spec: string;
    model: string;
    grade: 'P0' | 'P6';
    ball: string;
    balls: number;
    seal: 'RS' | 'Z';
    grease: string;
    greaseGrams: string;
    perBox: string;
    weight: string;
    cost: string;
    price: string;
  }
  // biome-ignore format: a data table, one record per line
  const bearings: Bearing[] = [
    { code: 'FG-6204-2RS', spec: '6204-2RS', model: '6204', grade: 'P0', ball: 'AX-B-7938', balls: 8, seal: 'RS', grease: 'AX-G-LI2', greaseGrams: '2.0', perBox: '100', weight: '0.106', cost: '3.05', price: '4.20' },
    { code: 'FG-6204ZZ', spec: '6204ZZ', model: '6204', grade: 'P0', ball: 'AX-B-7938', balls: 8, seal: 'Z', grease: 'AX-G-LI2', greaseGrams: '1.8', perBox: '100', weight: '0.106', cost: '2.80', price: '3.90' },
    { code: 'FG-6205-2RS', spec: '6205-2RS', model: '6205', grade: 'P0', ball: 'AX-B-7938', balls: 9, seal: 'RS', grease: 'AX-G-LI2', greaseGrams: '2.5', perBox: '100', weight: '0.128', cost: '3.45', price: '4.80' },
    { code: 'FG-6205ZZ', spec: '6205ZZ', model: '6205', grade: 'P0', ball: 'AX-B-7938', balls: 9, seal: 'Z', grease: 'AX-G-LI2', greaseGrams: '2.2', perBox: '100', weight: '0.128', cost: '3.20', price: '4.50' },
    { code: 'FG-6205-2RS-P6', spec: '6205-2RS/P6', model: '6205', grade: 'P6', ball: 'AX-B-7938', balls: 9, seal: 'RS', grease: 'AX-G-PU', greaseGrams: '2.5', perBox: '100', weight: '0.128', cost: '4.40', price: '6.20' },
    { code: 'FG-6206-2RS', spec: '6206-2RS', model: '6206', grade: 'P0', ball: 'AX-B-9525', balls: 9, seal: 'RS', grease: 'AX-G-LI2', greaseGrams: '3.5', perBox: '60', weight: '0.199', cost: '4.70', price: '6.50' },
    { code: 'FG-6305ZZ', spec: '6305ZZ', model: '6305', grade: 'P0', ball: 'AX-B-10319', balls: 8, seal: 'Z', grease: 'AX-G-LI2', greaseGrams: '3.5', perBox: '50', weight: '0.232', cost: '5.20', price: '7.20' },
  ];
  for (const b of bearings) {
    materials.push({
      code: b.code,
      name: `深沟球轴承 ${b.spec}`,
      spec: b.spec,
      type: 'FIN-DGBB',
      unit: 'SET',
      cls: 'KEY',
      method: 'MAKE',
      group: b.model.startsWith('63') ? 'P63' : 'P62',
      warehouse: 'WH-FG',
      cost: b.cost,
      price: b.price,
      min: '500',
      max: '20000',
      batch: true,
      drawingNo: `ZC-${b.spec.replace('/', '-')}`,
      conversions: [
        ['BOX', '1', b.perBox],
        ['KG', b.weight, '1'],
      ],
      remark: b.seal === 'RS' ? '双面橡胶密封' : '双面防尘盖',
    });
  }
  const tools: [string, string, string, string][] = [
    ['TL-001', '数控车刀片', 'CNMG120408 涂层硬质合金', 'EA'],
    ['TL-002', '陶瓷砂轮', 'PA80 Φ400×50×203', 'EA'],
    ['TL-003', '内径百分表', '18–35 mm 0.01', 'EA'],
    ['TL-004', '外径千分尺', '25–50 mm 0.001', 'EA'],
  ];
  for (const [code, name, spec, u] of tools) {
    materials.push({
      code,
      name,
      spec,
      type: 'TOOL',
      unit: u,
      cls: 'GENERAL',
      method: 'BUY',
      warehouse: 'WH-AX',
      cost: { 'TL-001': '28.00', 'TL-002': '460.00', 'TL-003': '185.00', 'TL-004': '320.00' }[code],
      min: '5',
      max: '100',
    });
  }

  // MRP (issue 37 §1): what buying takes and in what lots; made items take their routes' time.
  const PURCHASE: Record<string, { days: number; min?: string; multiple?: string }> = {
    'RAW-TUBE': { days: 15, min: '1000', multiple: '500' },
    'RAW-FORGE': { days: 20, min: '500', multiple: '100' },
    'AUX-BALL': { days: 10, multiple: '10000' },
    'AUX-CAGE': { days: 7, min: '2000', multiple: '1000' },
    'AUX-SEAL': { days: 7, multiple: '1000' },
    'AUX-GREASE': { days: 5, multiple: '5000' },
    TOOL: { days: 3 },
  };
  const materialIds = await insert(
    'material',
    materials.map((m) => ({
      code: m.code,
      name: m.name,
      spec: m.spec,
      materialTypeId: type(m.type),
      unitId: unit(m.unit),
      classificationId: idOf(classes, m.cls),
      manufacturingMethodId: idOf(methods, m.method),
      productGroupId: m.group ? idOf(groups, m.group) : null,
      templateId: m.attributes ? ringTemplate : null,
      attributes: JSON.stringify(m.attributes ?? {}),
      defaultWarehouseId: wh(m.warehouse),
      drawingNo: m.drawingNo ?? null,
      standardCost: m.cost ?? null,
      salePrice: m.price ?? null,
      safetyStockMin: m.min ?? null,
      safetyStockMax: m.max ?? null,
      leadTimeDays: PURCHASE[m.type]?.days ?? null,
      lotSizeMin: PURCHASE[m.type]?.min ?? null,
      lotSizeMultiple: PURCHASE[m.type]?.multiple ?? null,
      batchManaged: m.batch ?? false,
      remark: m.remark ?? null,
    })),
  );
  const material = (code: string) => idOf(materialIds, code);
  for (const m of materials) {
    await insertLines(
      'materialUnitConversion',
      { materialId: material(m.code) },
      (m.conversions ?? []).map(([u, unitQuantity, baseQuantity]) => ({
        unitId: unit(u),
        unitQuantity,
        baseQuantity,
      })),
    );
  }
  // The unit weight is the kilogram conversion read the other way (one fact).
  await deriveWeights(db, [...materialIds.values()]);

  // ------------------------------------------------------------ 工序

  // biome-ignore format: a data table, one record per line
  const processes: [
    code: string,
    name: string,
    cls: string,
    ws: string | null,
    minutes: string | null,
    rate: string | null,
    inspect: boolean,
    remark?: string,
  ][] = [
    ['GX010', '下料', 'TURN', 'WS01', '0.50', '0.05', false],
    ['GX020', '粗车', 'TURN', 'WS01', '1.20', '0.12', false, '锻件毛坯粗车'],
    ['GX030', '精车', 'TURN', 'WS01', '1.50', '0.15', true],
    ['GX040', '车外圈', 'TURN', 'WS01', '1.80', '0.18', true, '钢管料一次车成外圈'],
    ['GX050', '车内圈', 'TURN', 'WS01', '1.60', '0.16', true, '钢管料一次车成内圈'],
    ['GX060', '热处理', 'HEAT', null, null, null, true, '委外淬火+回火，返回检验硬度 HRC 60–64'],
    ['GX070', '磨端面', 'GRIND', 'WS02', '0.60', '0.08', false],
    ['GX080', '磨外径', 'GRIND', 'WS02', '0.80', '0.10', false],
    ['GX090', '磨内径', 'GRIND', 'WS02', '1.00', '0.12', false],
    ['GX100', '磨沟道', 'GRIND', 'WS02', '1.20', '0.15', true, '沟道是套圈的工作面：磨加工的首检、巡检在此'],
    ['GX110', '超精', 'GRIND', 'WS02', '0.90', '0.12', true],
    ['GX120', '清洗', 'INSP', 'WS03', '0.20', '0.02', false],
    ['GX130', '尺寸检测', 'INSP', 'WS03', '0.50', '0.05', false],
    ['GX140', '外观检测', 'INSP', 'WS03', '0.30', '0.03', false],
    ['GX150', '探伤', 'INSP', 'WS03', '0.40', '0.05', false],
    ['GX160', '合套', 'ASSY', 'WS04', '0.30', '0.04', false],
    ['GX170', '装球', 'ASSY', 'WS04', '0.20', '0.03', false],
    ['GX180', '装保持架', 'ASSY', 'WS04', '0.20', '0.03', false],
    ['GX190', '注脂', 'ASSY', 'WS04', '0.15', '0.02', false],
    ['GX200', '压盖', 'ASSY', 'WS04', '0.20', '0.03', true, '末检：游隙、旋转灵活性、振动'],
    ['GX210', '包装', 'ASSY', 'WS04', '0.10', '0.01', false],
  ];
  const processIds = await insert(
    'process',
    processes.map(([code, name, cls, workshop, minutes, rate, inspect, remark]) => ({
      code,
      name,
      classifyId: idOf(processClasses, cls),
      workshopId: workshop ? ws(workshop) : null,
      standardMinutes: minutes,
      pieceRate: rate,
      inspectionRequired: inspect,
      outsourced: workshop === null,
      remark: remark ?? null,
    })),
  );
  const processInfo = new Map(processes.map((p) => [p[0], p]));

  // ------------------------------------------------------------ 工艺路线

  /** One active V1 route per product: steps 10, 20, 30… taking workshop, time and flags from the process. */
  async function route(productCode: string, name: string, steps: string[]) {
    const ids = await insert('processRoute', [
      {
        code: `RT-${productCode}`,
        name,
        productId: material(productCode),
        versionNo: 'V1',
        status: 'active',
      },
    ]);
    await insertLines(
      'processRouteStep',
      { processRouteId: idOf(ids, `RT-${productCode}`) },
      steps.map((code, i) => {
        const [, , , workshop, minutes, , inspect] = processInfo.get(code) ?? [];
        return {
          seq: (i + 1) * 10,
          processId: idOf(processIds, code),
          workshopId: workshop ? ws(workshop) : null,
          standardMinutes: minutes ?? null,
          outsourced: workshop === null,
          inspectionRequired: inspect ?? false,
        };
      }),
    );
  }
  /** Rings from forgings are rough- and finish-turned; rings from tube are cut and turned in one go. */
  const fromForging = (model: string, ring: 'IR' | 'OR') =>
    forgings.some(([code]) => code === `RM-F-${model}-${ring}`);
  for (const [model] of sizes) {
    for (const grade of ['P0', 'P6']) {
      for (const ring of ['IR', 'OR'] as const) {
        const turning = fromForging(model, ring)
          ? ['GX020', 'GX030']
          : ['GX010', ring === 'OR' ? 'GX040' : 'GX050'];
        const grinding = ['GX070', ring === 'OR' ? 'GX080' : 'GX090', 'GX100', 'GX110'];
        const inspection = ['GX120', 'GX130', 'GX140', ...(grade === 'P6' || ring === 'OR' ? ['GX150'] : [])];
        await route(
          ringCode(model, ring, grade),
          `${model} ${ring === 'OR' ? '外圈' : '内圈'} ${grade} 加工路线`,
          [...turning, 'GX060', ...grinding, ...inspection],
        );
      }
    }
  }
  for (const b of bearings) {
    await route(b.code, `${b.spec} 装配路线`, ['GX160', 'GX170', 'GX180', 'GX190', 'GX200', 'GX210']);
  }

  // ------------------------------------------------------------ 产品BOM

  async function bom(
    productCode: string,
    components: [
      material: string,
      quantity: string,
      unit: string,
      lossRate: string,
      process: string | null,
    ][],
  ) {
    const ids = await insert('bom', [
      { code: `BOM-${productCode}`, productId: material(productCode), versionNo: 'V1', status: 'active' },
    ]);
    await insertLines(
      'bomLine',
      { bomId: idOf(ids, `BOM-${productCode}`) },
      components.map(([m, quantity, u, lossRate, process]) => ({
        materialId: material(m),
        quantity,
        unitId: unit(u),
        lossRate,
        processId: process ? idOf(processIds, process) : null,
      })),
    );
  }
  // Rings: steel per ring (kg of tube, cut-off included) or one forging.
  const tubeFor: Record<string, [tube: string, kg: string]> = {
    '6204-IR': ['RM-T-3055', '0.040'],
    '6205-IR': ['RM-T-3660', '0.048'],
    '6206-IR': ['RM-T-4560', '0.075'],
    '6204-OR': ['RM-T-5270', '0.070'],
    '6205-OR': ['RM-T-6280', '0.085'],
  };
  for (const [model] of sizes) {
    for (const grade of ['P0', 'P6']) {
      for (const ring of ['IR', 'OR'] as const) {
        const product = ringCode(model, ring, grade);
        if (fromForging(model, ring))
          await bom(product, [[`RM-F-${model}-${ring}`, '1', 'PCS', '0.50', 'GX020']]);
        else {
          const [tube, kg] = tubeFor[`${model}-${ring}`];
          await bom(product, [[tube, kg, 'KG', '2.00', 'GX010']]);
        }
      }
    }
  }
  for (const b of bearings) {
    const seal = `AX-S-${b.model}-${b.seal}`;
    await bom(b.code, [
      [ringCode(b.model, 'IR', b.grade), '1', 'PCS', '0', 'GX160'],
      [ringCode(b.model, 'OR', b.grade), '1', 'PCS', '0', 'GX160'],
      [b.ball, String(b.balls), 'GRN', '0.50', 'GX170'],
      [`AX-C-${b.model}`, '1', 'PCS', '0.20', 'GX180'],
      [b.grease, b.greaseGrams, 'G', '3.00', 'GX190'],
      [seal, '2', 'PCS', '1.00', 'GX200'],
    ]);
  }

  // ------------------------------------------------------------ 供应商

  // biome-ignore format: a data table, one record per line
  const suppliers: [
    code: string,
    name: string,
    cls: string,
    contact: string,
    phone: string,
    address: string,
    bank: string,
    taxNo: string,
  ][] = [
    ['SUP001', '江阴澄江特钢有限公司', 'STEEL', '顾建华', '0510-86201188', '江苏省江阴市滨江西路 288 号', '中国工商银行江阴支行 1103 0268 0900 0012 345', '91320281MA1ANB2K7X'],
    ['SUP002', '常州武进精密钢管有限公司', 'STEEL', '蒋国平', '0519-86332456', '江苏省常州市武进区湖塘镇钢管路 16 号', '中国农业银行武进支行 1060 5101 0400 2233 8', '91320412MA1MQ8TX3P'],
    ['SUP003', '无锡锡山锻造有限公司', 'FORGE', '华志强', '0510-88715320', '江苏省无锡市锡山区东港镇工业园 9 号', '江苏银行无锡锡山支行 2301 0188 0000 6621', '91320205MA1XK2C05R'],
    ['SUP004', '常州天宁热处理有限公司', 'HEAT', '钱立新', '0519-85106678', '江苏省常州市天宁区青洋北路 120 号', '中国银行常州天宁支行 4659 5820 1234', '91320402MA1NF3UL8G'],
    ['SUP005', '宁波北仑真空热处理厂', 'HEAT', '应海波', '0574-86887721', '浙江省宁波市北仑区大港工业城 33 号', '宁波银行北仑支行 5101 0122 0003 4567 8', '91330206MA2H7L9Q1N'],
    ['SUP006', '聊城宏达钢球有限公司', 'BALL', '张守信', '0635-8512346', '山东省聊城市临清市烟店镇轴承工业园', '中国建设银行临清支行 3705 0164 7201 0000 1234', '91371581MA3C9K4W2T'],
    ['SUP007', '启东精工钢球厂', 'BALL', '沈卫东', '0513-83221905', '江苏省启东市汇龙镇钢球路 5 号', '中国工商银行启东支行 1111 5230 0900 0456 78', '91320681MA1P3R6J4D'],
    ['SUP008', '慈溪长河保持架有限公司', 'CAGE', '胡建军', '0574-63552018', '浙江省慈溪市长河镇工业区 58 号', '中国农业银行慈溪长河支行 3914 5601 0400 1122 3', '91330282MA2GQ7B60C'],
    ['SUP009', '邢台橡塑密封件有限公司', 'SEAL', '李秀梅', '0319-5102233', '河北省邢台市临西县轴承工业园 12 号', '河北银行邢台临西支行 0805 0120 0000 3344', '91130535MA0D8Y2K5E'],
    ['SUP010', '上海松江润滑油脂有限公司', 'GREASE', '陆振华', '021-57781234', '上海市松江区车墩镇香泾路 66 号', '交通银行上海松江支行 3100 6681 8018 0001 2345', '91310117MA1J4P7T9H'],
    ['SUP011', '温州瓯海包装材料有限公司', 'PACK', '陈晓东', '0577-86012345', '浙江省温州市瓯海区娄桥工业园 22 号', '浙商银行温州瓯海支行 3330 0000 1012 0100 5566', '91330304MA2AT3H48L'],
    ['SUP012', '株洲精锐硬质合金刀具有限公司', 'TOOL', '谭志勇', '0731-28456789', '湖南省株洲市荷塘区钻石路 8 号', '中国银行株洲荷塘支行 5870 5700 8866', '91430202MA4L2Q8U3M'],
  ];
  await insert(
    'supplier',
    suppliers.map(([code, name, cls, contact, phone, address, bankAccount, taxNo]) => ({
      code,
      name,
      classifyId: idOf(supplierClasses, cls),
      contact,
      phone,
      address,
      bankAccount,
      taxNo,
    })),
  );

  // ------------------------------------------------------------ 客户

  const credit: Record<string, string | null> = { A: '800000.00', B: '300000.00', C: '50000.00' };
  // biome-ignore format: a data table, one record per line
  const customers: {
    code: string;
    name: string;
    cls: string;
    grade: string;
    labels: string[];
    address: string;
    contacts: [name: string, position: string, phone: string, email?: string][];
    state?: '0';
    remark?: string;
  }[] = [
    { code: 'CUS001', name: '浙江钱塘汽车零部件有限公司', cls: 'AUTO', grade: 'A', labels: ['LONG', 'REPORT'], address: '浙江省杭州市萧山经济技术开发区建设二路 318 号', contacts: [['周海峰', '采购经理', '0571-82891234', 'zhouhf@qiantang-auto.example'], ['吴婷', '质量工程师', '13757112345']] },
    { code: 'CUS002', name: '宁波北仑汽配制造有限公司', cls: 'AUTO', grade: 'B', labels: ['NET60'], address: '浙江省宁波市北仑区小港街道渡口南路 77 号', contacts: [['林志明', '采购主管', '0574-86123456']] },
    { code: 'CUS003', name: '重庆渝北摩托车配件有限公司', cls: 'AUTO', grade: 'B', labels: ['PRICE'], address: '重庆市渝北区双凤桥街道空港大道 55 号', contacts: [['刘建', '采购员', '023-67451234'], ['何丽', '财务', '023-67451235']] },
    { code: 'CUS004', name: '常州恒力电机有限公司', cls: 'MOTOR', grade: 'A', labels: ['LONG', 'REPORT', 'EXPORT'], address: '江苏省常州市新北区电子产业园汉江路 9 号', contacts: [['朱伟', '供应链总监', '0519-85512345', 'zhuwei@hengli-motor.example'], ['潘小燕', '采购', '13961234567']] },
    { code: 'CUS005', name: '温岭东方电机有限公司', cls: 'MOTOR', grade: 'B', labels: ['NET60', 'PRICE'], address: '浙江省台州市温岭市大溪镇工业区 102 号', contacts: [['江国庆', '采购经理', '0576-86351234']] },
    { code: 'CUS006', name: '福安大华电机厂', cls: 'MOTOR', grade: 'C', labels: ['PRICE'], address: '福建省宁德市福安市湾坞工业区', contacts: [['郑永福', '厂长', '0593-6521234']] },
    { code: 'CUS007', name: '潍坊丰收农业机械有限公司', cls: 'AGRI', grade: 'B', labels: ['LONG'], address: '山东省潍坊市坊子区凤山路 168 号', contacts: [['王树森', '采购科长', '0536-7601234']] },
    { code: 'CUS008', name: '洛阳中原农机装备有限公司', cls: 'AGRI', grade: 'A', labels: ['LONG', 'NET60', 'REPORT'], address: '河南省洛阳市涧西区建设路 200 号', contacts: [['马红军', '物资部部长', '0379-64231234', 'mahj@zy-agri.example'], ['赵敏', '质检', '13838812345']] },
    { code: 'CUS009', name: '泰兴精工减速机有限公司', cls: 'REDUCER', grade: 'A', labels: ['LONG', 'REPORT'], address: '江苏省泰州市泰兴市减速机产业园 6 号', contacts: [['丁国华', '采购经理', '0523-87651234', 'dinggh@tx-reducer.example']] },
    { code: 'CUS010', name: '杭州传动减速机有限公司', cls: 'REDUCER', grade: 'B', labels: ['EXPORT'], address: '浙江省杭州市余杭区仁和街道禹航路 12 号', contacts: [['孙立', '采购', '0571-86231234']] },
    { code: 'CUS011', name: '佛山顺德家电电机有限公司', cls: 'MOTOR', grade: 'C', labels: ['NEW'], address: '广东省佛山市顺德区北滘镇工业大道 31 号', contacts: [['黄俊杰', '采购工程师', '0757-26651234']] },
    { code: 'CUS012', name: '上海浦东轴承销售有限公司', cls: 'DEALER', grade: 'B', labels: ['NET60'], address: '上海市浦东新区川沙路 1288 号', contacts: [['徐斌', '总经理', '021-58991234'], ['顾佳', '业务员', '13601712345']] },
    { code: 'CUS013', name: '临沂鲁南轴承经销部', cls: 'DEALER', grade: 'C', labels: ['PRICE'], address: '山东省临沂市兰山区五金城 3 区 18 号', contacts: [['孔德明', '经理', '0539-8221234']], state: '0', remark: '长期拖欠货款，暂停合作' },
  ];
  const customerIds = await insert(
    'customer',
    customers.map((c) => ({
      code: c.code,
      name: c.name,
      classifyId: idOf(customerClasses, c.cls),
      gradeId: idOf(grades, c.grade),
      labelIds: c.labels.map((l) => idOf(labels, l)),
      contact: c.contacts[0][0],
      phone: c.contacts[0][2],
      address: c.address,
      creditLimit: c.cls === 'DEALER' && c.grade === 'C' ? null : credit[c.grade],
      salespersonId: user('sales01'),
      state: c.state ?? '1',
      remark: c.remark ?? null,
    })),
  );
  for (const c of customers) {
    await insertLines(
      'customerContact',
      { customerId: idOf(customerIds, c.code) },
      c.contacts.map(([name, position, phone, email], i) => ({
        name,
        position,
        phone,
        email: email ?? null,
        isPrimary: i === 0,
      })),
    );
  }

  // ------------------------------------------------------------ 系统枚举

  const enums: [type: string, key: string, value: string][] = [
    ['precisionClass', 'P0', 'P0 普通级'],
    ['precisionClass', 'P6', 'P6 高级'],
    ['precisionClass', 'P5', 'P5 精密级'],
    ['precisionClass', 'P4', 'P4 超精密级'],
    ['sealType', '2RS', '双面橡胶密封'],
    ['sealType', 'ZZ', '双面防尘盖'],
    ['sealType', 'OPEN', '开式'],
    ['shift', 'DAY', '白班 08:00–20:00'],
    ['shift', 'NIGHT', '夜班 20:00–08:00'],
    ['scrapType', 'OPERATOR', '工废'],
    ['scrapType', 'MATERIAL', '料废'],
    ['inspectionKind', 'FIRST', '首检'],
    ['inspectionKind', 'PATROL', '巡检'],
    ['inspectionKind', 'LAST', '末检'],
    ['qualityStatus', 'PENDING', '待检'],
    ['qualityStatus', 'PASS', '合格'],
    ['qualityStatus', 'FAIL', '不合格'],
  ];
  const order = new Map<string, number>();
  await db
    .insertInto('sysEnum')
    .values(
      enums.map(([enumType, enumKey, enumValue]) => {
        const n = (order.get(enumType) ?? 0) + 1;
        order.set(enumType, n);
        return { enumType, enumKey, enumValue, orderNum: n * 10, ...audit };
      }),
    )
    .execute();
}
