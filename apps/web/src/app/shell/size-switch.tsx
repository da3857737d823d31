import { FontSizeOutlined } from '@ant-design/icons';
import { setUiSize, type UiSize, useSettings } from '../settings.ts';
import { PopMenu } from './pop-menu.tsx';

const SIZES: { key: UiSize; label: string }[] = [
  { key: 'large', label: '大' },
  { key: 'middle', label: '中（默认）' },
  { key: 'small', label: '小' },
];

/** The layout size setting (cookie `size`). */
export function SizeSwitch() {
  const size = useSettings((s) => s.size);
  return (
    <PopMenu
      items={SIZES.map((s) => ({ key: s.key, label: s.label }))}
      selectedKeys={[size]}
      onSelect={(key) => setUiSize(key as UiSize)}
    >
      <button type="button" className="rm-header-action" aria-label="布局大小" title="布局大小">
        <FontSizeOutlined className="rm-header-icon" />
      </button>
    </PopMenu>
  );
}
