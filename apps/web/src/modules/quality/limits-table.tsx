import { Table, Tag, Tooltip, Typography } from 'antd';
import { mmLimits, type ProductLimit, um } from './ring-standard.api.ts';

/** A product's derived limits: one row per characteristic, each with its source; missing values say why. */
export function LimitsTable({ limits, loading }: { limits: ProductLimit[]; loading?: boolean }) {
  return (
    <Table<ProductLimit>
      rowKey="code"
      size="small"
      loading={loading}
      dataSource={limits}
      pagination={false}
      data-testid="ring-limits"
      columns={[
        {
          title: '套圈',
          dataIndex: 'ringType',
          width: 70,
          render: (v) => (v === 'inner' ? '内圈' : '外圈'),
        },
        {
          title: '特性',
          width: 230,
          render: (_, l) => (
            <span>
              <b>{l.symbol}</b> <span style={{ color: '#888' }}>{l.label}</span>
            </span>
          ),
        },
        { title: '公称尺寸(mm)', dataIndex: 'nominal', width: 110, render: (v) => v ?? '—' },
        {
          title: '上偏差/最大值(μm)',
          width: 140,
          render: (_, l) =>
            l.available ? (
              <span data-testid={`limit-upper-${l.code}`}>
                {l.kind === 'max' ? `≤ ${l.upper}` : um(l.upper)}
                {l.override?.applied && l.standardUpper !== l.upper && (
                  <Typography.Text delete type="secondary" style={{ marginLeft: 6 }}>
                    {l.kind === 'max' ? l.standardUpper : um(l.standardUpper)}
                  </Typography.Text>
                )}
              </span>
            ) : (
              <Tooltip title={l.missing}>
                <Tag color="default">标准数据缺失</Tag>
              </Tooltip>
            ),
        },
        {
          title: '下偏差(μm)',
          width: 120,
          render: (_, l) =>
            l.available && l.kind === 'deviation' ? (
              <span data-testid={`limit-lower-${l.code}`}>
                {um(l.lower)}
                {l.override?.applied && l.standardLower !== l.lower && (
                  <Typography.Text delete type="secondary" style={{ marginLeft: 6 }}>
                    {um(l.standardLower)}
                  </Typography.Text>
                )}
              </span>
            ) : (
              '—'
            ),
        },
        { title: '界限', width: 190, render: (_, l) => (l.available ? mmLimits(l) : '') },
        {
          title: '来源',
          render: (_, l) =>
            l.available ? (
              <span>
                {l.override?.applied && <Tag color="orange">客户收严</Tag>}
                <Tooltip
                  title={
                    l.source?.note ? `${l.source.note}；转录自 ${l.source.url}` : `转录自 ${l.source?.url}`
                  }
                >
                  <span>{l.sourceText}</span>
                </Tooltip>
                {l.override && !l.override.applied && (
                  <Tooltip title={l.override.problem}>
                    <Tag color="red" style={{ marginLeft: 6 }}>
                      收严值已失效
                    </Tag>
                  </Tooltip>
                )}
              </span>
            ) : (
              <span style={{ color: '#999' }}>{l.missing}</span>
            ),
        },
      ]}
    />
  );
}
