import type { ResourceDef, TransitionDef } from '@ringmes/domain';
import { Form, type FormInstance, Input, Modal } from 'antd';
import { FieldInput, fieldRules } from './field-input.tsx';

/**
 * Asks for what a lifecycle transition needs before it runs (`LifecycleActions`): its declared
 * input fields (派工的维修人) and, when it requires one, a reason. Open while `asking` is set.
 */
export function TransitionDialog({
  def,
  asking,
  form,
  pending,
  onCancel,
  onSubmit,
}: {
  def: ResourceDef;
  asking: TransitionDef | undefined;
  form: FormInstance<Record<string, any>>;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (t: TransitionDef, values: Record<string, any>) => Promise<unknown>;
}) {
  return (
    <Modal
      title={asking ? `${asking.label}${def.label}` : undefined}
      open={Boolean(asking)}
      okText={asking?.label}
      cancelText="取消"
      okButtonProps={{ danger: asking?.tone === 'danger', loading: pending }}
      onCancel={onCancel}
      onOk={() =>
        form
          .validateFields()
          .then((values) => onSubmit(asking as TransitionDef, values))
          .catch(() => undefined)
      }
      destroyOnHidden
    >
      {asking?.confirm && <p>{asking.confirm}</p>}
      <Form form={form} layout="vertical">
        {asking?.input?.map((f) => (
          <Form.Item key={f.name} name={f.name} label={f.label} tooltip={f.help} rules={fieldRules(f)}>
            <FieldInput field={f} />
          </Form.Item>
        ))}
        {asking?.reason && (
          <Form.Item
            name="reason"
            label={`${asking.label}原因`}
            rules={[{ required: true, whitespace: true, message: `请填写${asking.label}原因` }]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount autoFocus />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
