import '../factory.css';
import {
  ApartmentOutlined,
  BankOutlined,
  DeleteOutlined,
  DesktopOutlined,
  EditOutlined,
  NodeIndexOutlined,
  PlusOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import {
  EQUIPMENT_STATUS_OPTIONS,
  equipmentResource,
  productionLineResource,
  type ResourceDef,
  WORKSHOP_TYPE_OPTIONS,
  workshopResource,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Descriptions, Empty, Input, Modal, Skeleton, Space, Tag, Tree } from 'antd';
import { type Key, type ReactNode, useMemo, useState } from 'react';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import type { PageProps } from '../../../platform/page.ts';
import { formFields } from '../../../platform/resource/fields.ts';
import { FieldValue } from '../../../platform/resource/format.tsx';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { type ResourceRow, resourceApi, resourceKeys } from '../../../platform/resource/resource-api.ts';
import { ResourceFormModal } from '../../../platform/resource/resource-form.tsx';
import { ResourceList } from '../../../platform/resource/resource-list.tsx';
import { resourceRoutes } from '../../../platform/resource/routes.ts';
import { invalidateResource } from '../../../platform/resource/use-options.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';

type Selection =
  | { kind: 'factory' }
  | { kind: 'workshop'; id: number }
  | { kind: 'line'; id: number }
  | { kind: 'equipment'; id: number };

const KEY_PREFIX = { workshop: 'w', line: 'l', equipment: 'e' } as const;
const keyOf = (s: Selection) => (s.kind === 'factory' ? 'factory' : `${KEY_PREFIX[s.kind]}-${s.id}`);
function selectionOf(key: string): Selection {
  const [p, id] = key.split('-');
  if (p === 'w') return { kind: 'workshop', id: Number(id) };
  if (p === 'l') return { kind: 'line', id: Number(id) };
  if (p === 'e') return { kind: 'equipment', id: Number(id) };
  return { kind: 'factory' };
}

const STATUS_BADGE: Record<string, 'success' | 'processing' | 'warning' | 'error' | 'default'> = {
  running: 'success',
  idle: 'processing',
  repair: 'warning',
  scrapped: 'error',
};

interface Node {
  key: string;
  title: ReactNode;
  search: string;
  children?: Node[];
}

/** Every row of a resource (pageNum 0), cached under the resource so any edit refreshes the tree. */
function useRows(def: ResourceDef, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.rows(def.name),
    queryFn: () => resourceApi(def).rows(),
    enabled,
  });
}

function tagOf(options: typeof WORKSHOP_TYPE_OPTIONS, value: unknown) {
  const o = options.find((x) => x.value === value);
  return o ? (
    <Tag color={o.color} className="fm-node-tag">
      {o.label}
    </Tag>
  ) : null;
}

function filterNodes(nodes: Node[], text: string): Node[] {
  if (!text) return nodes;
  const out: Node[] = [];
  for (const n of nodes) {
    const children = filterNodes(n.children ?? [], text);
    if (n.search.toLowerCase().includes(text.toLowerCase()) || children.length)
      out.push({ ...n, children: children.length ? children : n.children });
  }
  return out;
}

/** The fields of one record as a compact description list. */
function RecordFields({ def, row }: { def: ResourceDef; row: ResourceRow }) {
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 2, md: 2, lg: 3, xl: 3, xxl: 3 }}
      className="rk-descriptions"
      items={formFields(def).map((f) => ({
        key: f.name,
        label: f.label,
        children: <FieldValue field={f} row={row} />,
        span: f.kind === 'textarea' ? 'filled' : undefined,
      }))}
    />
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className={`fm-stat${tone ? ` fm-stat-${tone}` : ''}`}>
      <div className="fm-stat-value">{value}</div>
      <div className="fm-stat-label">{label}</div>
    </div>
  );
}

/**
 * 工厂模型: the factory as a tree (全厂 → 车间 → 产线 → 设备) beside a panel for the selected
 * node — its details, edit/delete, and the kit's list of what it contains (workshops, lines,
 * equipment) with add/edit/delete. Production lines have no page of their own; they live here.
 */
