import { CalculatorOutlined, SendOutlined } from '@ant-design/icons';
import { PRODUCTION_ORDER_RESERVING } from '@ringmes/domain';
import { Button } from 'antd';
import { usePermission } from '../../platform/auth/permission.tsx';
import { openResourcePage } from '../../platform/resource/nav.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';

/** 生产订单派单: a page of one order (`?id=`), so it opens from the order, not from the menu. */
export const ORDER_DISPATCH = '/production-department/production-manage/produce-order-dispatch';

/**
 * 派单 of a released or producing order, for whoever holds `production:order:dispatch`: opens the
 * order's 派单 page (its route split into workshop tasks, or the tasks once dispatched).
 */
export function DispatchButton({ order, link = false }: { order: ResourceRow; link?: boolean }) {
  const can = usePermission();
  if (!PRODUCTION_ORDER_RESERVING.includes(String(order.status)) || !can('production:order:dispatch')) {
    return null;
  }
  return (
    <Button
      type={link ? 'link' : 'default'}
      size={link ? 'small' : undefined}
      icon={link ? undefined : <SendOutlined />}
      onClick={() => openResourcePage(ORDER_DISPATCH, Number(order.id))}
      data-testid={link ? `order-dispatch-link-${order.id}` : 'order-dispatch-open'}
    >
      派单
    </Button>
  );
}

/** 生产订单MRP: one order's MRP sheet (`?id=`), opened from the order. */
export const ORDER_MRP = '/production-department/production-manage/produce-order-mrp';

/**
 * The order's MRP sheet: for a draft what 下达 will net and freeze, for a released order what is
 * still to buy or make (生成请购单, 生成自制件订单 from its planned orders).
 */
export function MrpButton({ order }: { order: ResourceRow }) {
  if (!['draft', ...PRODUCTION_ORDER_RESERVING].includes(String(order.status))) return null;
  return (
    <Button
      icon={<CalculatorOutlined />}
      onClick={() => openResourcePage(ORDER_MRP, Number(order.id))}
      data-testid="order-mrp-open"
    >
      MRP运算表
    </Button>
  );
}
