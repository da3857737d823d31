import { Menu, type MenuProps, Popover } from 'antd';
import { type ReactNode, useState } from 'react';

type Trigger = 'click' | 'hover' | 'contextMenu';

/**
 * A drop-down menu built from Popover + Menu. The shell uses it instead of antd Dropdown,
 * whose module also bundles Dropdown.Button (Button, Space, wave), to keep the shell's first
 * load small.
 */
export function PopMenu({
  items,
  onSelect,
  children,
  trigger = 'click',
  placement = 'bottomRight',
  selectedKeys,
  testId,
  open: controlledOpen,
  onOpenChange,
}: {
  items: MenuProps['items'];
  onSelect: (key: string) => void;
  children: ReactNode;
  trigger?: Trigger;
  placement?: 'bottomRight' | 'bottomLeft' | 'bottom';
  selectedKeys?: string[];
  testId?: string;
  /** Controlled mode (e.g. one context menu at a time in the tag bar). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (controlledOpen === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  return (
    <Popover
      trigger={trigger}
      open={open}
      onOpenChange={setOpen}
      placement={placement}
      arrow={false}
      classNames={{ root: 'rm-popmenu' }}
      destroyOnHidden
      content={
        <Menu
          mode="vertical"
          items={items}
          selectable={Boolean(selectedKeys)}
          selectedKeys={selectedKeys}
          data-testid={testId}
          onClick={({ key, domEvent }) => {
            domEvent.stopPropagation();
            setOpen(false);
            onSelect(key);
          }}
        />
      }
    >
      {children}
    </Popover>
  );
}
