import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { type FieldDef, RING_TYPES, ringStandardOverrideResource, TOLERANCE_CLASSES } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Descriptions, Empty, InputNumber, Row, Select, Space, Table, Tooltip } from 'antd';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import type { PageProps } from '../../platform/page.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { LimitsTable } from './limits-table.tsx';
import { DETAIL_PATH, type LimitsAnswer, type StandardRow, um } from './ring-standard.api.ts';

const fieldOf = (name: string) =>
  ringStandardOverrideResource.fields.find((f) => f.name === name) as FieldDef;
const dev = (d: { upper: number; lower: number } | null) => (d ? `${um(d.upper)} / ${um(d.lower)}` : '—');
const series = (g: { series: string; max: number }[]) =>
  g.length
    ? g.map((x) => `${x.series.length > 9 ? '各系列' : `系列 ${x.series}`}：${x.max}`).join('；')
    : '—';
const max = (v: number | null) => (v === null ? '—' : v);

/** Plain-text cells of the table, for the CSV export (Excel opens it). */
function toCsv(rows: StandardRow[]): string {
  const head = [
    '套圈',
    '公差等级',
    '公称直径(mm)',
    'Δdmp/ΔDmp(μm)',
    'Vdsp/VDsp(μm)',
    '带密封 VDsp(μm)',
    'Vdmp/VDmp(μm)',
    'ΔBs(μm)',
    'VBs/VCs(μm)',
    'Kia/Kea(μm)',
    '标准',
    '表号',
    '转录来源',
    '说明',
  ];
  const cells = rows.map((r) => [
    r.ringTypeName,
    r.toleranceClass,
    r.range,
    dev(r.meanDeviation),
    series(r.diameterVariation),
    series(r.diameterVariationCapped),
    max(r.meanDiameterVariation),
    dev(r.widthDeviation),
    max(r.widthVariation),
    max(r.radialRunout),
    r.source.standard,
    r.source.table,
    r.source.url,
    r.source.note ?? '',
  ]);
  const q = (v: unknown) => `"${String(v).replaceAll('"', '""')}"`;
  return `\ufeff${[head, ...cells].map((line) => line.map(q).join(',')).join('\r\n')}`;
}

function exportCsv(rows: StandardRow[]) {
  const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = '轴承套圈标准.csv';
  a.click();
  URL.revokeObjectURL(url);
}

/** The standard's tables, browsable by ring type, class and diameter. */
function StandardTable() {
  const [ringType, setRingType] = useState<string | undefined>();
  const [cls, setCls] = useState<string | undefined>();
  const [diameter, setDiameter] = useState<number | null>(null);
  const may = usePermission();
  const data = useQuery({
    queryKey: ['ring-standard', 'rows', ringType, cls, diameter],
    queryFn: () =>
      http.get<{ total: number; list: StandardRow[] }>('/api/v1/bearing-ring-standard/rows', {
        ringType,
        toleranceClass: cls,
        diameter: diameter ?? undefined,
      }),
  });
  const rows = data.data?.list ?? [];
  return (
    <PageCard
      title="ISO 492 / GB/T 307.1 向心轴承公差表"
      extra={
        <Space wrap>
          <Select
            placeholder="套圈"
            allowClear
            style={{ width: 100 }}
            value={ringType}
            onChange={setRingType}
            options={RING_TYPES}
            data-testid="filter-ring-type"
          />
          <Select
            placeholder="公差等级"
            allowClear
            style={{ width: 130 }}
            value={cls}
            onChange={setCls}
            options={TOLERANCE_CLASSES.map((c) => ({ value: c.value, label: c.label }))}
            data-testid="filter-class"
          />
          <InputNumber
            placeholder="公称直径 mm"
            min={0.1}
            max={10000}
            style={{ width: 140 }}
            value={diameter}
            onChange={(v) => setDiameter(typeof v === 'number' ? v : null)}
          />
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => data.refetch()} />
          </Tooltip>
          {may('quality:ringStandard:export') && (
            <Button icon={<DownloadOutlined />} onClick={() => exportCsv(rows)} disabled={!rows.length}>
              导出
            </Button>
          )}
        </Space>
      }
    >
      <Table<StandardRow>
        rowKey="key"
        size="small"
        loading={data.isFetching}
        dataSource={rows}
        scroll={{ x: 1400 }}
        pagination={{ pageSize: 20, showSizeChanger: true, showTotal: (n) => `共 ${n} 条` }}
        data-testid="ring-standard-rows"
        columns={[
          { title: '套圈', dataIndex: 'ringTypeName', width: 60, fixed: 'left' },
          {
            title: '公差等级',
            dataIndex: 'toleranceClass',
            width: 80,
            fixed: 'left',
            sorter: (a, b) => a.toleranceClass.localeCompare(b.toleranceClass),
          },
          {
            title: '公称直径(mm)',
            dataIndex: 'range',
            width: 140,
            fixed: 'left',
            sorter: (a, b) => a.over - b.over,
          },
          { title: 'Δdmp / ΔDmp 上/下(μm)', width: 130, render: (_, r) => dev(r.meanDeviation) },
          { title: 'Vdsp / VDsp(μm)', width: 230, render: (_, r) => series(r.diameterVariation) },
          { title: '带密封 VDsp(μm)', width: 130, render: (_, r) => series(r.diameterVariationCapped) },
          { title: 'Vdmp / VDmp', width: 100, render: (_, r) => max(r.meanDiameterVariation) },
          {
            title: 'ΔBs 上/下(μm)',
            width: 110,
            render: (_, r) => (r.ringType === 'outer' ? '同内圈' : dev(r.widthDeviation)),
          },
          {
            title: 'VBs / VCs',
            width: 90,
            render: (_, r) =>
              r.ringType === 'outer' && (r.toleranceClass === 'P0' || r.toleranceClass === 'P6')
                ? '同内圈'
                : max(r.widthVariation),
          },
          { title: 'Kia / Kea', width: 90, render: (_, r) => max(r.radialRunout) },
          {
            title: '来源',
            width: 260,
            render: (_, r) => (
              <Tooltip
                title={`${r.source.clause}；转录自 ${r.source.url}${r.source.note ? `；${r.source.note}` : ''}`}
              >
                <span>
                  {r.source.standard} {r.source.table}
                </span>
              </Tooltip>
            ),
          },
        ]}
      />
      <div style={{ color: '#888', marginTop: 8 }}>
        单位 μm；空白（—）表示公开转载中未找到该值，系统不作推测（如 6 级外圈 150 mm 以上）。
      </div>
    </PageCard>
  );
}

