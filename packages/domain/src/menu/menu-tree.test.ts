import { describe, expect, it } from 'vitest';
import { MENU_TREE } from './menu-tree.ts';
import { allPermissions, findByPath, flattenMenu, pageTitles } from './menu-utils.ts';
import type { MenuNode } from './types.ts';

const all = flattenMenu(MENU_TREE);
const routed = all.filter((node) => node.type !== '3');
const pages = all.filter((node) => node.type === '2');
const visiblePages = pages.filter((node) => !node.hidden);
const hiddenPages = pages.filter((node) => node.hidden);
const buttons = all.filter((node) => node.type === '3');
const CHINESE = /[\u4e00-\u9fff]/;
const PERMISSION = /^[a-z]+:[a-zA-Z]+:[a-zA-Z]+$/;
const AREAS = [
  'sale',
  'production',
  'technology',
  'purchase',
  'warehouse',
  'measure',
  'quality',
  'finance',
  'factory',
  'dashboard',
  'report',
  'system',
];

/** Parent of every node (top-level nodes map to undefined). */
const parentOf = new Map<MenuNode, MenuNode | undefined>();
(function index(nodes: MenuNode[], parent?: MenuNode) {
  for (const node of nodes) {
    parentOf.set(node, parent);
    if (node.children) index(node.children, node);
  }
})(MENU_TREE);

const buttonPermissions = (path: string): string[] =>
  (findByPath(MENU_TREE, path)?.children ?? []).filter((c) => c.type === '3').map((c) => c.permission ?? '');

describe('MENU_TREE shape', () => {
  it('has the top-level directories in menu order, each with a Chinese name and an icon', () => {
    expect(MENU_TREE.map((node) => [node.name, node.path])).toEqual([
      ['首页', '/home'],
      ['销售管理', '/sale-manage'],
      ['生产部', '/production-department'],
      ['技术部', '/technology-dept'],
      ['采购管理', '/purchase'],
      ['仓储物流', '/warehouse-logistics'],
      ['计量检定', '/measure-check'],
      ['质量检测', '/quality-testing'],
      ['财务部', '/finance-department'],
      ['工厂信息', '/factory-info'],
      ['车间看板', '/workshop-dashboard'],
      ['统计报表', '/statistics-report'],
      ['系统管理', '/system'],
    ]);
    for (const node of MENU_TREE) {
      expect(node.type).toBe('1');
      expect(node.icon).toMatch(/^[A-Z][A-Za-z]+(Outlined|Filled|TwoTone)$/);
    }
  });

  it('starts with the pinned, uncached 首页 page', () => {
    expect(pages[0]).toMatchObject({
      type: '2',
      name: '首页',
      path: '/home/info',
      affix: true,
      noCache: true,
    });
    expect(pages.filter((node) => node.affix)).toHaveLength(1);
  });

  it('gives every directory and page a unique absolute path under its top-level directory', () => {
    const paths = routed.map((node) => node.path);
    for (const path of paths) {
      expect(path).toMatch(/^(\/[A-Za-z0-9-]+)+$/);
    }
    expect(new Set(paths).size).toBe(paths.length);
    for (const top of MENU_TREE) {
      for (const node of flattenMenu(top.children ?? [])) {
        if (node.type !== '3') expect(node.path?.startsWith(`${top.path}/`), node.path).toBe(true);
      }
    }
  });

  it('gives every node a Chinese name', () => {
    for (const node of all) expect(node.name, node.path ?? node.permission).toMatch(CHINESE);
  });

  it('keeps directories as groups and pages as leaves with only button children', () => {
    for (const node of all.filter((n) => n.type === '1')) {
      expect(node.children?.length, node.path).toBeGreaterThan(0);
      expect(node.permission, node.path).toBeUndefined();
      expect(node.icon, node.path).toBeTruthy();
      expect(node.hidden, node.path).toBeUndefined();
    }
    for (const node of pages) {
      for (const child of node.children ?? []) expect(child.type, node.path).toBe('3');
    }
  });

  it('gives button nodes a permission, no path and no children, and hangs them on visible pages', () => {
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) {
      expect(button.permission, button.name).toMatch(PERMISSION);
      expect(button.path, button.permission).toBeUndefined();
      expect(button.children, button.permission).toBeUndefined();
      const parent = parentOf.get(button);
      expect(parent?.type, button.permission).toBe('2');
      expect(parent?.hidden, button.permission).toBeFalsy();
    }
  });
});

