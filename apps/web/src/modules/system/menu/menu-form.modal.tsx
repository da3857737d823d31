import { Form, Input, InputNumber, Radio, Select, Switch, TreeSelect } from 'antd';
import { useLayoutEffect, useMemo } from 'react';
import { parseParameter } from '../../../platform/menu/menu-model.ts';
import type { ServerMenu } from '../../../platform/session.ts';
import { FormModal } from '../../../platform/ui/form-modal.tsx';
import { type MenuInput, menuApi, menuNodeId } from '../system.api.ts';
import { CatalogIcon, ICON_CATALOG } from './icon-catalog.tsx';

type NodeType = '1' | '2' | '3';

interface Values {
  parentId: number;
  nodeType: NodeType;
  menuName: string;
  menuIco?: string;
  location?: number;
  menuPath?: string;
  menuPermissions?: string;
  menuStatus: '0' | '1';
  activeMenu?: string;
  noCache?: boolean;
  affix?: boolean;
}

interface ParentOption {
  value: number;
  title: string;
  disabled?: boolean;
  children?: ParentOption[];
}

/** Parent choices: the root plus directories and pages (a node cannot move under itself). */
function parentOptions(menus: readonly ServerMenu[], excludeId?: number): ParentOption[] {
  const walk = (nodes: readonly ServerMenu[]): ParentOption[] =>
    nodes
      .filter((n) => n.nodeType !== '3' && menuNodeId(n) !== excludeId)
      .map((n) => {
        const children = walk(n.children ?? []);
        return { value: menuNodeId(n), title: n.menuName, children: children.length ? children : undefined };
      });
  return [{ value: 0, title: '主类目', children: walk(menus) }];
}

const ICON_OPTIONS = Object.keys(ICON_CATALOG)
  .sort()
  .map((name) => ({
    value: name,
    label: (
      <span className="rm-icon-option">
        <CatalogIcon name={name} /> {name.replace(/Outlined$/, '')}
      </span>
    ),
    search: name.toLowerCase(),
  }));

