import { Modal, Table } from 'antd';
import { SHORTCUTS, type Shortcut } from '../../platform/shortcuts.ts';

/** 快捷键 (「?」): every shortcut of `platform/shortcuts.ts`, where it acts and what it does. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal open title="键盘快捷键" onCancel={onClose} footer={null} width={560} destroyOnHidden>
      <Table<Shortcut>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={SHORTCUTS}
        data-testid="shortcuts-help"
        columns={[
          {
            title: '按键',
            dataIndex: 'keys',
            width: 150,
            render: (keys: string[]) => (
              <span className="rm-keys">
                {keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' + '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </span>
            ),
          },
          { title: '作用', dataIndex: 'label' },
          { title: '适用', dataIndex: 'where', width: 64 },
        ]}
      />
    </Modal>
  );
}