describe('hidden pages', () => {
  it('highlight a visible sibling list page', () => {
    expect(hiddenPages.length).toBeGreaterThan(100);
    for (const node of hiddenPages) {
      expect(node.activeMenu, node.path).toBeTruthy();
      const target = findByPath(MENU_TREE, node.activeMenu ?? '');
      expect(target?.type, node.path).toBe('2');
      expect(target?.hidden, node.path).toBeFalsy();
      expect(parentOf.get(target as MenuNode), node.path).toBe(parentOf.get(node));
      expect(node.permission, node.path).toBeUndefined();
      expect(node.children, node.path).toBeUndefined();
    }
  });

  it('are exactly the add/edit/detail/info/view style pages', () => {
    const formLike =
      /(-add|-edit|-detail|-info|\/info|-view|-panel|-quality-testing|dispatch-info|-dispatch|-mrp|process-task-sheet-(add|start)|add-report-work|inventory-detail)$/;
    for (const node of hiddenPages) expect(node.path, node.name).toMatch(formLike);
    for (const node of visiblePages) {
      expect(node.path, node.name).not.toMatch(/(-add|-edit|-detail|-view|-info)$/);
    }
  });

  it('visible pages carry no activeMenu', () => {
    for (const node of visiblePages) expect(node.activeMenu, node.path).toBeUndefined();
  });
});

