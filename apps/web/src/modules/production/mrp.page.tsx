import {
  ApartmentOutlined,
  ArrowLeftOutlined,
  CalculatorOutlined,
  ShoppingCartOutlined,
} from '@ant-design/icons';
import { PRODUCTION_ORDER_RESERVING } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, leavePage, openResourcePage } from '../../platform/resource/nav.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { qty } from '../warehouse/warehouse.api.ts';

const ORDER_LIST = '/production-department/production-manage/production-order';
const ORDER_DETAIL = '/production-department/production-manage/produce-order-detail';

interface PegRef {
  type: string;
  id: number;
  lineId?: number | null;
  label: string;
}
interface Peg {
  ref: PegRef;
  quantity: string;
}
interface Period {
  date: string;
  gross: string;
  receipts: string;
  net: string;
  planned: string;
  projected: string;
}
interface SheetRow {
  itemId: number;
  level: number;
  source: 'make' | 'buy';
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
  leadTimeDays: number | null;
  lotSizeMin: string | null;
  lotSizeMultiple: string | null;
  gross: string;
  onHand: string;
  allocated: string;
  scheduled: string;
  firm: string;
  safetyStock: string;
  net: string;
  planned: string;
  projected: string;
  late: boolean;
  periods: Period[];
  receipts: { kind: string; label: string; quantity: string; date: string }[];
}
interface PlannedOrder {
  itemId: number;
  level: number;
  source: 'make' | 'buy';
  firm: boolean;
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
  quantity: string;
  net: string;
  needDate: string;
  startDate: string;
  leadTimeDays: number;
  late: boolean;
  pegs: Peg[];
}
interface Reschedule {
  itemId: number;
  code: string;
  name: string;
  label: string;
  quantity: string;
  date: string;
  needDate: string;
}
export interface MrpSheet {
  scope: 'production-order' | 'plan';
  today: string;
  /** 系统设置 › 生产日历 the lead times were counted in; null: every day works. */
  calendar: { weekdays: number[]; holidays: string[]; workdays: string[] } | null;
  order?: {
    id: number;
    docNo: string;
    status: string;
    productId: number;
    quantity: string;
    plannedStartDate: string;
    dueDate: string;
  };
  demandCount: number;
  rows: SheetRow[];
  plannedOrders: PlannedOrder[];
  rescheduled: Reschedule[];
  note: string | null;
}

const positive = (v: unknown) => Number(v) > 0;
const strong = (v: unknown, type?: 'danger' | 'success') =>
  positive(v) ? (
    <Typography.Text strong type={type}>
      {qty(v)}
    </Typography.Text>
  ) : (
    qty(v)
  );
const SourceTag = ({ source }: { source: 'make' | 'buy' }) =>
  source === 'make' ? <Tag color="cyan">自制</Tag> : <Tag color="blue">外购</Tag>;
const PEG_COLOR: Record<string, string> = {
  'sale-order': 'geekblue',
  'stock-up-order': 'magenta',
  'production-order': 'purple',
  stock: 'default',
  'safety-stock': 'gold',
};
const WEEKDAY = ['', '一', '二', '三', '四', '五', '六', '日'];
/** How the sheet counted lead times: the factory calendar's working days, or calendar days. */
function calendarText(cal: MrpSheet['calendar']) {
  if (!cal) return '提前期按日历日计';
  const days = cal.weekdays.map((d) => WEEKDAY[d]).join('、');
  const extra = [
    cal.holidays.length ? `节假日 ${cal.holidays.length} 天` : '',
    cal.workdays.length ? `调休上班 ${cal.workdays.length} 天` : '',
  ].filter(Boolean);
  return `提前期按工作日计（周${days}${extra.length ? `，${extra.join('，')}` : ''}）`;
}
const Pegs = ({ pegs }: { pegs: Peg[] }) => (
  <Space size={[4, 4]} wrap>
    {pegs.map((p) => (
      <Tag key={`${p.ref.type}:${p.ref.id}:${p.ref.lineId ?? ''}`} color={PEG_COLOR[p.ref.type] ?? 'default'}>
        {p.ref.label} {qty(p.quantity)}
      </Tag>
    ))}
  </Space>
);

/**
 * The MRP sheet: one row per material and level (low-level code) with gross requirement, stock,
 * allocations, open supply, firm orders, net requirement and planned orders, each expandable to its
 * dates, planned orders with their pegging and the supply counted; and every new planned order in
 * a second tab, late ones flagged. `selected` lets the plan choose materials to generate for.
 */
