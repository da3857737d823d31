import '../factory.css';
import { ApartmentOutlined, ColumnHeightOutlined, VerticalAlignMiddleOutlined } from '@ant-design/icons';
import { productBomResource } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Table, type TableColumnsType, Tag, Tooltip } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { resourceKeys } from '../../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../../platform/resource/routes.ts';
import { resourceRoutes } from '../../../platform/resource/routes.ts';
import { VersionStatusButtons } from '../shared/version-status.tsx';

/** One node of `GET /api/v1/product-bom/tree/:id`; quantities include the loss rate. */
export interface BomNode {
  materialId: number;
  code: string;
  name: string;
  spec: string | null;
  unitName: string | null;
  /** Per one unit of the parent. */
  quantity: string;
  /** Per one unit of the top product. */
  totalQuantity: string;
  lossRate: string;
  /** The component's own active BOM, when it is made. */
  bomId: number | null;
  children: BomNode[];
}

interface Row extends Omit<BomNode, 'children'> {
  key: string;
  level: number;
  children?: Row[];
}

function toRows(nodes: BomNode[], level = 1, prefix = ''): Row[] {
  return nodes.map((n, i) => {
    const key = `${prefix}${i}`;
    const { children, ...rest } = n;
    return {
      ...rest,
      key,
      level,
      children: children.length ? toRows(children, level + 1, `${key}.`) : undefined,
    };
  });
}

function allKeys(rows: Row[]): string[] {
  return rows.flatMap((r) => (r.children ? [r.key, ...allKeys(r.children)] : []));
}

function countNodes(rows: Row[]): { parts: number; depth: number } {
  let parts = 0;
  let depth = 0;
  const walk = (list: Row[]) => {
    for (const r of list) {
      parts += 1;
      depth = Math.max(depth, r.level);
      if (r.children) walk(r.children);
    }
  };
  walk(rows);
  return { parts, depth };
}

const LEVEL_COLORS = ['blue', 'cyan', 'geekblue', 'purple', 'magenta'];

/** 多级展开: the BOM exploded over the components' active BOMs, per-unit and cumulative quantities. */
export function BomExplosion({ bomId }: { bomId: number }) {
  const tree = useQuery({
    queryKey: [...resourceKeys.all('product-bom'), 'explode', bomId],
    queryFn: () => http.get<{ children: BomNode[] }>(`/api/v1/product-bom/tree/${bomId}`),
  });
  const rows = useMemo(() => toRows(tree.data?.children ?? []), [tree.data]);
  const [expanded, setExpanded] = useState<readonly Key[] | null>(null);
  const keys = useMemo(() => allKeys(rows), [rows]);
  const { parts, depth } = countNodes(rows);
  const bomRoutes = resourceRoutes(productBomResource);

  const columns: TableColumnsType<Row> = [
    {
      title: '物料编码',
      dataIndex: 'code',
      width: 260,
      render: (code: string, r) => (
        <span className="fm-bom-code">
          <Tag color={LEVEL_COLORS[(r.level - 1) % LEVEL_COLORS.length]} className="fm-level">
            {r.level} 级
          </Tag>
          {code}
        </span>
      ),
    },
    { title: '物料名称', dataIndex: 'name', width: 180, ellipsis: true },
    { title: '规格型号', dataIndex: 'spec', width: 160, ellipsis: true, render: (v) => v || '-' },
    { title: '单位', dataIndex: 'unitName', width: 70, align: 'center', render: (v) => v || '-' },
    {
      title: (
        <Tooltip title="每生产一个上级物料所需数量，已含损耗">
          <span className="fm-th-help">单位用量</span>
        </Tooltip>
      ),
      dataIndex: 'quantity',
      width: 120,
      align: 'right',
    },
    {
      title: '损耗率(%)',
      dataIndex: 'lossRate',
      width: 100,
      align: 'right',
    },
    {
      title: (
        <Tooltip title="每生产一个顶层产品所需数量（各级用量相乘，已含损耗）">
          <span className="fm-th-help">累计用量</span>
        </Tooltip>
      ),
      dataIndex: 'totalQuantity',
      width: 130,
      align: 'right',
      render: (v: string) => <strong>{v}</strong>,
    },
    {
      title: '下级BOM',
      dataIndex: 'bomId',
      width: 100,
      align: 'center',
      render: (id: number | null) =>
        id && bomRoutes.detail ? (
          <Button type="link" size="small" onClick={() => openResourcePage(bomRoutes.detail as string, id)}>
            查看
          </Button>
        ) : (
          <span className="rm-muted">-</span>
        ),
    },
  ];

  return (
    <div className="rk-form-section" data-testid="bom-explosion">
      <div className="rk-form-section-title">
        <ApartmentOutlined /> 多级展开
        <span className="rk-count">{parts} 项</span>
        <span className="fm-section-hint">最深 {depth} 级，下级按其启用的 BOM 展开</span>
        <Space className="fm-section-tools" size={4}>
          <Button size="small" icon={<ColumnHeightOutlined />} onClick={() => setExpanded(keys)}>
            全部展开
          </Button>
          <Button size="small" icon={<VerticalAlignMiddleOutlined />} onClick={() => setExpanded([])}>
            全部收起
          </Button>
        </Space>
      </div>
      <Table<Row>
        size="small"
        bordered
        rowKey="key"
        loading={tree.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1120 }}
        expandable={{
          expandedRowKeys: expanded ?? keys,
          onExpandedRowsChange: (k) => setExpanded(k),
          indentSize: 20,
        }}
      />
    </div>
  );
}

/** 产品BOM list: the kit's list with 启用/停用. */
export function BomListPage(props: ResourcePageProps) {
  return (
    <ResourceListPage
      {...props}
      rowActions={(row, { def }) => <VersionStatusButtons def={def} row={row} />}
      rowActionsWidth={48}
    />
  );
}

/** 产品BOM详情: fields and lines, plus the exploded multi-level tree. */
export function BomDetailPage(props: ResourcePageProps) {
  return (
    <ResourceDetailPage
      {...props}
      actions={(row) => <VersionStatusButtons def={props.def} row={row} size="middle" type="default" />}
      sections={(row) => <BomExplosion bomId={row.id} />}
    />
  );
}
