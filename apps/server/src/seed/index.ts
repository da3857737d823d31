import crypto from 'node:crypto';
import {
  MENU_TREE,
  type MenuNode,
  PRODUCTION_MANAGE_PATH,
  WORKSHOP_KINDS,
  type WorkshopKind,
} from '@ringmes/domain';
import type { Config } from '../config.ts';
import { storageOf } from '../platform/attachments/attachments.ts';
import { hashPassword } from '../platform/auth/password.ts';
import type { Db } from '../platform/db/db.ts';
import { seedDemoComments } from './demo-comments.ts';
import { seedDemoCosting } from './demo-costing.ts';
import { seedDemoEquipment } from './demo-equipment.ts';
import { seedDemoFinance } from './demo-finance.ts';
import { seedDemoMasterData } from './demo-master.ts';
import { seedDemoMeasurements } from './demo-measure.ts';
import { seedDemoDigest } from './demo-notify.ts';
import { seedDemoOee } from './demo-oee.ts';
import { seedDemoPrintTemplates } from './demo-print-templates.ts';
import { seedDemoFlowCards, seedDemoProduction } from './demo-production.ts';
import { seedDemoOutsourcing, seedDemoPurchase, seedDemoRequisitions } from './demo-purchase.ts';
import { seedDemoQuality } from './demo-quality.ts';
import { seedDemoRingMatching } from './demo-ring-matching.ts';
import { seedDemoRingStandard } from './demo-ring-standard.ts';
import { seedDemoSales, seedDemoStockUp } from './demo-sales.ts';
import { seedDemoStock, seedRushShipment, seedTracedShipments, stampStockDocuments } from './demo-stock.ts';
import { seedDemoTechnology } from './demo-technology.ts';
import { seedDemoViews } from './demo-views.ts';
import { seedDemoWageMonths, seedDemoWageRates } from './demo-wages.ts';
import { syncMenus } from './menus.ts';
import { seedUser } from './seed-user.ts';

export interface SeedResult {
  mode: 'demo' | 'minimal' | 'none' | 'existing';
  /** Set when the minimal seed generated the admin password: print it once. */
  generatedAdminPassword?: string;
}

export const DEMO_PASSWORD = 'demo123';

/** 越过检验入账 (报工记录): quality's call, withheld from the roles that grant production pages whole. */
const OVERRIDE_INSPECTION = /:inspectOverride$/;

/**
 * An operator's screens in one workshop (操作工任务, 车间操作工任务, 报工, the task sheet): a turning
 * operator gets turning's, not grinding's, so his menu shows his own workshops only.
 */
const operatorOf = (type: WorkshopKind['type'], roleName: string) => {
  const k = WORKSHOP_KINDS.find((w) => w.type === type) as WorkshopKind;
  return {
    roleKey: `operator_${type}`,
    roleName,
    prefixes: ['/home'],
    match: new RegExp(
      `^${PRODUCTION_MANAGE_PATH}/${k.segment}/(.*operator-task|report-work|process-task-sheet)`,
    ),
    withhold: /:(approve|unapprove|inspectOverride)$/,
  };
};

