import { Form, Input, InputNumber, Radio, TreeSelect } from 'antd';
import { useLayoutEffect, useMemo } from 'react';
import { FormModal } from '../../../platform/ui/form-modal.tsx';
import { type Dept, type DeptInput, deptApi, type Status } from '../system.api.ts';
import { STATUS_OPTIONS } from '../use-options.ts';

interface Values {
  parentId?: number | null;
  deptName: string;
  orderNum?: number;
  leader?: string;
  phone?: string;
  status: Status;
}

function withoutSubtree(nodes: readonly Dept[], excludeId?: number): Dept[] {
  return nodes
    .filter((n) => n.id !== excludeId)
    .map((n) => ({ ...n, childDept: withoutSubtree(n.childDept ?? [], excludeId) }));
}

/** 新增部门 / 修改部门. */
export function DepartmentFormModal({
  open,
  dept,
  parentId,
  tree,
  onClose,
  onSaved,
}: {
  open: boolean;
  dept: Dept | null;
  parentId?: number;
  tree: readonly Dept[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const parents = useMemo(() => withoutSubtree(tree, dept?.id), [tree, dept]);

  // Filled before the opened dialog is painted: a click or keystroke right after it opens is
  // never overwritten by the reset.
  useLayoutEffect(() => {
    if (!open) return;
    if (dept) {
      form.setFieldsValue({
        parentId: dept.parentId ?? undefined,
        deptName: dept.deptName,
        orderNum: dept.orderNum ?? 0,
        leader: dept.leader ?? undefined,
        phone: dept.phone ?? undefined,
        status: dept.status ?? '1',
      });
    } else {
      form.resetFields();
      form.setFieldsValue({ parentId });
    }
  }, [open, dept, parentId, form]);

  const save = async (v: Values) => {
    const body: DeptInput = {
      parentId: v.parentId ?? null,
      deptName: v.deptName.trim(),
      orderNum: v.orderNum ?? 0,
      leader: v.leader?.trim() || undefined,
      phone: v.phone?.trim() || undefined,
      status: v.status,
    };
    if (dept) await deptApi.update({ ...body, id: dept.id, version: dept.version });
    else await deptApi.add(body);
  };

  return (
    <FormModal<Values>
      form={form}
      editing={Boolean(dept)}
      title={dept ? '修改部门' : '新增部门'}
      open={open}
      width={620}
      name="deptForm"
      initialValues={{ status: '1', orderNum: 0 }}
      save={save}
      onSaved={onSaved}
      onClose={onClose}
    >
      <Form.Item label="上级部门" name="parentId" className="rm-span-2" tooltip="不选择则为顶级部门">
        <TreeSelect
          allowClear
          placeholder="选择上级部门（不选为顶级部门）"
          treeDefaultExpandAll
          treeData={parents}
          fieldNames={{ label: 'deptName', value: 'id', children: 'childDept' }}
          showSearch={{ treeNodeFilterProp: 'deptName' }}
        />
      </Form.Item>
      <Form.Item
        label="部门名称"
        name="deptName"
        rules={[
          { required: true, whitespace: true, message: '请输入部门名称' },
          { max: 30, message: '部门名称不能超过30个字符' },
        ]}
      >
        <Input placeholder="如：磨加工车间" maxLength={30} />
      </Form.Item>
      <Form.Item label="显示排序" name="orderNum">
        <InputNumber min={0} max={9999} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label="负责人" name="leader" rules={[{ max: 20, message: '负责人不能超过20个字符' }]}>
        <Input placeholder="请输入负责人" maxLength={20} />
      </Form.Item>
      <Form.Item
        label="联系电话"
        name="phone"
        rules={[{ pattern: /^[0-9-]{7,20}$/, message: '请输入正确的联系电话' }]}
      >
        <Input placeholder="手机或座机号码" maxLength={20} />
      </Form.Item>
      <Form.Item label="部门状态" name="status">
        <Radio.Group options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
      </Form.Item>
    </FormModal>
  );
}
