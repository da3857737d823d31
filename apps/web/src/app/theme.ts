import type { ThemeConfig } from 'antd';

/** Spec: primary colour #1890ff, default size middle; a compact enterprise look. */
export const PRIMARY_COLOR = '#1890ff';

export const appTheme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorInfo: PRIMARY_COLOR,
    colorLink: PRIMARY_COLOR,
    borderRadius: 4,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Helvetica, Arial, sans-serif",
  },
  components: {
    Menu: {
      darkItemBg: '#001529',
      darkSubMenuItemBg: '#000c17',
      darkPopupBg: '#001529',
      darkItemSelectedBg: PRIMARY_COLOR,
      itemBorderRadius: 0,
      subMenuItemBorderRadius: 0,
      itemMarginInline: 0,
      itemMarginBlock: 0,
      itemHeight: 44,
      collapsedWidth: 64,
    },
    Table: { headerBg: '#fafafa', cellPaddingBlock: 12, cellPaddingInline: 12, cellPaddingBlockMD: 10 },
    Card: { paddingLG: 20 },
  },
};
