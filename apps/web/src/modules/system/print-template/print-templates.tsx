import { DeleteOutlined, PlusOutlined, PrinterOutlined, SaveOutlined } from '@ant-design/icons';
import {
  BARCODE_SYMBOLOGIES,
  defaultLayout,
  ELEMENT_KINDS,
  type ElementKind,
  PAGE_SIZES,
  type PageSize,
  PRINT_DOC_TYPES,
  type PrintDocType,
  type PrintDocTypeName,
  type PrintElement,
  type PrintLayout,
  pageBox,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { type PointerEvent as ReactPointerEvent, useMemo, useRef, useState } from 'react';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { LayoutPage, type PrintData } from '../../../platform/print/layout-page.tsx';
import { PRINT_SOURCES } from '../../../platform/print/print-sources.ts';
import {
  type PrintTemplate,
  printTemplateApi,
  printTemplateKeys,
} from '../../../platform/print/print-template.api.ts';
import { TemplatePrint } from '../../../platform/print/template-print.tsx';

const TYPE_NAMES = Object.keys(PRINT_DOC_TYPES) as PrintDocTypeName[];
const typeOf = (t: PrintDocTypeName): PrintDocType => PRINT_DOC_TYPES[t];
const PX_PER_MM = 96 / 25.4;

/** What the canvas shows before a record is chosen: each field's label, a number for the codes. */
function sampleData(t: PrintDocTypeName): PrintData {
  const type = typeOf(t);
  const data: PrintData = Object.fromEntries(type.fields.map((f) => [f.key, f.label]));
  for (const code of ['docNo', 'code']) if (code in data) data[code] = 'DEMO20261129-0001';
  if (type.lines) data.lines = [Object.fromEntries(type.lines.map((f) => [f.key, f.label]))];
  return data;
}

/** Zoom of the canvas: a label drawn large enough to place things on, A4 at screen size. */
const zoomOf = (layout: PrintLayout) => Math.min(4, Math.max(0.6, 640 / (pageBox(layout).width * PX_PER_MM)));

interface Draft {
  id?: number;
  name: string;
  layout: PrintLayout;
  version?: number;
}

/**
 * 系统设置 › 打印模板 (issue 41 §3): per document type, the factory's templates (one of them the
 * default) and the editor — a page canvas where elements are dragged into place, a properties
 * panel, preview with a real record's data and 预览打印.
 */
export function PrintTemplatesSection() {
  const can = usePermission();
  const editable = can('system:setting:edit');
  const client = useQueryClient();
  const [docType, setDocType] = useState<PrintDocTypeName>('flow-card');
  const [draft, setDraft] = useState<Draft>();
  const list = useQuery({
    queryKey: printTemplateKeys.list(docType),
    queryFn: () => printTemplateApi.list(docType),
  });
  const refresh = () => client.invalidateQueries({ queryKey: printTemplateKeys.all });

  const open = async (id: number) => {
    const t = await printTemplateApi.info(id);
    setDraft({ id: t.id, name: t.name, layout: t.layout, version: t.version });
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Space wrap>
        <span>单据类型：</span>
        <Select
          aria-label="单据类型"
          style={{ width: 180 }}
          value={docType}
          onChange={(v) => {
            setDocType(v);
            setDraft(undefined);
          }}
          options={TYPE_NAMES.map((value) => ({ value, label: typeOf(value).label }))}
        />
        {editable && (
          <Button
            icon={<PlusOutlined />}
            onClick={() => setDraft({ name: `${typeOf(docType).label}模板`, layout: defaultLayout(docType) })}
          >
            新建模板
          </Button>
        )}
      </Space>
      <Table
        size="small"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        locale={{ emptyText: '暂无模板：按系统默认模板打印' }}
        columns={[
          { title: '模板名称', dataIndex: 'name' },
          { title: '纸张', dataIndex: 'page', render: (p: PageSize) => PAGE_SIZES[p]?.label ?? p },
          {
            title: '默认',
            dataIndex: 'isDefault',
            render: (d: boolean) => (d ? <Tag color="blue">默认</Tag> : null),
          },
          { title: '更新时间', dataIndex: 'updatedAt' },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, r: { id: number; name: string; isDefault: boolean }) => (
              <Space>
                <Button type="link" size="small" onClick={() => open(r.id)}>
                  {editable ? '编辑' : '查看'}
                </Button>
                {editable && !r.isDefault && (
                  <Button
                    type="link"
                    size="small"
                    onClick={async () => {
                      await printTemplateApi.setDefault(r.id);
                      toast.success(`「${r.name}」已设为默认模板`);
                      void refresh();
                    }}
                  >
                    设为默认
                  </Button>
                )}
                {editable && (
                  <Popconfirm
                    title={`删除模板「${r.name}」？`}
                    onConfirm={async () => {
                      await printTemplateApi.remove(r.id);
                      if (draft?.id === r.id) setDraft(undefined);
                      void refresh();
                    }}
                  >
                    <Button type="link" size="small" danger>
                      删除
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {draft && (
        <TemplateEditor
          key={`${docType}-${draft.id ?? 'new'}`}
          docType={docType}
          draft={draft}
          editable={editable}
          onSaved={(t: PrintTemplate) => {
            setDraft({ id: t.id, name: t.name, layout: t.layout, version: t.version });
            void refresh();
          }}
        />
      )}
    </Space>
  );
}

let nextId = 1;
const newId = (kind: string) => `${kind}${Date.now().toString(36)}${nextId++}`;

function newElement(kind: ElementKind, t: PrintDocType, layout: PrintLayout): PrintElement {
  const page = pageBox(layout);
  const w = Math.min(40, page.width - 2);
  const base = { id: newId(kind), x: 1, y: 1, w, h: Math.min(8, page.height - 2) };
  const first = t.fields[0].key;
  switch (kind) {
    case 'text':
      return { ...base, kind, text: '文字' };
    case 'field':
      return { ...base, kind, field: first };
    case 'table':
      return {
        ...base,
        kind,
        h: Math.min(40, page.height - 2),
        w: Math.min(120, page.width - 2),
        columns: (t.lines ?? t.fields).slice(0, 4).map((c) => ({ field: c.key, title: c.label })),
      };
    case 'image':
      return { ...base, kind, src: 'logo', w: Math.min(20, w), h: Math.min(10, page.height - 2) };
    case 'qr':
      return { ...base, kind, field: first, w: Math.min(18, w), h: Math.min(18, page.height - 2) };
    case 'barcode':
      return {
        ...base,
        kind,
        field: first,
        symbology: 'code128',
        showText: true,
        h: Math.min(12, page.height - 2),
      };
  }
}

function TemplateEditor({
  docType,
  draft,
  editable,
  onSaved,
}: {
  docType: PrintDocTypeName;
  draft: Draft;
  editable: boolean;
  onSaved: (t: PrintTemplate) => void;
}) {
  const type = typeOf(docType);
  const [name, setName] = useState(draft.name);
  const [layout, setLayout] = useState<PrintLayout>(draft.layout);
  const [selected, setSelected] = useState<string>();
  const [record, setRecord] = useState<number>();
  const [keyword, setKeyword] = useState('');
  const [printing, setPrinting] = useState(false);
  const [saving, setSaving] = useState(false);
  const source = PRINT_SOURCES[docType];
  const choices = useQuery({
    queryKey: ['print-preview-choices', docType, keyword],
    queryFn: () => source.search(keyword),
  });
  const real = useQuery({
    queryKey: ['print-preview-record', docType, record],
    queryFn: () => source.read(record as number).then(source.toData),
    enabled: record !== undefined,
  });
  const data = useMemo(() => real.data ?? sampleData(docType), [real.data, docType]);
  const zoom = zoomOf(layout);
  const page = pageBox(layout);
  const element = layout.elements.find((e) => e.id === selected);

  const change = (id: string, patch: Partial<PrintElement>) =>
    setLayout((l) => ({
      ...l,
      elements: l.elements.map((e) => (e.id === id ? ({ ...e, ...patch } as PrintElement) : e)),
    }));

  // Dragging: the pointer's travel in screen pixels is millimetres × zoom; positions snap to 0.5 mm
  // and stay on the page.
  const drag = useRef<{ id: string; sx: number; sy: number; x: number; y: number }>(undefined);
  const onPick = (id: string, ev: ReactPointerEvent<HTMLDivElement>) => {
    setSelected(id);
    if (!editable) return;
    const e = layout.elements.find((x) => x.id === id);
    if (!e) return;
    ev.preventDefault();
    drag.current = { id, sx: ev.clientX, sy: ev.clientY, x: e.x, y: e.y };
    const move = (m: PointerEvent) => {
      const d = drag.current;
      if (!d) return;
      const snap = (v: number) => Math.round(v * 2) / 2;
      const el = layout.elements.find((x) => x.id === d.id) as PrintElement;
      change(d.id, {
        x: Math.max(0, Math.min(page.width - el.w, snap(d.x + (m.clientX - d.sx) / (PX_PER_MM * zoom)))),
        y: Math.max(0, Math.min(page.height - el.h, snap(d.y + (m.clientY - d.sy) / (PX_PER_MM * zoom)))),
      });
    };
    const up = () => {
      drag.current = undefined;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  const save = async () => {
    setSaving(true);
    try {
      const saved = draft.id
        ? await printTemplateApi.edit(draft.id, { name, layout, version: draft.version })
        : await printTemplateApi.add({ docType, name, layout });
      toast.success('模板已保存');
      onSaved(saved);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      size="small"
      title={draft.id ? `编辑模板：${draft.name}` : '新建模板'}
      data-testid="print-template-editor"
      extra={
        <Space>
          <Button icon={<PrinterOutlined />} onClick={() => setPrinting(true)}>
            预览打印
          </Button>
          {editable && (
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={save}>
              保存模板
            </Button>
          )}
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          aria-label="模板名称"
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
          maxLength={60}
          disabled={!editable}
        />
        <Select
          aria-label="纸张"
          style={{ width: 170 }}
          value={layout.page}
          disabled={!editable}
          onChange={(p: PageSize) => setLayout((l) => ({ ...l, page: p }))}
          options={Object.entries(PAGE_SIZES).map(([value, p]) => ({ value, label: p.label }))}
        />
        <Checkbox
          checked={!!layout.landscape}
          disabled={!editable}
          onChange={(e) => setLayout((l) => ({ ...l, landscape: e.target.checked || undefined }))}
        >
          横向
        </Checkbox>
        {editable &&
          (Object.keys(ELEMENT_KINDS) as ElementKind[]).map((k) => (
            <Button
              key={k}
              size="small"
              icon={<PlusOutlined />}
              onClick={() => {
                const e = newElement(k, type, layout);
                setLayout((l) => ({ ...l, elements: [...l.elements, e] }));
                setSelected(e.id);
              }}
            >
              {ELEMENT_KINDS[k]}
            </Button>
          ))}
        <Select
          aria-label="预览数据"
          showSearch
          allowClear
          filterOption={false}
          placeholder={`选择${type.label}预览真实数据`}
          style={{ width: 260 }}
          value={record}
          onSearch={setKeyword}
          onChange={setRecord}
          loading={choices.isFetching}
          options={(choices.data ?? []).map((c) => ({ value: c.id, label: c.label }))}
        />
      </Space>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <div
          style={{ background: '#e9ebef', padding: 16, overflow: 'auto', maxWidth: 'calc(100% - 320px)' }}
          data-testid="print-canvas"
        >
          <LayoutPage layout={layout} data={data} zoom={zoom} selected={selected} onPick={onPick} />
        </div>
        <div style={{ width: 300, flex: 'none' }} data-testid="print-properties">
          {element ? (
            <ElementProperties
              key={element.id}
              element={element}
              type={type}
              editable={editable}
              onChange={(patch) => change(element.id, patch)}
              onRemove={() => {
                setLayout((l) => ({ ...l, elements: l.elements.filter((e) => e.id !== element.id) }));
                setSelected(undefined);
              }}
            />
          ) : (
            <Empty description="点选画布上的元素编辑属性，拖动改变位置" />
          )}
        </div>
      </div>
      {printing && (
        <TemplatePrint
          docType={docType}
          records={[data]}
          layout={layout}
          onClose={() => setPrinting(false)}
        />
      )}
    </Card>
  );
}

function ElementProperties({
  element: e,
  type,
  editable,
  onChange,
  onRemove,
}: {
  element: PrintElement;
  type: PrintDocType;
  editable: boolean;
  onChange: (patch: Partial<PrintElement>) => void;
  onRemove: () => void;
}) {
  const fieldOptions = type.fields.map((f) => ({ value: f.key, label: f.label }));
  const mm = (label: string, k: 'x' | 'y' | 'w' | 'h') => (
    <Form.Item label={label} style={{ marginBottom: 8 }}>
      <InputNumber
        aria-label={label}
        value={e[k]}
        min={k === 'w' || k === 'h' ? 1 : 0}
        max={297}
        step={0.5}
        addonAfter="mm"
        disabled={!editable}
        onChange={(v) => v !== null && onChange({ [k]: v })}
      />
    </Form.Item>
  );
  return (
    <Form layout="horizontal" labelCol={{ span: 8 }} size="small" disabled={!editable}>
      <Typography.Title level={5}>{ELEMENT_KINDS[e.kind]}</Typography.Title>
      {mm('横坐标', 'x')}
      {mm('纵坐标', 'y')}
      {mm('宽度', 'w')}
      {mm('高度', 'h')}
      {e.kind === 'text' && (
        <Form.Item label="文字" style={{ marginBottom: 8 }}>
          <Input aria-label="文字" value={e.text} onChange={(v) => onChange({ text: v.target.value })} />
        </Form.Item>
      )}
      {(e.kind === 'field' || e.kind === 'qr' || e.kind === 'barcode') && (
        <Form.Item label="字段" style={{ marginBottom: 8 }}>
          <Select
            aria-label="字段"
            value={e.field}
            options={fieldOptions}
            onChange={(field) => onChange({ field })}
          />
        </Form.Item>
      )}
      {e.kind === 'field' && (
        <Form.Item label="前缀" style={{ marginBottom: 8 }}>
          <Input
            aria-label="前缀"
            value={e.prefix}
            onChange={(v) => onChange({ prefix: v.target.value || undefined })}
          />
        </Form.Item>
      )}
      {e.kind === 'barcode' && (
        <>
          <Form.Item label="条码类型" style={{ marginBottom: 8 }}>
            <Select
              aria-label="条码类型"
              value={e.symbology}
              options={Object.entries(BARCODE_SYMBOLOGIES).map(([value, label]) => ({ value, label }))}
              onChange={(symbology) => onChange({ symbology })}
            />
          </Form.Item>
          <Form.Item label="显示文字" style={{ marginBottom: 8 }}>
            <Switch checked={!!e.showText} onChange={(showText) => onChange({ showText })} />
          </Form.Item>
        </>
      )}
      {(e.kind === 'text' || e.kind === 'field' || e.kind === 'table') && (
        <Form.Item label="字号" style={{ marginBottom: 8 }}>
          <InputNumber
            aria-label="字号"
            value={e.fontSize ?? 9}
            min={4}
            max={72}
            addonAfter="pt"
            onChange={(v) => v !== null && onChange({ fontSize: v })}
          />
        </Form.Item>
      )}
      {(e.kind === 'text' || e.kind === 'field') && (
        <>
          <Form.Item label="加粗" style={{ marginBottom: 8 }}>
            <Switch checked={!!e.bold} onChange={(bold) => onChange({ bold })} />
          </Form.Item>
          <Form.Item label="对齐" style={{ marginBottom: 8 }}>
            <Select
              aria-label="对齐"
              value={e.align ?? 'left'}
              options={[
                { value: 'left', label: '左' },
                { value: 'center', label: '中' },
                { value: 'right', label: '右' },
              ]}
              onChange={(align) => onChange({ align })}
            />
          </Form.Item>
        </>
      )}
      {e.kind === 'table' && (
        <Form.Item label="列" style={{ marginBottom: 8 }}>
          <Select
            aria-label="列"
            mode="multiple"
            value={e.columns.map((c) => c.field)}
            options={(type.lines ?? type.fields).map((f) => ({ value: f.key, label: f.label }))}
            onChange={(fields: string[]) =>
              onChange({
                columns: fields.map((f) => ({
                  field: f,
                  title: (type.lines ?? type.fields).find((x) => x.key === f)?.label ?? f,
                })),
              })
            }
          />
        </Form.Item>
      )}
      {e.kind === 'image' && (
        <Form.Item label="图片" style={{ marginBottom: 8 }}>
          <Space direction="vertical">
            <Button size="small" onClick={() => onChange({ src: 'logo' })}>
              使用公司标志
            </Button>
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/svg+xml"
              aria-label="上传图片"
              onChange={(ev) => {
                const file = ev.target.files?.[0];
                if (!file) return;
                const reader = new FileReader();
                reader.onload = () => onChange({ src: String(reader.result) });
                reader.readAsDataURL(file);
              }}
            />
          </Space>
        </Form.Item>
      )}
      {editable && (
        <Button danger icon={<DeleteOutlined />} onClick={onRemove}>
          删除元素
        </Button>
      )}
    </Form>
  );
}
