import { DownloadOutlined } from '@ant-design/icons';
import type { DifferenceReport } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Space, Statistic, Table } from 'antd';
import { useState } from 'react';
import { usePermission } from '../../platform/auth/permission.tsx';
import { QualityTag, SignedQty } from './shared.tsx';
import { money, qty, stockApi } from './warehouse.api.ts';

/**
 * 盘点差异报告 of one stocktake: the counted lines that differ from the books, valued, with gain,
 * loss and net totals, and an Excel copy.
 */
export function DifferenceReportDrawer({
  id,
  open,
  unsaved,
  onClose,
}: {
  id: number;
  open: boolean;
  /** The screen has counts not yet saved: the report shows the saved ones. */
  unsaved: boolean;
  onClose: () => void;
}) {
  const can = usePermission();
  const [exporting, setExporting] = useState(false);
  const report = useQuery({
    queryKey: ['resource', 'stocktake', 'difference', id],
    queryFn: () => stockApi.difference(id),
    enabled: open,
    staleTime: 0,
  });
  const r = report.data;
  const exportExcel = async () => {
    setExporting(true);
    try {
      await stockApi.differenceExport(id);
    } catch {
      // shown by the client
    } finally {
      setExporting(false);
    }
  };
  return (
    <Drawer
      title={`盘点差异报告${r ? ` ${r.docNo}` : ''}`}
      open={open}
      onClose={onClose}
      size={1080}
      extra={
        can('warehouse:stocktake:export') && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
            导出
          </Button>
        )
      }
    >
      <div data-testid="difference-report">
        {unsaved && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="实盘数量尚未保存：报告按已保存的数量计算"
          />
        )}
        {r && (
          <>
            <Space size={48} style={{ marginBottom: 16 }} wrap>
              <Statistic
                title="盘盈数量"
                value={qty(r.totals.gainQuantity)}
                styles={{ content: { color: '#389e0d' } }}
              />
              <Statistic
                title="盘盈金额（元）"
                value={money(r.totals.gainAmount)}
                styles={{ content: { color: '#389e0d' } }}
              />
              <Statistic
                title="盘亏数量"
                value={qty(r.totals.lossQuantity)}
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
            <div className="rm-muted" style={{ marginBottom: 8, fontSize: 12 }}>
              {r.valuedAt === 'posting'
                ? '金额按过账时的成本计价。'
                : '尚未过账：金额按物料当前的移动加权平均价估算，过账时按当时的账面数量和成本确定。'}
            </div>
          </>
        )}
        <Table<DifferenceReport['lines'][number]>
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
    </Drawer>
  );
}