describe('permissions', () => {
  const permissions = all.filter((node) => node.permission).map((node) => node.permission as string);

  it('are area:resource:action strings of the known areas, each used once', () => {
    for (const permission of permissions) {
      expect(permission).toMatch(PERMISSION);
      expect(AREAS, permission).toContain(permission.split(':')[0]);
    }
    expect(new Set(permissions).size).toBe(permissions.length);
    expect(allPermissions(MENU_TREE)).toEqual(permissions);
  });

  it('every visible page except 首页 has a :list or :query permission', () => {
    for (const node of visiblePages) {
      if (node.path === '/home/info') {
        expect(node.permission).toBeUndefined();
        continue;
      }
      expect(node.permission, node.path).toMatch(/:(list|query)$/);
    }
  });

  it('every list page has action buttons of its own resource', () => {
    for (const node of visiblePages.filter((n) => n.permission?.endsWith(':list'))) {
      if (node.path === '/system/message/index') continue;
      const resource = node.permission?.replace(/:list$/, '');
      const own = buttonPermissions(node.path as string).filter((p) => p.startsWith(`${resource}:`));
      expect(own.length, node.path).toBeGreaterThan(0);
    }
  });

  it('dashboards and statistics reports use :query', () => {
    const queryPaths = visiblePages.filter(
      (n) =>
        n.path?.startsWith('/workshop-dashboard/') ||
        n.path?.startsWith('/statistics-report/') ||
        n.path?.includes('/statisticalStatement/'),
    );
    expect(queryPaths.length).toBe(5 + 4 + 1 + 1 + 8);
    for (const node of queryPaths) expect(node.permission, node.path).toMatch(/:query$/);
  });

  it('uses the permission strings the server depends on', () => {
    const expected: Record<string, [string, string[]]> = {
      '/system/user/manage': [
        'system:user:list',
        [
          'system:user:add',
          'system:user:edit',
          'system:user:delete',
          'system:user:resetPwd',
          'system:user:assignRole',
          'system:user:export',
        ],
      ],
      '/system/role/manage': [
        'system:role:list',
        ['system:role:add', 'system:role:edit', 'system:role:delete'],
      ],
      '/system/menu/manage': [
        'system:menu:list',
        ['system:menu:add', 'system:menu:edit', 'system:menu:delete'],
      ],
      '/system/department/manage': [
        'system:dept:list',
        ['system:dept:add', 'system:dept:edit', 'system:dept:delete'],
      ],
      '/system/sysSetting/settingInfo': [
        'system:setting:list',
        [
          'system:setting:add',
          'system:setting:edit',
          'system:setting:delete',
          'system:setting:export',
          'system:setting:shareView',
        ],
      ],
      '/system/message/index': ['system:message:list', []],
      '/system/three-app/manage': [
        'system:app:list',
        ['system:app:add', 'system:app:edit', 'system:app:delete'],
      ],
      '/sale-manage/sale-order': [
        'sale:order:list',
        [
          'sale:order:add',
          'sale:order:edit',
          'sale:order:delete',
          'sale:order:approve',
          'sale:order:unapprove',
          'sale:order:close',
          'sale:order:export',
          'sale:order:overCredit',
        ],
      ],
    };
    for (const [path, [permission, actions]] of Object.entries(expected)) {
      expect(findByPath(MENU_TREE, path)?.permission, path).toBe(permission);
      expect(buttonPermissions(path), path).toEqual(actions);
    }
  });

  it('uses the factory and warehouse resources the server depends on', () => {
    const resources: Record<string, string> = {
      '/factory-info/custom/custom-manage': 'factory:customer',
      '/factory-info/supplier/supplier-manage': 'factory:supplier',
      '/factory-info/material-manage/material-list': 'factory:material',
      '/factory-info/warehouse-modeling/warehouse-manage': 'factory:warehouse',
      '/factory-info/warehouse-modeling/warehouse-location-manage': 'factory:location',
      '/factory-info/factory-modeling/factory-modeling-main': 'factory:workshop',
      '/factory-info/production-team/production-team-index': 'factory:team',
      '/factory-info/process-manage/process-manage': 'factory:process',
      '/factory-info/process-manage/process-route': 'factory:route',
      '/factory-info/material-manage/product-bom': 'factory:bom',
      '/factory-info/material-manage/material-template-manage': 'factory:template',
      '/factory-info/equipment-manage/equipment-ledger': 'factory:equipment',
      '/warehouse-logistics/warehouse-manage': 'warehouse:inbound',
      '/warehouse-logistics/outbound-manage': 'warehouse:outbound',
      '/warehouse-logistics/warehouse-allot': 'warehouse:transfer',
      '/warehouse-logistics/inventory-manage': 'warehouse:stocktake',
      '/warehouse-logistics/inventory-details': 'warehouse:stock',
    };
    for (const [path, resource] of Object.entries(resources)) {
      expect(findByPath(MENU_TREE, path)?.permission, path).toBe(`${resource}:list`);
      if (resource !== 'warehouse:stock') {
        expect(buttonPermissions(path), path).toEqual(
          expect.arrayContaining([`${resource}:add`, `${resource}:edit`, `${resource}:delete`]),
        );
      }
    }
    for (const path of ['/warehouse-logistics/warehouse-manage', '/warehouse-logistics/outbound-manage']) {
      const resource = findByPath(MENU_TREE, path)?.permission?.replace(/:list$/, '');
      expect(buttonPermissions(path)).toEqual(
        expect.arrayContaining([`${resource}:post`, `${resource}:reverse`, `${resource}:export`]),
      );
    }
    // Production lines are maintained on the factory model page.
    expect(buttonPermissions('/factory-info/factory-modeling/factory-modeling-main')).toEqual(
      expect.arrayContaining([
        'factory:line:list',
        'factory:line:add',
        'factory:line:edit',
        'factory:line:delete',
      ]),
    );
  });
});

