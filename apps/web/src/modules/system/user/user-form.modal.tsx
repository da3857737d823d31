import { Form, Input, Radio, Select, TreeSelect } from 'antd';
import { useLayoutEffect } from 'react';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { FormModal } from '../../../platform/ui/form-modal.tsx';
import { type Status, type UserInput, type UserRow, userApi } from '../system.api.ts';
import { STATUS_OPTIONS, useDeptTree, useRoleOptions } from '../use-options.ts';

export const USER_NAME_PATTERN = /^[A-Za-z0-9_.@-]{2,30}$/;
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

interface Values {
  userName: string;
  firstName: string;
  passWord?: string;
  phone?: string;
  email?: string;
  deptId?: number | null;
  roleIds?: number[];
  status: Status;
  introduction?: string;
}

/** 新增用户 / 编辑用户: one form for both; the user name is checked for uniqueness as you type. */
export function UserFormModal({
  open,
  user,
  onClose,
  onSaved,
}: {
  open: boolean;
  user: UserRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const depts = useDeptTree();
  const roles = useRoleOptions();
  const editing = Boolean(user);
  // Changing roles needs its own right; the server also refuses roles beyond the editor's own.
  const mayAssignRoles = usePermission()('system:user:assignRole');

  // Filled before the opened dialog is painted: a click or keystroke right after it opens is
  // never overwritten by the reset.
  useLayoutEffect(() => {
    if (!open) return;
    if (user) {
      form.setFieldsValue({
        userName: user.userName,
        firstName: user.firstName,
        phone: user.phone ?? undefined,
        email: user.email ?? undefined,
        deptId: user.deptId ?? undefined,
        roleIds: user.roleIds ?? [],
        status: user.status,
        introduction: user.introduction ?? undefined,
      });
    } else {
      form.resetFields();
    }
  }, [open, user, form]);

  const save = async (values: Values) => {
    const body: UserInput = {
      firstName: values.firstName.trim(),
      phone: values.phone?.trim() || undefined,
      email: values.email?.trim() || undefined,
      deptId: values.deptId ?? null,
      roleIds: values.roleIds ?? [],
      status: values.status,
      introduction: values.introduction?.trim() || undefined,
    };
    if (user) await userApi.update({ ...body, userId: user.userId, version: user.version });
    else await userApi.add({ ...body, userName: values.userName.trim(), passWord: values.passWord });
  };

  return (
    <FormModal<Values>
      form={form}
      editing={Boolean(editing)}
      title={editing ? '编辑用户' : '新增用户'}
      open={open}
      width={680}
      name="userForm"
      initialValues={{ status: '1', roleIds: [] }}
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <Form.Item
        label="用户名"
        name="userName"
        validateDebounce={350}
        extra={editing ? '用户名创建后不可修改' : undefined}
        rules={[
          { required: true, whitespace: true, message: '请输入用户名' },
          { pattern: USER_NAME_PATTERN, message: '用户名为 2-30 位字母、数字或 _ . @ -' },
          {
            validator: async (_, value: string) => {
              if (editing || !value || !USER_NAME_PATTERN.test(value.trim())) return;
              let free = true;
              try {
                free = await userApi.nameIsFree(value.trim());
              } catch {
                return; // the server checks again on save
              }
              if (!free) throw new Error('该用户名已存在');
            },
          },
        ]}
      >
        <Input placeholder="登录账号，如 zhangsan" disabled={editing} maxLength={30} />
      </Form.Item>
      <Form.Item
        label="姓名"
        name="firstName"
        rules={[
          { required: true, whitespace: true, message: '请输入姓名' },
          { max: 30, message: '姓名不能超过30个字符' },
        ]}
      >
        <Input placeholder="请输入姓名" maxLength={30} />
      </Form.Item>
      {!editing && (
        <Form.Item
          label="登录密码"
          name="passWord"
          rules={[
            { required: true, message: '请输入登录密码' },
            { min: 6, message: '密码不能少于6位数' },
            { max: 64, message: '密码不能超过64位' },
          ]}
        >
          <Input.Password placeholder="不少于 6 位" autoComplete="new-password" />
        </Form.Item>
      )}
      <Form.Item
        label="手机号码"
        name="phone"
        rules={[{ pattern: PHONE_PATTERN, message: '请输入正确的手机号码' }]}
      >
        <Input placeholder="请输入手机号码" maxLength={11} />
      </Form.Item>
      <Form.Item label="邮箱" name="email" rules={[{ type: 'email', message: '请输入正确的邮箱地址' }]}>
        <Input placeholder="请输入邮箱" maxLength={64} />
      </Form.Item>
      <Form.Item label="所属部门" name="deptId">
        <TreeSelect
          placeholder="请选择所属部门"
          allowClear
          treeDefaultExpandAll
          showSearch={{ treeNodeFilterProp: 'deptName' }}
          loading={depts.isLoading}
          treeData={depts.data ?? []}
          fieldNames={{ label: 'deptName', value: 'id', children: 'childDept' }}
        />
      </Form.Item>
      <Form.Item label="角色" name="roleIds" extra={mayAssignRoles ? undefined : '没有分配角色的权限'}>
        <Select
          disabled={!mayAssignRoles}
          mode="multiple"
          placeholder="请选择角色"
          allowClear
          loading={roles.isLoading}
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.roleName }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item label="状态" name="status">
        <Radio.Group options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
      </Form.Item>
      <Form.Item label="备注" name="introduction" className="rm-span-2">
        <Input.TextArea placeholder="请输入内容" rows={3} maxLength={200} showCount />
      </Form.Item>
    </FormModal>
  );
}
