import { Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { isApiError } from '../api/errors.ts';
import { toast } from '../feedback.ts';
import { applyFieldErrors } from './search-form.tsx';

/**
 * An add/edit dialog around one form. 确定 validates the form and hands the values to `save`; on
 * success it shows 新增成功 / 修改成功, calls `onSaved` and closes; the server's field errors land
 * on their fields and the dialog stays open. Clicking the mask does not close it.
 */
export function FormModal<V>({
  form,
  editing,
  title,
  open,
  width,
  name,
  initialValues,
  save,
  onSaved,
  onClose,
  children,
}: {
  form: FormInstance<V>;
  editing: boolean;
  title: string;
  open: boolean;
  width: number;
  /** The form's name: field ids are `${name}_${field}`; the form's test id is `name` without `Form`. */
  name: string;
  initialValues?: Partial<V>;
  save: (values: V) => Promise<unknown>;
  onSaved: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      await save(values);
      toast.success(editing ? '修改成功' : '新增成功');
      onSaved();
      onClose();
    } catch (error) {
      if (isApiError(error)) applyFieldErrors(form, error.errors);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      width={width}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      okText="确定"
      cancelText="取消"
      forceRender
      mask={{ closable: false }}
    >
      <Form<V>
        name={name}
        form={form}
        layout="vertical"
        className="rm-form-grid"
        initialValues={initialValues}
        autoComplete="off"
        style={{ marginTop: 16 }}
        data-testid={`${name.replace(/Form$/, '')}-form`}
      >
        {children}
      </Form>
    </Modal>
  );
}
