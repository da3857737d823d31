import { useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Radio } from 'antd';
import { useEffect, useLayoutEffect, useState } from 'react';
import { FormModal } from '../../../platform/ui/form-modal.tsx';
import { menuApi, type Role, type RoleInput, roleApi, type Status, systemKeys } from '../system.api.ts';
import { STATUS_OPTIONS } from '../use-options.ts';
import { linkedCheckedKeys, MenuPermissionTree, type PermissionValue } from './menu-permission-tree.tsx';

interface Values {
  roleName: string;
  roleKey: string;
  orderNum?: number;
  status: Status;
  remark?: string;
}

/** 新增角色 / 编辑角色 with the menu-and-button permission tree. */
export function RoleFormModal({
  open,
  role,
  onClose,
  onSaved,
}: {
  open: boolean;
  role: Role | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [linked, setLinked] = useState(true);
  const [perm, setPerm] = useState<PermissionValue>({ checked: [], halfChecked: [] });
  const menus = useQuery({ queryKey: [...systemKeys.menus, 'tree'], queryFn: menuApi.tree, enabled: open });
  const info = useQuery({
    queryKey: [...systemKeys.roles, 'info', role?.id],
    queryFn: () => roleApi.info(role!.id),
    enabled: open && Boolean(role),
    staleTime: 0,
  });

  // Filled before the opened dialog is painted: a click or keystroke right after it opens is
  // never overwritten by the reset.
  useLayoutEffect(() => {
    if (!open) return;
    setLinked(true);
    if (role) {
      form.setFieldsValue({
        roleName: role.roleName,
        roleKey: role.roleKey,
        orderNum: role.orderNum ?? undefined,
        status: role.status ?? '1',
        remark: role.remark ?? undefined,
      });
    } else {
      form.resetFields();
      setPerm({ checked: [], halfChecked: [] });
    }
  }, [open, role, form]);

  useEffect(() => {
    if (!open || !role || !info.data || !menus.data) return;
    setPerm({ checked: linkedCheckedKeys(menus.data, info.data.menuIds ?? []), halfChecked: [] });
  }, [open, role, info.data, menus.data]);

  const save = async (values: Values) => {
    const menuIds = [...new Set([...perm.checked, ...(linked ? perm.halfChecked : [])])];
    const body: RoleInput = {
      roleName: values.roleName.trim(),
      roleKey: values.roleKey.trim(),
      orderNum: values.orderNum ?? 0,
      status: values.status,
      remark: values.remark?.trim() || undefined,
      menuIds,
    };
    if (role) await roleApi.edit(role.id, { ...body, version: info.data?.version ?? role.version });
    else await roleApi.add(body);
  };

  return (
    <FormModal<Values>
      form={form}
      editing={Boolean(role)}
      title={role ? '编辑角色' : '新增角色'}
      open={open}
      width={760}
      name="roleForm"
      initialValues={{ status: '1', orderNum: 0 }}
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <Form.Item
        label="角色名称"
        name="roleName"
        rules={[
          { required: true, whitespace: true, message: '请输入角色名称' },
          { max: 30, message: '角色名称不能超过30个字符' },
        ]}
      >
        <Input placeholder="如：仓库管理员" maxLength={30} />
      </Form.Item>
      <Form.Item
        label="权限字符"
        name="roleKey"
        tooltip="程序中使用的角色标识，如 warehouse；admin 为超级管理员"
        rules={[
          { required: true, whitespace: true, message: '请输入权限字符' },
          { pattern: /^[A-Za-z][A-Za-z0-9_:-]{1,49}$/, message: '以字母开头，2-50 位字母、数字或 _ : -' },
        ]}
      >
        <Input placeholder="如：warehouse" maxLength={50} disabled={role?.roleKey === 'admin'} />
      </Form.Item>
      <Form.Item label="显示顺序" name="orderNum">
        <InputNumber min={0} max={9999} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label="状态" name="status">
        <Radio.Group options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
      </Form.Item>
      <Form.Item label="菜单权限" className="rm-span-2">
        <MenuPermissionTree
          menus={menus.data ?? []}
          loading={menus.isLoading || (Boolean(role) && info.isLoading)}
          value={perm}
          onChange={setPerm}
          linked={linked}
          onLinkedChange={setLinked}
        />
      </Form.Item>
      <Form.Item label="备注" name="remark" className="rm-span-2">
        <Input.TextArea rows={2} maxLength={200} showCount placeholder="请输入内容" />
      </Form.Item>
    </FormModal>
  );
}