/** Demo roles of a bearing factory and the menu paths each one is granted. */
const DEMO_ROLES: {
  roleKey: string;
  roleName: string;
  prefixes: string[];
  match?: RegExp;
  /** Buttons of the granted pages the role does not get (an operator does not approve his own reports). */
  withhold?: RegExp;
}[] = [
  { roleKey: 'sales', roleName: '销售员', prefixes: ['/home', '/sale-manage', '/factory-info/custom'] },
  {
    roleKey: 'planner',
    roleName: '计划员',
    prefixes: [
      '/home',
      '/sale-manage',
      '/production-department',
      '/technology-dept',
      '/factory-info/material-manage',
      '/factory-info/process-manage',
    ],
    withhold: OVERRIDE_INSPECTION,
  },
  {
    roleKey: 'workshop_head',
    roleName: '车间主任',
    prefixes: [
      '/home',
      '/production-department/production-manage',
      '/workshop-dashboard',
      '/quality-testing',
      '/factory-info/equipment-manage',
      // The SPC messages of his machines link to the statistics reports.
      '/statistics-report',
    ],
    // A report waiting for inspection is posted by quality's result, not by the workshop.
    withhold: OVERRIDE_INSPECTION,
  },
  operatorOf('machine', '车加工操作工'),
  operatorOf('grinding', '磨加工操作工'),
  operatorOf('assembly', '装配操作工'),
  {
    roleKey: 'warehouse',
    roleName: '仓管员',
    prefixes: ['/home', '/warehouse-logistics', '/factory-info/warehouse-modeling'],
    // 委外退货出库 has no page of its own under 仓储物流: the keeper posts it from 委外退货.
    match: /^\/purchase\/outsourcing-rejected/,
  },
  {
    roleKey: 'quality',
    roleName: '质检员',
    prefixes: ['/home', '/quality-testing', '/measure-check', '/statistics-report'],
    // 报工记录: the reports waiting for inspection (首页 links there). The 检测车间's final
    // inspection is inspectors' work: its operator screens, without approving their own reports.
    match:
      /\/work-report-record|\/inspect-workshop\/(operator-task|workshop-operator-task|report-work|process-task-sheet)/,
    withhold: /^production:inspectReport:(approve|unapprove|inspectOverride)$/,
  },
  { roleKey: 'finance', roleName: '财务', prefixes: ['/home', '/finance-department'] },
  { roleKey: 'equipment', roleName: '设备员', prefixes: ['/home', '/factory-info/equipment-manage'] },
  {
    roleKey: 'buyer',
    roleName: '采购员',
    prefixes: ['/home', '/purchase', '/production-department/buying-requisition', '/factory-info/supplier'],
  },
];

/** Does a demo role's grant take the menu node at `path` (with everything under it)? */
const grantsPath = (r: (typeof DEMO_ROLES)[number], path: string) =>
  r.prefixes.some((p) => path === p || path.startsWith(`${p}/`)) || Boolean(r.match?.test(path));

/** The permissions each demo role holds (its menu grant's buttons and pages), by role key. */
export function demoRolePermissions(): Map<string, { roleName: string; permissions: string[] }> {
  const out = new Map<string, { roleName: string; permissions: string[] }>();
  for (const r of DEMO_ROLES) {
    const perms = new Set<string>();
    const walk = (nodes: readonly MenuNode[], granted: boolean) => {
      for (const n of nodes) {
        const g = granted || (n.path !== undefined && grantsPath(r, n.path));
        if (g && n.permission && !r.withhold?.test(n.permission)) perms.add(n.permission);
        walk(n.children ?? [], g);
      }
    };
    walk(MENU_TREE, false);
    out.set(r.roleKey, { roleName: r.roleName, permissions: [...perms] });
  }
  return out;
}

const DEMO_DEPTS: [string, string | null][] = [
  ['总经办', null],
  ['销售部', null],
  ['生产部', null],
  ['车加工车间', '生产部'],
  ['磨加工车间', '生产部'],
  ['检测车间', '生产部'],
  ['装配车间', '生产部'],
  ['技术部', null],
  ['采购部', null],
  ['仓储物流部', null],
  ['质量部', null],
  ['财务部', null],
  ['设备部', null],
];

/** The demo's people; an operator holds the roles of the workshops whose teams he is in (工厂建模 › 班组). */
const DEMO_USERS: {
  userName: string;
  firstName: string;
  dept: string;
  role: string | string[];
  phone: string;
}[] = [
  { userName: 'sales01', firstName: '张丽', dept: '销售部', role: 'sales', phone: '13800000001' },
  { userName: 'plan01', firstName: '王强', dept: '生产部', role: 'planner', phone: '13800000002' },
  { userName: 'head01', firstName: '李军', dept: '车加工车间', role: 'workshop_head', phone: '13800000003' },
  {
    userName: 'op01',
    firstName: '赵刚',
    dept: '车加工车间',
    role: ['operator_machine', 'operator_assembly'],
    phone: '13800000004',
  },
  {
    userName: 'op02',
    firstName: '孙伟',
    dept: '磨加工车间',
    role: ['operator_grinding', 'operator_assembly'],
    phone: '13800000005',
  },
  { userName: 'wh01', firstName: '刘洋', dept: '仓储物流部', role: 'warehouse', phone: '13800000006' },
  { userName: 'qc01', firstName: '陈静', dept: '质量部', role: 'quality', phone: '13800000007' },
  { userName: 'fin01', firstName: '周敏', dept: '财务部', role: 'finance', phone: '13800000008' },
  { userName: 'buy01', firstName: '吴磊', dept: '采购部', role: 'buyer', phone: '13800000009' },
  { userName: 'eq01', firstName: '马超', dept: '设备部', role: 'equipment', phone: '13800000010' },
];

