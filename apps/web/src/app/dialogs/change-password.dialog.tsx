import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { isApiError } from '../../platform/api/errors.ts';
import { toast } from '../../platform/feedback.ts';
import { logout, useUser } from '../../platform/session.ts';

/** Spec sections 5 and 9: minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * 修改密码 (spec sections 2 and 5): a 460 px dialog; on success a message and a forced logout
 * (the server ends the user's sessions when the password changes). The current password is
 * asked first (issue 9): the server refuses a change of one's own password without it, and
 * applies the password policy (minimum length setting, common passwords, not the user name).
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useUser();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !user) return;
    setSaving(true);
    try {
      await http.put<null>('/api/v1/user/newUpdateUserPwd', {
        userId: user.userId,
        passWord: values.newPassword,
        oldPassWord: values.oldPassword,
      });
      toast.success('密码修改成功，请使用新密码重新登录');
      onClose();
      logout();
    } catch (error) {
      if (isApiError(error)) {
        for (const e of error.errors) {
          if (e.field === 'passWord') form.setFields([{ name: 'newPassword', errors: [e.message] }]);
          if (e.field === 'oldPassWord') form.setFields([{ name: 'oldPassword', errors: [e.message] }]);
        }
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="修改密码"
      open={open}
      width={460}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
      mask={{ closable: false }}
      className="rm-change-password"
    >
      <Form
        name="changePassword"
        form={form}
        layout="horizontal"
        labelCol={{ flex: '84px' }}
        autoComplete="off"
        style={{ marginTop: 20 }}
      >
        <Form.Item
          label="当前密码"
          name="oldPassword"
          rules={[{ required: true, message: '请输入当前密码' }]}
        >
          <Input.Password placeholder="请输入当前密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPassword"
          rules={[
            { required: true, message: '请输入新密码' },
            { min: MIN_PASSWORD_LENGTH, message: '密码不能少于6位数' },
          ]}
        >
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: '请输入确认密码' },
            { min: MIN_PASSWORD_LENGTH, message: '密码不能少于6位数' },
            ({ getFieldValue }) => ({
              validator(_, value: string) {
                if (!value || value.length < MIN_PASSWORD_LENGTH || getFieldValue('newPassword') === value) {
                  return Promise.resolve();
                }
                return Promise.reject(new Error('两次输入密码不一致!'));
              },
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" onPressEnter={submit} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
