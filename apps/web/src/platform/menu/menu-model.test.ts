import { describe, expect, it } from 'vitest';
import { visibleCount } from '../../app/shell/top-menu-fit.ts';
import type { ServerMenu, UserInfo } from '../session.ts';
import { buildNav, grantedPaths, menuModel, pageMeta, parseParameter, setMenuFilter } from './menu-model.ts';

let id = 0;
function node(p: Partial<ServerMenu> & Pick<ServerMenu, 'menuName' | 'nodeType'>): ServerMenu {
  id += 1;
  return { menuId: id, menuStatus: '1', location: id, ...p };
}

const menuList: ServerMenu[] = [
  node({
    menuName: '系统管理',
    nodeType: '1',
    menuPath: '/system',
    children: [
      node({
        menuName: '用户管理',
        nodeType: '2',
        menuPath: '/system/user/manage',
        children: [node({ menuName: '新增', nodeType: '3', menuPermissions: 'system:user:add' })],
      }),
      node({ menuName: '角色管理', nodeType: '2', menuPath: '/system/role/manage', menuStatus: '0' }),
    ],
  }),
  node({
    menuName: '销售管理',
    nodeType: '1',
    menuPath: '/sale-manage',
    children: [
      node({ menuName: '销售订单', nodeType: '2', menuPath: '/sale-manage/sale-order' }),
      node({
        menuName: '新增销售订单',
        nodeType: '2',
        menuPath: '/sale-manage/sale-order-add',
        menuStatus: '0',
        parameter: '{"activeMenu":"/sale-manage/sale-order"}',
      }),
    ],
  }),
];

describe('menu model', () => {
  it('shows visible entries only, never buttons, in location order', () => {
    const nav = buildNav(menuList);
    expect(nav.map((n) => n.title)).toEqual(['系统管理', '销售管理']);
    expect(nav[0].children?.map((c) => c.title)).toEqual(['用户管理']);
    expect(nav[0].children?.[0].children).toBeUndefined();
  });

  it('grants hidden pages too, and highlights the list for a hidden page', () => {
    const granted = grantedPaths(menuList);
    expect(granted.has('/system/role/manage')).toBe(true);
    expect(granted.has('/sale-manage/sale-order-add')).toBe(true);
    const model = menuModel({ userId: 1, userName: 'u', firstName: 'U', menuList } as UserInfo);
    expect(model.menuKeyFor('/sale-manage/sale-order-add')).toBe('/sale-manage/sale-order');
    expect(model.trailFor('/sale-manage/sale-order-add').map((n) => n.title)).toEqual([
      '销售管理',
      '销售订单',
    ]);
    expect(model.canVisit('/home/info')).toBe(true);
    expect(model.canVisit('/finance-department/sales-report')).toBe(false);
    expect(model.landingPath()).toBe('/sale-manage/sale-order');
  });

  it('lands on the first granted page when the cockpit is not granted', () => {
    const model = menuModel({
      userId: 2,
      userName: 'v',
      firstName: 'V',
      menuList: [menuList[0]],
    } as UserInfo);
    expect(model.landingPath()).toBe('/system/user/manage');
  });

  it('lands an inspector (质检员) on 首页 with the tasks waiting for him', () => {
    const model = menuModel({
      userId: 3,
      userName: 'qc',
      firstName: 'QC',
      permissions: ['quality:grindingReporting:list', 'quality:grindingReporting:inspect'],
      menuList: [menuList[0]],
    } as UserInfo);
    expect(model.landingPath()).toBe('/home/info');
  });

  it('lists only finished pages unless 系统设置 shows unfinished ones; lands on a finished page', () => {
    const production = node({
      menuName: '生产部',
      nodeType: '1',
      menuPath: '/production-department',
      children: [
        node({ menuName: '请购单', nodeType: '2', menuPath: '/production-department/buying-requisition' }),
      ],
    });
    const warehouse = node({
      menuName: '仓储物流',
      nodeType: '1',
      menuPath: '/warehouse-logistics',
      children: [
        node({ menuName: '成品仓', nodeType: '2', menuPath: '/warehouse-logistics/finish-warehouse' }),
        node({ menuName: '库存明细', nodeType: '2', menuPath: '/warehouse-logistics/inventory-details' }),
      ],
    });
    const user = () =>
      ({ userId: 3, userName: 'k', firstName: 'K', menuList: [production, warehouse] }) as UserInfo;
    try {
      setMenuFilter({ built: new Set(['/warehouse-logistics/inventory-details']), showUnfinished: false });
      const model = menuModel(user());
      expect(model.nav.map((n) => n.title)).toEqual(['首页', '仓储物流']);
      expect(model.nav[1].children?.map((c) => c.title)).toEqual(['库存明细']);
      expect(model.landingPath()).toBe('/warehouse-logistics/inventory-details');
      // Still reachable by address: hidden from menus only.
      expect(model.canVisit('/production-department/buying-requisition')).toBe(true);
      setMenuFilter({ built: new Set(['/warehouse-logistics/inventory-details']), showUnfinished: true });
      expect(menuModel(user()).nav.map((n) => n.title)).toEqual(['首页', '生产部', '仓储物流']);
    } finally {
      setMenuFilter({ showUnfinished: true });
    }
  });

  it('parses the parameter JSON and knows every route title from the static tree', () => {
    expect(parseParameter('{"noCache":true,"affix":true}')).toEqual({ noCache: true, affix: true });
    expect(parseParameter('not json')).toEqual({});
    expect(pageMeta('/home/info')).toMatchObject({ title: '首页', affix: true, noCache: true });
    expect(pageMeta('/system/user/manage')?.title).toBe('用户管理');
  });

  it('fits top-level entries at about 150 px each, the rest under 更多菜单', () => {
    expect(visibleCount(13, 700)).toBe(3);
    expect(visibleCount(3, 700)).toBe(3);
    expect(visibleCount(13, 2100)).toBe(13);
    expect(visibleCount(13, 100)).toBe(0);
  });
});