export function MrpSheetView({
  sheet,
  selected,
  onSelect,
}: {
  sheet: MrpSheet;
  selected?: number[];
  onSelect?: (ids: number[]) => void;
}) {
  const planned = sheet.plannedOrders.filter((o) => !o.firm);
  const late = planned.filter((o) => o.late);
  const ordersOf = (id: number) => sheet.plannedOrders.filter((o) => o.itemId === id);
  return (
    <>
      <Space wrap style={{ marginBottom: 8 }} data-testid="mrp-summary">
        <Tag>运算日期 {sheet.today}</Tag>
        <Tag>需求 {sheet.demandCount} 项</Tag>
        <Tag data-testid="mrp-calendar">{calendarText(sheet.calendar)}</Tag>
        <Tag>物料 {sheet.rows.length} 种</Tag>
        <Tag color="cyan">计划自制 {planned.filter((o) => o.source === 'make').length}</Tag>
        <Tag color="blue">计划采购 {planned.filter((o) => o.source === 'buy').length}</Tag>
        {late.length > 0 ? (
          <Tag color="red" data-testid="mrp-late-count">
            延迟 {late.length}
          </Tag>
        ) : (
          <Tag color="green">无延迟</Tag>
        )}
      </Space>
      {sheet.note && <Alert type="info" showIcon title={sheet.note} style={{ marginBottom: 8 }} />}
      {sheet.rescheduled.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title="以下在途订单晚于需求日期，已按提前到货计算，请催交"
          description={sheet.rescheduled
            .map((r) => `${r.code} ${r.name}：${r.label} ${qty(r.quantity)}，${r.date} → ${r.needDate}`)
            .join('；')}
        />
      )}
      <Tabs
        items={[
          {
            key: 'sheet',
            label: '运算表（按物料和层级）',
            children: (
              <Table<SheetRow>
                rowKey={(r) => `${r.level}-${r.itemId}`}
                size="small"
                bordered
                dataSource={sheet.rows}
                data-testid="mrp-sheet"
                pagination={sheet.rows.length > 100 ? { pageSize: 100, size: 'small' } : false}
                scroll={{ x: 'max-content' }}
                rowClassName={(r) => (r.late ? 'rm-row-warning' : '')}
                rowSelection={
                  onSelect
                    ? {
                        selectedRowKeys: (selected ?? []).flatMap((id) =>
                          sheet.rows.filter((r) => r.itemId === id).map((r) => `${r.level}-${r.itemId}`),
                        ),
                        getCheckboxProps: (r) => ({ disabled: !positive(r.planned) }),
                        onChange: (_, rows) => onSelect(rows.map((r) => r.itemId)),
                      }
                    : undefined
                }
                expandable={{
                  expandedRowRender: (r) => <ItemDetail row={r} orders={ordersOf(r.itemId)} />,
                }}
                columns={[
                  { title: '层级', dataIndex: 'level', width: 56, align: 'center' },
                  { title: '物料编码', dataIndex: 'code', width: 130 },
                  { title: '物料名称', dataIndex: 'name', width: 150, ellipsis: true },
                  { title: '规格', dataIndex: 'spec', width: 100, ellipsis: true },
                  { title: '单位', dataIndex: 'unitName', width: 56 },
                  {
                    title: '来源',
                    dataIndex: 'source',
                    width: 64,
                    render: (v: 'make' | 'buy') => <SourceTag source={v} />,
                  },
                  {
                    title: '毛需求',
                    dataIndex: 'gross',
                    onCell: () => ({ 'data-col': 'gross' }) as object,
                    width: 90,
                    align: 'right',
                    render: qty,
                  },
                  {
                    title: '现有库存',
                    dataIndex: 'onHand',
                    onCell: () => ({ 'data-col': 'onHand' }) as object,
                    width: 90,
                    align: 'right',
                    render: qty,
                  },
                  {
                    title: '已分配',
                    dataIndex: 'allocated',
                    onCell: () => ({ 'data-col': 'allocated' }) as object,
                    width: 80,
                    align: 'right',
                    render: qty,
                  },
                  {
                    title: '在途/在制',
                    dataIndex: 'scheduled',
                    onCell: () => ({ 'data-col': 'scheduled' }) as object,
                    width: 90,
                    align: 'right',
                    render: qty,
                  },
                  {
                    title: '已确认订单',
                    dataIndex: 'firm',
                    onCell: () => ({ 'data-col': 'firm' }) as object,
                    width: 96,
                    align: 'right',
                    render: qty,
                  },
                  { title: '安全库存', dataIndex: 'safetyStock', width: 80, align: 'right', render: qty },
                  {
                    title: '净需求',
                    dataIndex: 'net',
                    onCell: () => ({ 'data-col': 'net' }) as object,
                    width: 90,
                    align: 'right',
                    render: (v) => strong(v, 'danger'),
                  },
                  {
                    title: '计划订单',
                    dataIndex: 'planned',
                    onCell: () => ({ 'data-col': 'planned' }) as object,
                    width: 90,
                    align: 'right',
                    render: (v) => strong(v),
                  },
                  {
                    title: '预计结存',
                    dataIndex: 'projected',
                    onCell: () => ({ 'data-col': 'projected' }) as object,
                    width: 90,
                    align: 'right',
                    render: qty,
                  },
                  {
                    title: '延迟',
                    dataIndex: 'late',
                    width: 64,
                    render: (v: boolean) => (v ? <Tag color="red">延迟</Tag> : null),
                  },
                ]}
              />
            ),
          },
          {
            key: 'planned',
            label: `计划订单（${planned.length}）`,
            children: <PlannedTable orders={planned} />,
          },
        ]}
      />
    </>
  );
}