describe('spec routes', () => {
  const visible = (path: string) => {
    const node = findByPath(MENU_TREE, path);
    expect(node?.type, path).toBe('2');
    expect(node?.hidden, path).toBeFalsy();
  };
  const hiddenUnder = (path: string, list: string) => {
    const node = findByPath(MENU_TREE, path);
    expect(node?.type, path).toBe('2');
    expect(node?.hidden, path).toBe(true);
    expect(node?.activeMenu, path).toBe(list);
  };

  it('has the spot-checked pages', () => {
    const spotChecks = [
      '/home/info',
      '/sale-manage/sale-order',
      '/sale-manage/sale-order-add',
      '/sale-manage/sale-order-edit',
      '/sale-manage/sale-order-detail',
      '/sale-manage/sales-warehouse',
      '/sale-manage/inventory-manage',
      '/sale-manage/stock-up-detail',
      '/sale-manage/statisticalStatement/salesReport',
      '/production-department/buying-requisition-detail',
      '/production-department/production-manage/production-order',
      '/production-department/production-manage/produce-order-dispatch',
      '/production-department/production-manage/work-report-record-detail',
      '/production-department/produce-outsourcing/info',
      '/production-department/production-manage/machine/lathing-dispatch',
      '/production-department/production-manage/machine/workshop-report-record',
      '/production-department/production-manage/grinding/grinding-process',
      '/production-department/production-manage/inspect-workshop/inspect-panel',
      '/production-department/production-manage/assembly-workshop/dispatch',
      '/production-department/statisticalStatement/processFlowCardReport',
      '/production-department/statisticalStatement/workerRejectStats',
      '/technology-dept/technology-manage-detail',
      '/purchase/purchase-manage-detail',
      '/purchase/outsourcing-manage-info',
      '/purchase/outsourcing-rejected-edit',
      '/purchase/purchase-manage/statisticalStatement/purchaseReport',
      '/warehouse-logistics/finish-warehouse-detail',
      '/warehouse-logistics/inventory-detail',
      '/warehouse-logistics/warehouse-allot-panel',
      '/measure-check/outside-diameter',
      '/quality-testing/shipment-inspection-view',
      '/quality-testing/process-inspection-detail',
      '/quality-testing/inspection-item',
      '/quality-testing/bearing-ring-standard-detail',
      '/factory-info/factory-modeling/factory-modeling-main',
      '/factory-info/equipment-manage/inspection-info',
      '/factory-info/equipment-manage/report-for-repair-view',
      '/factory-info/material-manage/material-add',
      '/factory-info/material-manage/product-add',
      '/factory-info/material-manage/manufacturing-method',
      '/factory-info/process-manage/process-classify',
      '/factory-info/supplier/supplier-classify',
      '/factory-info/custom/custom-label',
      '/workshop-dashboard/whole-dashboard',
      '/workshop-dashboard/assemble-dashboard',
    ];
    for (const path of spotChecks) expect(findByPath(MENU_TREE, path)?.type, path).toBe('2');
  });

  it('has the full set of pages in each workshop group', () => {
    const groups: Record<string, [task: string, dispatch: string, panel: string]> = {
      machine: ['lathing', 'lathing-dispatch', 'lathing-panel'],
      grinding: ['grinding-process', 'grinding-dispatch', 'grinding-panel'],
      'inspect-workshop': ['inspect', 'inspect-dispatch', 'inspect-panel'],
      'assembly-workshop': ['assembly', 'dispatch', 'assembly-panel'],
    };
    for (const [segment, [task, dispatch, panel]] of Object.entries(groups)) {
      const base = `/production-department/production-manage/${segment}`;
      expect(findByPath(MENU_TREE, base)?.type).toBe('1');
      for (const page of [task, dispatch, panel, 'plan', 'operator-task', 'workshop-operator-task']) {
        visible(`${base}/${page}`);
      }
      visible(`${base}/report-work`);
      visible(`${base}/semi-manufactures`);
      hiddenUnder(`${base}/dispatch-info`, `${base}/${dispatch}`);
      hiddenUnder(`${base}/process-task-sheet-add`, `${base}/operator-task`);
      hiddenUnder(`${base}/process-task-sheet-start`, `${base}/operator-task`);
    }
    hiddenUnder(
      '/production-department/production-manage/machine/add-report-work',
      '/production-department/production-manage/machine/report-work',
    );
  });

  it('has all ten inbound and outbound document kinds with add, edit and detail', () => {
    const kinds = {
      '/warehouse-logistics/warehouse-manage': [
        'purchase-warehousing',
        'production-warehousing',
        'outsourced-warehousing',
        'sales-returns-warehousing',
        'other-warehousing',
      ],
      '/warehouse-logistics/outbound-manage': [
        'internal-requisition-outbound',
        'outsourcing-receive-outbound',
        'sales-outbound',
        'purchase-return-outbound',
        'other-outbound',
      ],
    };
    visible('/warehouse-logistics/warehouse-manage');
    visible('/warehouse-logistics/outbound-manage');
    for (const [base, segments] of Object.entries(kinds)) {
      for (const segment of segments) {
        const list = `${base}/${segment}`;
        visible(list);
        for (const suffix of ['add', 'edit', 'detail']) hiddenUnder(`${list}-${suffix}`, list);
      }
    }
  });

  it('has incoming and reporting inspections per workshop', () => {
    const lists = [
      'lathe-machining-incoming',
      'lathe-machining-reporting',
      'grinding-incoming',
      'grinding-reporting',
      'inspect-incoming',
      'inspect-workshop-reporting',
      'assemble-incoming',
      'assemble-reporting',
    ];
    for (const segment of lists) {
      const list = `/quality-testing/${segment}`;
      visible(list);
      for (const suffix of ['detail', 'view', 'add', 'quality-testing'])
        hiddenUnder(`${list}-${suffix}`, list);
    }
  });

  it('has the finance pages', () => {
    const finance = [
      'sales-report',
      'purchase-report',
      'production-report',
      'cost-variance',
      'product-cost',
      'inventory-report',
      'job-booking',
      'work-order',
      'production-statistics',
      'production-line',
      'inventory-alert',
      'equipment-inspection',
      'equipment-maintenance',
      'process-wage',
      'receivable-management',
      'account-payable-management',
    ];
    for (const segment of finance) visible(`/finance-department/${segment}`);
    hiddenUnder('/finance-department/process-wage-add', '/finance-department/process-wage');
    hiddenUnder('/finance-department/process-wage-edit', '/finance-department/process-wage');
    for (const list of ['receivable-management', 'account-payable-management']) {
      for (const suffix of ['add', 'edit', 'detail']) {
        hiddenUnder(`/finance-department/${list}-${suffix}`, `/finance-department/${list}`);
      }
    }
  });

  it('has the statistics, dashboard and system pages', () => {
    for (const segment of ['track-measure', 'angle-measure', 'height-measure', 'neiwaijing-measure']) {
      visible(`/statistics-report/${segment}`);
    }
    for (const segment of ['whole', 'machine', 'grinding', 'inspect', 'assemble']) {
      visible(`/workshop-dashboard/${segment}-dashboard`);
    }
    for (const path of [
      'user/manage',
      'role/manage',
      'menu/manage',
      'department/manage',
      'sysSetting/settingInfo',
      'message/index',
      'three-app/manage',
    ]) {
      visible(`/system/${path}`);
    }
  });
});