/** 新增 / 修改菜单: directory, page or button, with icon, order, visibility, permission and path. */
export function MenuFormModal({
  open,
  menus,
  node,
  parentId,
  onClose,
  onSaved,
}: {
  open: boolean;
  menus: readonly ServerMenu[];
  /** The node being edited, or null to add. */
  node: ServerMenu | null;
  /** For a new node: its parent (0 = top level). */
  parentId: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const nodeType = Form.useWatch('nodeType', form) ?? '1';
  const menuStatus = Form.useWatch('menuStatus', form);
  const options = useMemo(() => parentOptions(menus, node ? menuNodeId(node) : undefined), [menus, node]);

  // Filled before the opened dialog is painted: a click or keystroke right after it opens is
  // never overwritten by the reset.
  useLayoutEffect(() => {
    if (!open) return;
    if (node) {
      const p = parseParameter(node.parameter);
      form.setFieldsValue({
        parentId: node.parentId ?? 0,
        nodeType: node.nodeType as NodeType,
        menuName: node.menuName,
        menuIco: node.menuIco ?? undefined,
        location: node.location ?? 0,
        menuPath: node.menuPath ?? undefined,
        menuPermissions: node.menuPermissions ?? undefined,
        menuStatus: node.menuStatus === '0' ? '0' : '1',
        activeMenu: p.activeMenu,
        noCache: Boolean(p.noCache),
        affix: Boolean(p.affix),
      });
    } else {
      form.resetFields();
      form.setFieldsValue({ parentId });
    }
  }, [open, node, parentId, form]);

  const save = async (v: Values) => {
    const parameter: Record<string, unknown> = {};
    if (v.nodeType === '2') {
      if (v.activeMenu?.trim()) parameter.activeMenu = v.activeMenu.trim();
      if (v.noCache) parameter.noCache = true;
      if (v.affix) parameter.affix = true;
    }
    const body: MenuInput = {
      parentId: v.parentId || null,
      nodeType: v.nodeType,
      menuName: v.menuName.trim(),
      menuIco: v.nodeType === '3' ? '' : (v.menuIco ?? ''),
      location: v.location ?? 0,
      menuPath: v.nodeType === '3' ? '' : v.menuPath?.trim() || '',
      menuPermissions: v.nodeType === '1' ? '' : v.menuPermissions?.trim() || '',
      menuStatus: v.nodeType === '3' ? '1' : v.menuStatus,
      parameter: Object.keys(parameter).length ? JSON.stringify(parameter) : '',
    };
    if (node) await menuApi.edit(menuNodeId(node), { ...body, version: node.version });
    else await menuApi.add(body);
  };

  return (
    <FormModal<Values>
      form={form}
      editing={Boolean(node)}
      title={node ? '修改菜单' : '新增菜单'}
      open={open}
      width={680}
      name="menuForm"
      initialValues={{ parentId: 0, nodeType: '1', menuStatus: '1', location: 0 }}
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <Form.Item
        label="上级菜单"
        name="parentId"
        className="rm-span-2"
        rules={[{ required: true, message: '请选择上级菜单' }]}
      >
        <TreeSelect
          treeData={options}
          treeDefaultExpandedKeys={[0]}
          showSearch={{ treeNodeFilterProp: 'title' }}
          placeholder="选择上级菜单"
          styles={{ popup: { root: { maxHeight: 360, overflow: 'auto' } } }}
        />
      </Form.Item>
      <Form.Item label="菜单类型" name="nodeType" className="rm-span-2">
        <Radio.Group
          options={[
            { value: '1', label: '目录' },
            { value: '2', label: '菜单' },
            { value: '3', label: '按钮' },
          ]}
          optionType="button"
          buttonStyle="solid"
        />
      </Form.Item>
      <Form.Item
        label={nodeType === '3' ? '按钮名称' : '菜单名称'}
        name="menuName"
        rules={[
          { required: true, whitespace: true, message: '请输入名称' },
          { max: 50, message: '名称不能超过50个字符' },
        ]}
      >
        <Input placeholder="中文名称，如：销售订单" maxLength={50} />
      </Form.Item>
      <Form.Item label="显示排序" name="location" rules={[{ required: true, message: '请输入显示排序' }]}>
        <InputNumber min={0} max={99999} style={{ width: '100%' }} />
      </Form.Item>
      {nodeType !== '3' && (
        <Form.Item label="菜单图标" name="menuIco">
          <Select
            allowClear
            placeholder="选择图标"
            options={ICON_OPTIONS}
            showSearch={{
              filterOption: (input, option) => Boolean(option?.search.includes(input.toLowerCase())),
            }}
          />
        </Form.Item>
      )}
      {nodeType !== '3' && (
        <Form.Item
          label="路由地址"
          name="menuPath"
          tooltip="以 / 开头的完整地址，如 /sale-manage/sale-order"
          rules={[
            { required: nodeType === '2', message: '请输入路由地址' },
            { pattern: /^\/[A-Za-z0-9/_-]*$/, message: '路由地址以 / 开头，只能包含字母、数字、/ _ -' },
          ]}
        >
          <Input placeholder="/module/page" />
        </Form.Item>
      )}
      {nodeType !== '1' && (
        <Form.Item
          label="权限标识"
          name="menuPermissions"
          tooltip="area:resource:action，如 sale:order:add"
          rules={[
            { required: nodeType === '3', message: '请输入权限标识' },
            { pattern: /^[A-Za-z0-9*]+(:[A-Za-z0-9*]+)*$/, message: '格式为 area:resource:action' },
          ]}
        >
          <Input placeholder="如 system:user:add" />
        </Form.Item>
      )}
      {nodeType !== '3' && (
        <Form.Item label="显示状态" name="menuStatus" tooltip="隐藏的菜单不出现在导航中，但仍可通过地址访问">
          <Radio.Group
            options={[
              { value: '1', label: '显示' },
              { value: '0', label: '隐藏' },
            ]}
          />
        </Form.Item>
      )}
      {nodeType === '2' && menuStatus === '0' && (
        <Form.Item
          label="高亮菜单"
          name="activeMenu"
          tooltip="隐藏页面（新增/编辑/详情）在导航中高亮的列表页地址"
        >
          <Input placeholder="/module/list-page" />
        </Form.Item>
      )}
      {nodeType === '2' && (
        <div className="rm-span-2" style={{ display: 'flex', gap: 32 }}>
          <Form.Item label="不缓存" name="noCache" valuePropName="checked" tooltip="离开页面后不保留页面状态">
            <Switch />
          </Form.Item>
          <Form.Item label="固定标签" name="affix" valuePropName="checked" tooltip="在标签栏中固定，不可关闭">
            <Switch />
          </Form.Item>
        </div>
      )}
    </FormModal>
  );
}