/** 按产品推导: a product (and optional customer) → its limits with their sources. */
function DerivePanel() {
  const [productId, setProductId] = useState<number | null>(null);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const data = useQuery({
    queryKey: ['ring-standard', 'limits', productId, customerId],
    enabled: productId !== null,
    retry: false,
    queryFn: () =>
      http.get<LimitsAnswer>(
        '/api/v1/bearing-ring-standard/limits',
        { productId, customerId: customerId ?? undefined },
        { silent: true },
      ),
  });
  const p = data.data?.product;
  return (
    <PageCard
      title="按产品推导"
      extra={
        p && (
          <Button type="link" onClick={() => openResourcePage(DETAIL_PATH, p.id)}>
            产品标准详情 / 客户收严
          </Button>
        )
      }
    >
      <Row gutter={12} style={{ marginBottom: 12 }}>
        <Col xs={24} md={10}>
          <RefSelect
            field={fieldOf('materialId')}
            value={productId}
            onChange={(v) => setProductId((v as number | null) ?? null)}
            placeholder="选择产品（输入编码或名称搜索）"
            style={{ width: '100%' }}
            id="derive-product"
          />
        </Col>
        <Col xs={24} md={8}>
          <RefSelect
            field={fieldOf('customerId')}
            value={customerId}
            onChange={(v) => setCustomerId((v as number | null) ?? null)}
            placeholder="客户（可选，应用客户收严）"
            style={{ width: '100%' }}
            id="derive-customer"
          />
        </Col>
      </Row>
      {productId === null ? (
        <Empty description="选择产品后按其公差等级和尺寸推导各特性的检验界限" />
      ) : data.error ? (
        <Empty description={(data.error as Error).message} />
      ) : (
        <>
          {p && (
            <Descriptions size="small" column={{ xs: 2, md: 6 }} style={{ marginBottom: 8 }}>
              <Descriptions.Item label="产品">
                {p.code} {p.name}
              </Descriptions.Item>
              <Descriptions.Item label="规格">{p.spec ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="公差等级">{p.toleranceClass}</Descriptions.Item>
              <Descriptions.Item label="d × D × B">
                {p.d} × {p.D} × {p.B}
              </Descriptions.Item>
              <Descriptions.Item label="直径系列">{p.diameterSeries ?? '未填'}</Descriptions.Item>
              <Descriptions.Item label="带密封">{p.capped ? '是' : '否'}</Descriptions.Item>
            </Descriptions>
          )}
          <LimitsTable limits={data.data?.limits ?? []} loading={data.isFetching} />
        </>
      )}
    </PageCard>
  );
}

export function RingStandardPage(_: PageProps) {
  return (
    <div data-testid="ring-standard-page" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <DerivePanel />
      <StandardTable />
    </div>
  );
}