export function FactoryModelPage(_props: PageProps) {
  const can = usePermission();
  const client = useQueryClient();
  const canSeeEquipment = can(`${equipmentResource.permission}:list`);
  const canSeeLines = can(`${productionLineResource.permission}:list`);
  const workshops = useRows(workshopResource);
  const lines = useRows(productionLineResource, canSeeLines);
  const equipment = useRows(equipmentResource, canSeeEquipment);
  const [selection, setSelection] = useState<Selection>({ kind: 'factory' });
  const [text, setText] = useState('');
  const [modal, setModal] = useState<{
    def: ResourceDef;
    id?: number;
    initial?: Record<string, unknown>;
  } | null>(null);

  const nodes = useMemo<Node[]>(() => {
    const eqByLine = new Map<number, ResourceRow[]>();
    for (const e of equipment.data ?? []) {
      if (!e.lineId) continue;
      eqByLine.set(e.lineId, [...(eqByLine.get(e.lineId) ?? []), e]);
    }
    const linesBy = new Map<number, ResourceRow[]>();
    for (const l of lines.data ?? []) linesBy.set(l.workshopId, [...(linesBy.get(l.workshopId) ?? []), l]);
    const off = (row: ResourceRow) => row.status === '0';
    const ws = (workshops.data ?? []).map<Node>((w) => ({
      key: `w-${w.id}`,
      search: `${w.name} ${w.code}`,
      title: (
        <span className={`fm-node${off(w) ? ' fm-node-off' : ''}`}>
          <BankOutlined className="fm-node-icon fm-icon-workshop" />
          <span className="fm-node-name">{w.name}</span>
          {tagOf(WORKSHOP_TYPE_OPTIONS, w.type)}
          {off(w) && <Tag className="fm-node-tag">停用</Tag>}
        </span>
      ),
      children: (linesBy.get(w.id) ?? []).map<Node>((l) => ({
        key: `l-${l.id}`,
        search: `${l.name} ${l.code}`,
        title: (
          <span className={`fm-node${off(l) ? ' fm-node-off' : ''}`}>
            <NodeIndexOutlined className="fm-node-icon fm-icon-line" />
            <span className="fm-node-name">{l.name}</span>
            <span className="fm-node-count">{eqByLine.get(l.id)?.length ?? 0}</span>
          </span>
        ),
        children: (eqByLine.get(l.id) ?? []).map<Node>((e) => ({
          key: `e-${e.id}`,
          search: `${e.name} ${e.code} ${e.model ?? ''}`,
          title: (
            <span className="fm-node">
              <Badge status={STATUS_BADGE[e.status] ?? 'default'} />
              <span className="fm-node-name">{e.name}</span>
              <span className="fm-node-code">{e.code}</span>
            </span>
          ),
        })),
      })),
    }));
    return [
      {
        key: 'factory',
        search: '全厂',
        title: (
          <span className="fm-node fm-node-root">
            <ApartmentOutlined className="fm-node-icon" />
            <span className="fm-node-name">全厂</span>
          </span>
        ),
        children: ws,
      },
    ];
  }, [workshops.data, lines.data, equipment.data]);

  const shown = useMemo(() => filterNodes(nodes, text.trim()), [nodes, text]);
  const expandedDefault = useMemo(
    () => ['factory', ...(workshops.data ?? []).map((w) => `w-${w.id}`)],
    [workshops.data],
  );
  const [expanded, setExpanded] = useState<Key[] | null>(null);

  const find = (rows: ResourceRow[] | undefined, id: number) => rows?.find((r) => r.id === id);

  const confirmDelete = (def: ResourceDef, row: ResourceRow, after: Selection) =>
    Modal.confirm({
      title: `删除${def.label}`,
      content: `确定删除「${row.name}（${row.code}）」吗？仍有下级或被单据引用的${def.label}不能删除。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await resourceApi(def).remove([row.id]);
          toast.success('删除成功');
          invalidateResource(client, def.name);
          setSelection(after);
        } catch {
          // the request layer has shown the reason (该记录已被「产线」引用…)
        }
      },
    });

  const panelActions = (def: ResourceDef, row: ResourceRow, after: Selection, extra?: ReactNode) => (
    <Space>
      {extra}
      {can(`${def.permission}:edit`) && (
        <Button icon={<EditOutlined />} onClick={() => setModal({ def, id: row.id })}>
          编辑
        </Button>
      )}
      {can(`${def.permission}:delete`) && (
        <Button danger icon={<DeleteOutlined />} onClick={() => confirmDelete(def, row, after)}>
          删除
        </Button>
      )}
    </Space>
  );

  let panel: ReactNode;
  if (selection.kind === 'factory') {
    const eq = equipment.data ?? [];
    panel = (
      <>
        <PageCard title="全厂概况">
          <div className="fm-stats" data-testid="factory-stats">
            <Stat label="车间" value={workshops.data?.length ?? 0} />
            <Stat label="产线" value={lines.data?.length ?? 0} />
            <Stat label="设备" value={eq.length} />
            <Stat label="运行" value={eq.filter((e) => e.status === 'running').length} tone="green" />
            <Stat label="空闲" value={eq.filter((e) => e.status === 'idle').length} tone="blue" />
            <Stat label="维修" value={eq.filter((e) => e.status === 'repair').length} tone="orange" />
          </div>
        </PageCard>
        <PageCard>
          <ResourceList def={workshopResource} embedded title="车间" />
        </PageCard>
      </>
    );
  } else if (selection.kind === 'workshop') {
    const w = find(workshops.data, selection.id);
    panel = w ? (
      <>
        <PageCard
          title={
            <span className="rk-page-title">
              <BankOutlined className="fm-icon-workshop" />
              {w.name}
              <span className="rk-title-code">{w.code}</span>
              {tagOf(WORKSHOP_TYPE_OPTIONS, w.type)}
            </span>
          }
          extra={panelActions(
            workshopResource,
            w,
            { kind: 'factory' },
            can(`${productionLineResource.permission}:add`) ? (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setModal({ def: productionLineResource, initial: { workshopId: w.id } })}
              >
                新增产线
              </Button>
            ) : undefined,
          )}
        >
          <RecordFields def={workshopResource} row={w} />
        </PageCard>
        {canSeeLines && (
          <PageCard>
            <ResourceList
              def={productionLineResource}
              embedded
              title="产线"
              fixedFilters={{ workshopId: w.id }}
              hiddenFilters={['workshopId']}
              newValues={{ workshopId: w.id }}
              lockedOnAdd={['workshopId']}
            />
          </PageCard>
        )}
      </>
    ) : null;
  } else if (selection.kind === 'line') {
    const l = find(lines.data, selection.id);
    panel = l ? (
      <>
        <PageCard
          title={
            <span className="rk-page-title">
              <NodeIndexOutlined className="fm-icon-line" />
              {l.name}
              <span className="rk-title-code">{l.code}</span>
            </span>
          }
          extra={panelActions(productionLineResource, l, { kind: 'workshop', id: l.workshopId })}
        >
          <RecordFields def={productionLineResource} row={l} />
        </PageCard>
        {canSeeEquipment && (
          <PageCard>
            <ResourceList
              def={equipmentResource}
              embedded
              title="设备"
              fixedFilters={{ lineId: l.id }}
              hiddenFilters={['lineId', 'workshopId']}
            />
          </PageCard>
        )}
      </>
    ) : null;
  } else {
    const e = find(equipment.data, selection.id);
    const routes = resourceRoutes(equipmentResource);
    panel = e ? (
      <PageCard
        title={
          <span className="rk-page-title">
            <DesktopOutlined />
            {e.name}
            <span className="rk-title-code">{e.code}</span>
            <FieldValue field={equipmentResource.fields.find((f) => f.name === 'status')!} row={e} />
          </span>
        }
        extra={
          <Space>
            {routes.detail && (
              <Button onClick={() => openResourcePage(routes.detail as string, e.id)}>设备台账详情</Button>
            )}
            {routes.edit && can(`${equipmentResource.permission}:edit`) && (
              <Button
                type="primary"
                icon={<EditOutlined />}
                onClick={() => openResourcePage(routes.edit as string, e.id)}
              >
                编辑
              </Button>
            )}
          </Space>
        }
      >
        <RecordFields def={equipmentResource} row={e} />
        <div className="fm-legend">
          {EQUIPMENT_STATUS_OPTIONS.map((o) => (
            <Badge key={o.value} status={STATUS_BADGE[o.value]} text={o.label} />
          ))}
        </div>
      </PageCard>
    ) : null;
  }

  const loading = workshops.isLoading || (canSeeLines && lines.isLoading);
  return (
    <div className="rm-split fm-model" data-testid="factory-model">
      <aside className="rm-split-side fm-side fm-model-side">
        <PageCard
          title="工厂模型"
          extra={
            can(`${workshopResource.permission}:add`) ? (
              <Button
                size="small"
                type="link"
                icon={<PlusOutlined />}
                onClick={() => setModal({ def: workshopResource })}
              >
                新增车间
              </Button>
            ) : undefined
          }
        >
          <Input
            allowClear
            prefix={<SearchOutlined className="rm-muted" />}
            placeholder="搜索车间、产线、设备"
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="fm-tree-search"
          />
          {loading ? (
            <Skeleton active paragraph={{ rows: 10 }} title={false} />
          ) : shown.length ? (
            <Tree<Node>
              className="fm-tree"
              blockNode
              treeData={shown}
              key={text.trim() ? `search-${text.trim()}` : 'tree'}
              // Searching shows every match expanded; otherwise the user's expansion is kept.
              {...(text.trim()
                ? { defaultExpandAll: true }
                : {
                    expandedKeys: expanded ?? expandedDefault,
                    onExpand: (keys: Key[]) => setExpanded(keys),
                  })}
              selectedKeys={[keyOf(selection)]}
              onSelect={(keys) => keys[0] !== undefined && setSelection(selectionOf(String(keys[0])))}
              data-testid="factory-tree"
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的节点" />
          )}
          <div className="fm-legend fm-legend-side">
            {EQUIPMENT_STATUS_OPTIONS.map((o) => (
              <Badge key={o.value} status={STATUS_BADGE[o.value]} text={o.label} />
            ))}
          </div>
        </PageCard>
      </aside>
      <div className="rm-split-main">{panel}</div>
      {modal && (
        <ResourceFormModal
          def={modal.def}
          open
          id={modal.id}
          initialValues={modal.initial}
          locked={modal.initial ? Object.keys(modal.initial) : undefined}
          onClose={() => setModal(null)}
          onSaved={(row) => {
            if (!modal.id && modal.def === workshopResource) setSelection({ kind: 'workshop', id: row.id });
            if (!modal.id && modal.def === productionLineResource) setSelection({ kind: 'line', id: row.id });
          }}
        />
      )}
    </div>
  );
}