function PlannedTable({ orders, compact = false }: { orders: PlannedOrder[]; compact?: boolean }) {
  return (
    <Table<PlannedOrder>
      rowKey={(o) => `${o.itemId}-${o.needDate}-${o.firm}`}
      size="small"
      bordered
      dataSource={orders}
      data-testid={compact ? undefined : 'mrp-planned'}
      pagination={orders.length > 100 ? { pageSize: 100, size: 'small' } : false}
      scroll={{ x: 'max-content' }}
      columns={[
        ...(compact
          ? []
          : [
              { title: '层级', dataIndex: 'level', width: 56, align: 'center' as const },
              { title: '物料编码', dataIndex: 'code', width: 130 },
              { title: '物料名称', dataIndex: 'name', width: 150, ellipsis: true },
              { title: '单位', dataIndex: 'unitName', width: 56 },
            ]),
        {
          title: '类型',
          width: 120,
          render: (_: unknown, o: PlannedOrder) =>
            o.firm ? (
              <Tag>已确认订单</Tag>
            ) : o.source === 'make' ? (
              <Tag color="cyan">计划生产</Tag>
            ) : (
              <Tag color="blue">计划采购</Tag>
            ),
        },
        { title: '数量', dataIndex: 'quantity', width: 90, align: 'right' as const, render: qty },
        { title: '净需求', dataIndex: 'net', width: 90, align: 'right' as const, render: qty },
        { title: '需求日期', dataIndex: 'needDate', width: 105 },
        { title: '计划开始', dataIndex: 'startDate', width: 105 },
        { title: '提前期(天)', dataIndex: 'leadTimeDays', width: 90, align: 'right' as const },
        {
          title: '延迟',
          dataIndex: 'late',
          width: 64,
          render: (v: boolean) => (v ? <Tag color="red">延迟</Tag> : null),
        },
        {
          title: '需求来源（追溯）',
          dataIndex: 'pegs',
          render: (v: Peg[]) => <Pegs pegs={v} />,
        },
      ]}
    />
  );
}

function ItemDetail({ row, orders }: { row: SheetRow; orders: PlannedOrder[] }) {
  return (
    <div className="rm-mrp-detail" data-testid={`mrp-detail-${row.itemId}`}>
      <Space wrap style={{ marginBottom: 8 }}>
        <span className="rm-muted">
          提前期：
          {row.leadTimeDays == null ? (row.source === 'make' ? '按工艺路线' : '0') : `${row.leadTimeDays} 天`}
        </span>
        <span className="rm-muted">最小批量：{row.lotSizeMin ? qty(row.lotSizeMin) : '—'}</span>
        <span className="rm-muted">批量倍数：{row.lotSizeMultiple ? qty(row.lotSizeMultiple) : '—'}</span>
      </Space>
      <Table<Period>
        rowKey="date"
        size="small"
        bordered
        pagination={false}
        dataSource={row.periods}
        title={() => '按日期'}
        columns={[
          { title: '日期', dataIndex: 'date', width: 105 },
          { title: '毛需求', dataIndex: 'gross', width: 90, align: 'right', render: qty },
          { title: '到货', dataIndex: 'receipts', width: 90, align: 'right', render: qty },
          {
            title: '净需求',
            dataIndex: 'net',
            width: 90,
            align: 'right',
            render: (v) => strong(v, 'danger'),
          },
          { title: '计划到货', dataIndex: 'planned', width: 90, align: 'right', render: (v) => strong(v) },
          { title: '预计结存', dataIndex: 'projected', width: 90, align: 'right', render: qty },
        ]}
      />
      {orders.length > 0 && (
        <div style={{ marginTop: 8 }}>
          <PlannedTable orders={orders} compact />
        </div>
      )}
      {row.receipts.length > 0 && (
        <Space wrap style={{ marginTop: 8 }}>
          <span className="rm-muted">计入的在途/在制：</span>
          {row.receipts.map((r) => (
            <Tag key={`${r.label}-${r.date}`}>
              {r.label} {qty(r.quantity)}（{r.date}）
            </Tag>
          ))}
        </Space>
      )}
    </div>
  );
}

