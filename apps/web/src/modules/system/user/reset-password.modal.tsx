import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { toast } from '../../../platform/feedback.ts';
import { type UserRow, userApi } from '../system.api.ts';

/** 重置密码 of another user (needs system:user:edit on the server). */
export function ResetPasswordModal({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const [form] = Form.useForm<{ passWord: string; confirm: string }>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !user) return;
    setSaving(true);
    try {
      await userApi.updatePassword(user.userId, values.passWord);
      toast.success(`已重置用户「${user.firstName || user.userName}」的密码`);
      onClose();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={`重置密码${user ? ` - ${user.firstName || user.userName}` : ''}`}
      open={Boolean(user)}
      width={460}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      okText="确定"
      cancelText="取消"
      destroyOnHidden
      afterClose={() => form.resetFields()}
    >
      <p className="rm-muted" style={{ marginTop: 12 }}>
        重置后该用户的登录状态将失效，需要使用新密码重新登录。
      </p>
      <Form name="resetPassword" form={form} labelCol={{ flex: '84px' }} autoComplete="off">
        <Form.Item
          label="新密码"
          name="passWord"
          rules={[
            { required: true, message: '请输入新密码' },
            { min: 6, message: '密码不能少于6位数' },
          ]}
        >
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="confirm"
          dependencies={['passWord']}
          rules={[
            { required: true, message: '请输入确认密码' },
            ({ getFieldValue }) => ({
              validator: (_, v: string) =>
                !v || v === getFieldValue('passWord')
                  ? Promise.resolve()
                  : Promise.reject(new Error('两次输入密码不一致!')),
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