/**
 * Seeds an empty database (`demo` by default, `minimal` or `none`); on a database that already
 * has users it only adds the menu nodes of a newer release.
 */
export async function seed(
  db: Db,
  /** `attachmentDir` (or `s3`): where the demo's technical-document files go (without it they are left out). */
  config: Pick<Config, 'seed' | 'adminPassword'> & Partial<Pick<Config, 'attachmentDir' | 's3'>>,
  /** Progress lines for the console (`npm start` prints them while the demo seed runs). */
  progress: (message: string) => void = () => {},
): Promise<SeedResult> {
  const hasUsers = await db.selectFrom('appUser').select('id').limit(1).executeTakeFirst();
  if (hasUsers) {
    await db.transaction().execute((trx) => syncMenus(trx));
    return { mode: 'existing' };
  }
  const mode = config.seed ?? 'demo';
  if (mode === 'none') return { mode };

  const adminPassword = mode === 'demo' ? config.adminPassword || 'admin123' : config.adminPassword;
  const generated = adminPassword ? undefined : crypto.randomBytes(9).toString('base64url');
  const adminHash = await hashPassword(adminPassword ?? (generated as string));
  const demoHash = mode === 'demo' ? await hashPassword(DEMO_PASSWORD) : '';

  await db.transaction().execute(async (trx) => {
    await syncMenus(trx);
    const company = await trx
      .insertInto('dept')
      .values({ deptName: 'RingMES 轴承有限公司', orderNum: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const adminRole = await trx
      .insertInto('role')
      .values({ roleName: '超级管理员', roleKey: 'admin', orderNum: 0, remark: '拥有全部权限' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await trx
      .insertInto('appUser')
      .values({
        userName: 'admin',
        firstName: '系统管理员',
        passwordHash: adminHash,
        deptId: company.id,
        introduction: '系统内置管理员',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('userRole').values({ userId: admin.id, roleId: adminRole.id }).execute();
    await trx
      .insertInto('sysSetting')
      .values([
        { key: 'companyName', value: JSON.stringify('RingMES 轴承有限公司') },
        { key: 'shipmentInspectionRequired', value: JSON.stringify(false) },
        { key: 'passwordMinLength', value: JSON.stringify(6) },
      ])
      .execute();
    if (mode !== 'demo') return;

    const t0 = Date.now();
    const step = async (n: number, what: string, fn: () => Promise<unknown>) => {
      progress(`正在生成演示数据 ${n}/10：${what}…`);
      await fn();
    };
    progress('正在生成演示数据 1/10：部门、角色与账号…');
    const deptIds = new Map<string, number>();
    for (const [i, [name, parent]] of DEMO_DEPTS.entries()) {
      const row = await trx
        .insertInto('dept')
        .values({
          deptName: name,
          parentId: parent ? deptIds.get(parent) : company.id,
          orderNum: (i + 1) * 10,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      deptIds.set(name, row.id);
    }
    const menus = await trx
      .selectFrom('menu')
      .select(['id', 'parentId', 'menuPath', 'menuPermissions'])
      .execute();
    const permissionOf = new Map(menus.map((m) => [m.id, m.menuPermissions]));
    const children = new Map<number, number[]>();
    for (const m of menus)
      if (m.parentId) children.set(m.parentId, [...(children.get(m.parentId) ?? []), m.id]);
    const withDescendants = (ids: number[]) => {
      const out = new Set<number>();
      const stack = [...ids];
      while (stack.length) {
        const id = stack.pop() as number;
        if (out.has(id)) continue;
        out.add(id);
        stack.push(...(children.get(id) ?? []));
      }
      return [...out];
    };
    const roleIds = new Map<string, number>();
    for (const [i, r] of DEMO_ROLES.entries()) {
      const row = await trx
        .insertInto('role')
        .values({ roleName: r.roleName, roleKey: r.roleKey, orderNum: (i + 2) * 10 })
        .returning('id')
        .executeTakeFirstOrThrow();
      roleIds.set(r.roleKey, row.id);
      const roots = menus.filter((m) => m.menuPath && grantsPath(r, m.menuPath)).map((m) => m.id);
      const grant = withDescendants(roots).filter((id) => !r.withhold?.test(permissionOf.get(id) ?? ''));
      if (grant.length)
        await trx
          .insertInto('roleMenu')
          .values(grant.map((menuId) => ({ roleId: row.id, menuId })))
          .execute();
    }
    for (const u of DEMO_USERS) {
      const row = await trx
        .insertInto('appUser')
        .values({
          userName: u.userName,
          firstName: u.firstName,
          passwordHash: demoHash,
          deptId: deptIds.get(u.dept),
          phone: u.phone,
          email: `${u.userName}@ringmes.example`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('userRole')
        .values([u.role].flat().map((role) => ({ userId: row.id, roleId: roleIds.get(role) as number })))
        .execute();
    }
    await step(2, '工厂、物料、工艺与客商', async () => {
      await seedDemoMasterData(trx);
      await seedDemoWageRates(trx);
      await seedDemoCosting(trx);
    });
    await step(3, '入库、出库、调拨与盘点', () => seedDemoStock(trx, admin.id));
    await step(4, '销售订单、发货与备货单', async () => {
      await seedDemoSales(trx, seedUser(admin.id));
      await seedDemoStockUp(trx, seedUser(admin.id));
    });
    await step(5, '采购、委外、请购与生产订单', async () => {
      await seedDemoPurchase(trx, seedUser(admin.id));
      await seedDemoRequisitions(trx, seedUser(admin.id));
      await seedDemoProduction(trx, seedUser(admin.id));
      await seedDemoFlowCards(trx, seedUser(admin.id));
      await seedDemoOutsourcing(trx, seedUser(admin.id));
      await seedTracedShipments(trx, seedUser(admin.id));
      await seedRushShipment(trx, seedUser(admin.id));
      await stampStockDocuments(trx);
    });
    // 应收/应付 from the posted documents above: terms, receipts and payments.
    await step(6, '应收、应付、收款与付款', () => seedDemoFinance(trx, seedUser(admin.id)));
    await step(7, '设备报修、保养与点检', async () => {
      await seedDemoEquipment(trx, seedUser(admin.id));
      // 设备OEE: calendars, the dispatches' operator events with pauses, signals of one grinder.
      await seedDemoOee(trx, admin.id);
    });
    await step(8, '检验、轴承套圈标准、测量记录与 SPC', async () => {
      // 轴承套圈标准: bearing sizes and classes on the demo products, one customer tightening.
      await seedDemoRingStandard(trx, admin.id);
      await seedDemoQuality(trx, seedUser(admin.id));
      await seedDemoMeasurements(trx, seedUser(admin.id));
      // 选配: measured 6204 ring lots in stock, one bearing card matched in CN.
      await seedDemoRingMatching(trx, seedUser(admin.id));
      // 动态: a few comments between sales, planning and the warehouse, one mentioning 王强.
      await seedDemoComments(trx);
      // 保存的视图: 张丽's own (one her default) and two shared with the sales and planner roles.
      await seedDemoViews(trx);
      // 打印模板: the factory's 流转卡, 成品箱 and 物料 labels and the customer's 销售订单, each the default.
      await seedDemoPrintTemplates(trx, admin.id);
    });
    // The wage months close last, over every report the steps above posted.
    await step(9, '工序工资结账', () => seedDemoWageMonths(trx, admin.id));
    // 消息通知: qc01's 待检验 as one hourly digest instead of a message per task.
    await seedDemoDigest(trx);
    const { attachmentDir, s3 } = config;
    if (attachmentDir || s3) {
      const storage = storageOf({ attachmentDir: attachmentDir ?? '', s3 });
      await step(10, '技术文档与图纸', () => seedDemoTechnology(trx, seedUser(admin.id), storage));
    }
    await trx
      .insertInto('message')
      .values({
        userId: admin.id,
        title: '欢迎使用 RingMES',
        content: '演示数据已就绪：各部门角色的演示账号密码均为 demo123。',
        kind: 'system',
      })
      .execute();
    progress(`演示数据已生成（${((Date.now() - t0) / 1000).toFixed(1)} 秒）`);
  });
  return { mode, generatedAdminPassword: generated };
}
