import { ArrowLeftOutlined, DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Result, Space, Statistic, Table } from 'antd';
import { useSearchParams } from 'react-router';
import type { ApiResult } from '../../platform/api/typed.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, leavePage } from '../../platform/resource/nav.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { QualityTag, SignedQty, StatusTag } from './shared.tsx';
import { money, qty, STOCKTAKE_PATHS, stockApi } from './warehouse.api.ts';

/** A quantity total: one figure with its unit, or per unit (件 12 · kg 3.5), never summed across units. */
function perUnit(total: string | null, list: { unitName: string; quantity: string }[]): string {
  if (list.length === 1) return `${qty(list[0].quantity)} ${list[0].unitName}`.trim();
  if (total != null || !list.length) return qty(total ?? 0);
  return list.map((u) => `${u.unitName} ${qty(u.quantity)}`).join(' · ');
}

/**
 * 盘点差异报告 (`/warehouse-logistics/inventory-detail?id=`): the counted lines of one stocktake
 * that differ from the books, valued, with gain, loss and net totals, and an Excel copy.
 */
export function StocktakeReportPage({ path }: PageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const can = usePermission();
  // Failures are shown by the request layer.
  const exportExcel = useMutation({ mutationFn: () => stockApi.differenceExport(id as number) });
  const report = useQuery({
    queryKey: ['resource', 'stocktake', 'difference', id],
    queryFn: () => stockApi.difference(id as number),
    enabled: Boolean(id),
  });
  const back = () => leavePage(path, id ? `${STOCKTAKE_PATHS.detail}?id=${id}` : STOCKTAKE_PATHS.list);
  if (!id || report.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title="盘点单不存在或已被删除"
          extra={<Button onClick={() => leavePage(path, STOCKTAKE_PATHS.list)}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  const r = report.data;
  return (
    <PageCard
      title={
        <span className="wh-detail-head">
          盘点差异报告 <span data-testid="doc-no">{r?.docNo}</span>
          {r && <StatusTag value={r.status} />}
        </span>
      }
      extra={
        <Space>
          {can('warehouse:stocktake:export') && (
            <Button
              icon={<DownloadOutlined />}
              loading={exportExcel.isPending}
              onClick={() => exportExcel.mutate()}
            >
              导出
            </Button>
          )}
          <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void report.refetch()} />
          <Button icon={<ArrowLeftOutlined />} onClick={back}>
            返回盘点单
          </Button>
        </Space>
      }
    >
      <div data-testid="difference-report">
        {r && (
          <>
            <Descriptions
              size="small"
              column={3}
              bordered
              style={{ marginBottom: 16 }}
              items={[
                { key: 'wh', label: '盘点仓库', children: r.warehouseName },
                { key: 'date', label: '业务日期', children: r.bizDate },
                {
                  key: 'valued',
                  label: '计价',
                  children:
                    r.valuedAt === 'posting'
                      ? '按过账时的成本'
                      : '未过账：按物料当前移动加权平均价估算，过账时按当时的账面数量和成本确定',
                },
              ]}
            />
            <Space size={48} style={{ marginBottom: 16 }} wrap>
              <Statistic
                title="盘盈数量"
                value={perUnit(r.totals.gainQuantity, r.totals.gainByUnit)}
                styles={{ content: { color: '#389e0d' } }}
              />
              <Statistic
                title="盘盈金额（元）"
                value={money(r.totals.gainAmount)}
                styles={{ content: { color: '#389e0d' } }}
              />
              <Statistic
                title="盘亏数量"
                value={perUnit(r.totals.lossQuantity, r.totals.lossByUnit)}
                styles={{ content: { color: '#cf1322' } }}
              />
              <Statistic
                title="盘亏金额（元）"
                value={money(r.totals.lossAmount)}
                styles={{ content: { color: '#cf1322' } }}
              />
              <div data-testid="difference-net">
                <Statistic title="净盈亏金额（元）" value={money(r.totals.netAmount)} />
              </div>
            </Space>
          </>
        )}
        <Table<ApiResult<'/api/v1/stocktake/difference/{id}'>['lines'][number]>
          size="small"
          rowKey="lineNo"
          loading={report.isFetching}
          dataSource={r?.lines ?? []}
          scroll={{ x: 'max-content' }}
          pagination={(r?.lines.length ?? 0) > 50 ? { pageSize: 50, showTotal: (t) => `共 ${t} 条` } : false}
          locale={{ emptyText: '没有盘盈或盘亏的明细' }}
          columns={[
            { title: '行', dataIndex: 'lineNo', width: 48 },
            { title: '物料编码', dataIndex: 'materialCode', width: 120 },
            { title: '物料名称', dataIndex: 'materialName', width: 160 },
            { title: '单位', dataIndex: 'unitName', width: 60 },
            { title: '库位', dataIndex: 'locationName', width: 100 },
            { title: '批次号', dataIndex: 'batchNo', width: 100 },
            {
              title: '质量状态',
              dataIndex: 'qualityStatus',
              width: 84,
              render: (v) => <QualityTag value={v} />,
            },
            {
              title: '账面数量',
              dataIndex: 'bookQuantity',
              width: 96,
              align: 'right',
              render: (v) => qty(v),
            },
            {
              title: '实盘数量',
              dataIndex: 'countedQuantity',
              width: 96,
              align: 'right',
              render: (v) => qty(v),
            },
            {
              title: '盈亏数量',
              dataIndex: 'difference',
              width: 96,
              align: 'right',
              render: (v) => <SignedQty value={v} />,
            },
            {
              title: '成本单价',
              dataIndex: 'unitCost',
              width: 96,
              align: 'right',
              render: (v) => Number(v).toFixed(4),
            },
            {
              title: '盈亏金额',
              dataIndex: 'amount',
              width: 110,
              align: 'right',
              render: (v) => <span className={Number(v) < 0 ? 'wh-loss' : 'wh-gain'}>{money(v)}</span>,
            },
          ]}
        />
      </div>
    </PageCard>
  );
}