describe('menu helpers', () => {
  it('flattenMenu walks depth-first', () => {
    const tree: MenuNode[] = [
      { type: '1', name: '甲', path: '/a', children: [{ type: '2', name: '乙', path: '/a/b' }] },
      { type: '2', name: '丙', path: '/c' },
    ];
    expect(flattenMenu(tree).map((n) => n.name)).toEqual(['甲', '乙', '丙']);
    expect(all[0]).toBe(MENU_TREE[0]);
    expect(all[1]?.path).toBe('/home/info');
  });

  it('allPermissions returns each permission once', () => {
    const tree: MenuNode[] = [
      { type: '2', name: '甲', path: '/a', permission: 'x:y:list' },
      { type: '2', name: '乙', path: '/b', permission: 'x:y:list' },
    ];
    expect(allPermissions(tree)).toEqual(['x:y:list']);
    expect(allPermissions(MENU_TREE)).toContain('system:user:resetPwd');
  });

  it('findByPath finds directories and pages, never buttons', () => {
    expect(findByPath(MENU_TREE, '/system')?.name).toBe('系统管理');
    expect(findByPath(MENU_TREE, '/sale-manage/sale-order')?.name).toBe('销售订单');
    expect(findByPath(MENU_TREE, '/nowhere')).toBeUndefined();
    expect(
      findByPath([{ type: '3', name: '新增', path: '/x', permission: 'a:b:add' }], '/x'),
    ).toBeUndefined();
  });

  it('pageTitles maps every page path to its Chinese title', () => {
    const titles = pageTitles(MENU_TREE);
    expect(Object.keys(titles)).toHaveLength(pages.length);
    expect(titles['/home/info']).toBe('首页');
    expect(titles['/sale-manage/sale-order-add']).toBe('新增销售订单');
    expect(titles['/factory-info/material-manage/material-list']).toBe('物料列表');
    expect(titles['/system']).toBeUndefined();
  });
});
