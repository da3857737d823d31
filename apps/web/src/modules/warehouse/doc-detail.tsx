import '../../platform/resource/kit.css';
import './warehouse.css';
import { ArrowLeftOutlined, EditOutlined, PrinterOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Result, Skeleton, Space, Table, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { usePermission, useRecordPermission } from '../../platform/auth/permission.tsx';
import { formatTime } from '../../platform/lib/time.ts';
import { LifecycleActions } from '../../platform/resource/lifecycle-actions.tsx';
import { leavePage, openResourcePage } from '../../platform/resource/nav.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { type PrintColumn, PrintView } from '../../platform/ui/print-view.tsx';
import { DeliveryNotePrint } from './delivery-note.tsx';
import { useConversions } from './line-cells.tsx';
import { totalsByUnit } from './quantities.ts';
import { Dash, QualityTag, SignedQty, StatusTag, UnitTotals, useRefreshDocs } from './shared.tsx';
import { docApi, qty, type Row, stockApi } from './warehouse.api.ts';

export interface DocDetailProps {
  def: ResourceDef;
  path: string;
  id?: number;
  listPath: string;
  editPath?: string;
  docName: (row: Row) => string;
  fields: (row: Row) => { label: string; value: ReactNode }[];
  lineColumns: PrintColumn[];
  qualifiedOnly?: boolean;
  /** Buttons of other modules on this document (出货检验 on a 销售出库 draft). */
  extra?: (row: Row) => ReactNode;
  /** A last column of buttons on each line (not printed): 追溯 on a posted 销售出库. */
  lineActions?: (line: Row, row: Row) => ReactNode;
  /** Rendered after the page (the drawers its buttons open). */
  footer?: ReactNode;
}

/** The ledger moves a document wrote (posting and reversal). */
export function DocLedger({ docNo }: { docNo: string }) {
  const moves = useQuery({
    queryKey: ['warehouse', 'ledger', { docNo }],
    queryFn: () => stockApi.ledger({ docNo, pageNum: 0 }),
  });
  return (
    <Table<Row>
      size="small"
      rowKey="id"
      loading={moves.isFetching}
      dataSource={moves.data?.list ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid="doc-ledger"
      columns={[
        {
          title: '物料',
          dataIndex: 'materialName',
          width: 180,
          render: (v, r) => `${v}（${r.materialCode}）`,
        },
        { title: '仓库', dataIndex: 'warehouseName', width: 100 },
        { title: '库位', dataIndex: 'locationName', width: 120, render: (v) => v || <Dash /> },
        { title: '批次号', dataIndex: 'batchNo', width: 110, render: (v) => v || <Dash /> },
        { title: '质量', dataIndex: 'qualityStatus', width: 80, render: (v) => <QualityTag value={v} /> },
        {
          title: '数量',
          dataIndex: 'quantity',
          width: 110,
          align: 'right',
          render: (v) => <SignedQty value={v} />,
        },
        { title: '单位', dataIndex: 'unitName', width: 60 },
        {
          title: '成本单价',
          dataIndex: 'unitCost',
          width: 100,
          align: 'right',
          render: (v) => Number(v).toFixed(4),
        },
        {
          title: '说明',
          key: 'rev',
          width: 80,
          render: (_, r) => (r.reversalOf ? <Tag color="red">冲销</Tag> : '过账'),
        },
        { title: '记账时间', dataIndex: 'createdAt', width: 160, render: (v) => formatTime(v) },
      ]}
    />
  );
}

/**
 * Detail page of a stock document: header, lines, the ledger moves once posted, and the buttons
 * 编辑 (drafts) / 过账 / 冲销 / 打印 / 返回.
 */
export function DocDetail(props: DocDetailProps) {
  const { def, id } = props;
  const may = useRecordPermission(def);
  // 库存流水 is the warehouse's (a buyer viewing a 采购退货 sees the document, not the ledger).
  const seesLedger = usePermission()('warehouse:stock:list');
  const [printing, setPrinting] = useState(false);
  const [failure, setFailure] = useState<{ action: string; message: string }>();
  const refresh = useRefreshDocs(def);
  const record = useQuery({
    queryKey: ['resource', def.name, 'info', id],
    queryFn: () => docApi(def).info(id as number),
    enabled: Boolean(id),
  });
  // Base units of the lines' materials: the 合计 is per unit (粒 and kg never add up).
  const conversions = useConversions((record.data?.lines ?? []).map((l: Row) => l.materialId));
  const back = () => leavePage(props.path, props.listPath);
  if (!id || record.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title={`${def.label}不存在或已被删除`}
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  const row = record.data;
  const baseTotals = (row?.lines ?? []).map((l: Row) => ({
    unitName: conversions.get(l.materialId)?.baseUnitName,
    quantity: l.baseQuantity,
  }));
  if (!row) {
    return (
      <PageCard>
        <Skeleton active paragraph={{ rows: 8 }} />
      </PageCard>
    );
  }
  const lines: Row[] = row.lines ?? [];
  // A 销售出库 prints as the customer's 送货单: order prices and units, the customer's address.
  const deliveryNote = def.name === 'stock-outbound' && row.type === 'sales';
  const fields = props.fields(row);
  const docName = props.docName(row);
  return (
    <>
      <PageCard
        title={
          <span className="wh-detail-head">
            {docName} <span data-testid="doc-no">{row.docNo}</span> <StatusTag value={row.status} />
          </span>
        }
        extra={
          <Space>
            {row.status === 'draft' && props.editPath && may('edit', row.type) && (
              <Button icon={<EditOutlined />} onClick={() => openResourcePage(props.editPath as string, id)}>
                编辑
              </Button>
            )}
            {props.extra?.(row)}
            <LifecycleActions
              def={def}
              record={row}
              onDone={() => {
                refresh();
                setFailure(undefined);
              }}
              onError={(t, message) => setFailure({ action: t.label, message })}
            />
            <Button icon={<PrinterOutlined />} onClick={() => setPrinting(true)}>
              {deliveryNote ? '打印送货单' : '打印'}
            </Button>
            <Button icon={<ArrowLeftOutlined />} onClick={back}>
              返回
            </Button>
          </Space>
        }
      >
        {failure && (
          <Alert
            type="error"
            showIcon
            closable={{ onClose: () => setFailure(undefined) }}
            style={{ marginBottom: 12 }}
            title={`${failure.action}失败`}
            description={failure.message}
            data-testid="post-error"
          />
        )}
        {props.qualifiedOnly && row.status === 'draft' && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            title="该类型只能发出质量状态为「合格」的库存"
          />
        )}
        <Descriptions
          size="small"
          column={3}
          bordered
          items={fields.map((f) => ({ key: f.label, label: f.label, children: f.value || <Dash /> }))}
        />
        <div className="wh-section-title">明细（{lines.length} 行）</div>
        <Table<Row>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={lines}
          scroll={{ x: 'max-content' }}
          data-testid="doc-lines"
          columns={[
            { title: '行', key: 'no', width: 48, render: (_, __, i) => i + 1 },
            ...props.lineColumns.map((c) => ({
              title: c.title,
              key: c.title,
              align: c.numeric ? ('right' as const) : undefined,
              render: (_: unknown, l: Row, i: number) => {
                if (c.title === '质量状态') return <QualityTag value={l.qualityStatus} />;
                const v = c.render(l, i);
                return v === '' || v === null || v === undefined ? <Dash /> : v;
              },
            })),
            ...(props.lineActions
              ? [
                  {
                    title: '操作',
                    key: 'actions',
                    width: 90,
                    render: (_: unknown, l: Row) => props.lineActions?.(l, row),
                  },
                ]
              : []),
          ]}
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell
                index={0}
                colSpan={props.lineColumns.length + 1 + (props.lineActions ? 1 : 0)}
              >
                <span className="wh-totals">
                  <UnitTotals label="基本单位数量合计" totals={baseTotals} />
                </span>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
        {row.status !== 'draft' && seesLedger && (
          <>
            <div className="wh-section-title">库存流水</div>
            <DocLedger docNo={row.docNo} />
          </>
        )}
        <div className="rm-muted" style={{ marginTop: 12, fontSize: 12 }}>
          创建 {formatTime(row.createdAt)}，最后更新 {formatTime(row.updatedAt)}
        </div>
      </PageCard>
      {props.footer}
      {printing && deliveryNote && <DeliveryNotePrint id={row.id} onClose={() => setPrinting(false)} />}
      {printing && !deliveryNote && (
        <PrintView
          onClose={() => setPrinting(false)}
          doc={{
            docName,
            docNo: row.docNo,
            fields: fields.filter((f) => f.label !== '单据编号'),
            columns: props.lineColumns,
            lines,
            totals: {
              基本单位数量: totalsByUnit(baseTotals)
                .map((u) => `${qty(u.quantity)} ${u.unitName}`)
                .join('；'),
            },
          }}
        />
      )}
    </>
  );
}