/** 物料需求计划: 「运算」 over every open sales order, and documents from its planned orders. */
export function MrpPlanPage() {
  const can = usePermission();
  const client = useQueryClient();
  const [ran, setRan] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const sheet = useQuery({
    queryKey: ['mrp', 'plan'],
    queryFn: () => http.get<MrpSheet>('/api/v1/mrp/plan'),
    enabled: ran,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const done = () => {
    setSelected([]);
    void sheet.refetch();
  };
  const requisition = useMutation({
    mutationFn: () =>
      http.post<{ requisitions: { id: number; docNo: string }[] }>('/api/v1/mrp/plan/requisition', {
        materialIds: selected.length ? selected : undefined,
      }),
    onSuccess: (r) => {
      toast.success(`已生成请购单 ${r.requisitions.map((x) => x.docNo).join('、')}（草稿）`);
      invalidateResource(client, 'purchase-requisition');
      done();
    },
  });
  const orders = useMutation({
    mutationFn: () =>
      http.post<{ orders: { id: number; docNo: string }[] }>('/api/v1/mrp/plan/production-orders', {
        materialIds: selected.length ? selected : undefined,
      }),
    onSuccess: (r) => {
      toast.success(`已生成自制件订单 ${r.orders.map((x) => x.docNo).join('、')}（草稿），核对后下达`);
      invalidateResource(client, 'production-order');
      done();
    },
  });
  const data = sheet.data;
  const planned = data?.plannedOrders.filter((o) => !o.firm) ?? [];
  const scope = (o: PlannedOrder) => !selected.length || selected.includes(o.itemId);
  const buys = planned.filter((o) => o.source === 'buy' && scope(o)).length;
  const makes = planned.filter((o) => o.source === 'make' && o.level > 0 && scope(o)).length;
  return (
    <PageCard
      title="物料需求计划（MRP）"
      extra={
        <Space wrap>
          <Button
            type="primary"
            icon={<CalculatorOutlined />}
            loading={sheet.isFetching}
            onClick={() => (ran ? void sheet.refetch() : setRan(true))}
            data-testid="mrp-run"
          >
            运算
          </Button>
          {data && can('production:requisition:add') && (
            <Popconfirm
              title={`生成请购单（${buys} 条计划采购）？`}
              description={
                selected.length ? '只生成所选物料的计划采购。' : '生成全部计划采购；可先勾选物料。'
              }
              onConfirm={() => requisition.mutate()}
              disabled={!buys}
            >
              <Button icon={<ShoppingCartOutlined />} disabled={!buys} loading={requisition.isPending}>
                生成请购单
              </Button>
            </Popconfirm>
          )}
          {data && can('production:order:add') && (
            <Popconfirm
              title={`生成自制件订单（${makes} 张）？`}
              description="自制件（一级及以下的自制物料）的计划订单各生成一张生产订单（草稿）；成品请从销售订单或备货单生成。"
              onConfirm={() => orders.mutate()}
              disabled={!makes}
            >
              <Button icon={<ApartmentOutlined />} disabled={!makes} loading={orders.isPending}>
                生成自制件订单
              </Button>
            </Popconfirm>
          )}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        对全部已审核、生产中、部分发货的销售订单未发货数量，已审核、生产中的备货单未完工数量，连同已下达生产订单的未领物料和草稿生产订单，按BOM逐层净算：毛需求
        − 现有库存 − 在途（已下达生产订单、请购单、采购订单、委外在途）−
        已确认订单，并保持安全库存，得净需求；按最小批量和批量倍数取整为计划订单，
        再由计划订单展开下一层。计划订单在需求日期前按提前期开始（按系统设置 ›
        生产日历的工作日计），已来不及的标为延迟。
      </Typography.Paragraph>
      {!ran ? (
        <Alert type="info" showIcon title="点击「运算」计算物料需求计划" />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <MrpSheetView sheet={data} selected={selected} onSelect={setSelected} />
      )}
    </PageCard>
  );
}

/** 生产订单MRP: one order's sheet, 生成请购单 and 生成自制件订单 from its planned orders. */
export function MrpOrderPage({ path }: PageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const can = usePermission();
  const client = useQueryClient();
  const sheet = useQuery({
    queryKey: ['resource', 'production-order', 'mrp', id],
    queryFn: () => http.get<MrpSheet>(`/api/v1/mrp/production-order/${id}`),
    enabled: Boolean(id),
  });
  const refresh = () => {
    invalidateResource(client, 'production-order');
    void sheet.refetch();
  };
  const requisition = useMutation({
    mutationFn: () =>
      http.post<{ id: number; docNo: string }>(`/api/v1/production-order/to-requisition/${id}`, {}),
    onSuccess: (r) => {
      toast.success(`已生成请购单 ${r.docNo}（草稿），请审核后交采购`);
      invalidateResource(client, 'purchase-requisition');
      refresh();
    },
  });
  const subOrders = useMutation({
    mutationFn: () =>
      http.post<{ orders: { id: number; docNo: string }[] }>(`/api/v1/production-order/sub-orders/${id}`, {}),
    onSuccess: (r) => {
      toast.success(`已生成自制件订单 ${r.orders.map((o) => o.docNo).join('、')}（草稿），核对后下达`);
      refresh();
    },
  });
  const back = () => leavePage(path, ORDER_LIST);
  if (!id || sheet.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title="生产订单不存在或已被删除"
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  const data = sheet.data;
  const holding = data?.order && PRODUCTION_ORDER_RESERVING.includes(data.order.status);
  const planned = data?.plannedOrders.filter((o) => !o.firm) ?? [];
  const buys = planned.filter((o) => o.source === 'buy').length;
  const makes = planned.filter((o) => o.source === 'make' && o.level === 1).length;
  return (
    <PageCard
      title={data?.order ? `生产订单MRP · ${data.order.docNo}` : '生产订单MRP'}
      extra={
        <Space wrap>
          <Button
            icon={<CalculatorOutlined />}
            loading={sheet.isFetching}
            onClick={() => void sheet.refetch()}
          >
            重新运算
          </Button>
          {holding && can('production:requisition:add') && (
            <Popconfirm
              title="按计划采购生成请购单？"
              description="每条计划采购（已按批量取整）生成一行，需求日期为上级开工日期，并记录需求来源。"
              onConfirm={() => requisition.mutate()}
              disabled={!buys}
            >
              <Button
                icon={<ShoppingCartOutlined />}
                disabled={!buys}
                loading={requisition.isPending}
                data-testid="mrp-order-requisition"
              >
                生成请购单
              </Button>
            </Popconfirm>
          )}
          {holding && can('production:order:add') && (
            <Popconfirm
              title="按计划生产生成自制件订单？"
              description="一级自制件的计划订单（净需求，已按批量取整）各生成一张生产订单（草稿）。"
              onConfirm={() => subOrders.mutate()}
              disabled={!makes}
            >
              <Button
                icon={<ApartmentOutlined />}
                disabled={!makes}
                loading={subOrders.isPending}
                data-testid="mrp-order-sub-orders"
              >
                生成自制件订单
              </Button>
            </Popconfirm>
          )}
          <Button onClick={() => openResourcePage(ORDER_DETAIL, id)}>订单详情</Button>
          <Button icon={<ArrowLeftOutlined />} onClick={back}>
            返回
          </Button>
        </Space>
      }
    >
      {!data ? (
        <Skeleton active />
      ) : (
        <>
          {data.order && (
            <Descriptions size="small" column={4} style={{ marginBottom: 12 }}>
              <Descriptions.Item label="数量">{qty(data.order.quantity)}</Descriptions.Item>
              <Descriptions.Item label="计划开工">{data.order.plannedStartDate}</Descriptions.Item>
              <Descriptions.Item label="计划完工">{data.order.dueDate}</Descriptions.Item>
              <Descriptions.Item label="说明">
                {data.order.status === 'draft'
                  ? '草稿：下达时按此运算冻结BOM和物料需求'
                  : '按当前库存和在途重新运算'}
              </Descriptions.Item>
            </Descriptions>
          )}
          <MrpSheetView sheet={data} />
        </>
      )}
    </PageCard>
  );
}
