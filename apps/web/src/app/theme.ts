import type { ThemeConfig } from 'antd';

/** Spec: primary colour #1890ff, default size middle; a compact enterprise look. */
export const PRIMARY_COLOR = '#1890ff';

/**
 * Readable text (WCAG 2 AA, 4.5:1 for body text; e2e/tests/accessibility.spec.ts). The spec's
 * #1890ff stays the primary colour — on white, or under white text, it is 3.2:1, the one
 * exception the spec imposes — but where the primary marks a selection on its own tint (#e6f7ff)
 * or on grey, its text is the palette's darker blue. Secondary text is #666 (5.7:1, 5.1:1 on the
 * page grey) instead of antd's #8c8c8c (3.4:1); placeholders #757575 (4.6:1) instead of #bfbfbf.
 */
export const PRIMARY_TEXT_ON_TINT = '#0958d9';
const SECONDARY_TEXT = 'rgba(0, 0, 0, 0.6)';
const PLACEHOLDER_TEXT = 'rgba(0, 0, 0, 0.54)';

export const appTheme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorInfo: PRIMARY_COLOR,
    colorLink: PRIMARY_COLOR,
    colorTextTertiary: SECONDARY_TEXT,
    colorTextDescription: SECONDARY_TEXT,
    colorTextPlaceholder: PLACEHOLDER_TEXT,
    // antd's #ff4d4f is 3.3:1 on white (danger buttons, error messages, badge counts); red-7 is 5.6:1.
    colorError: '#cf1322',
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
      itemSelectedColor: PRIMARY_TEXT_ON_TINT,
      subMenuItemSelectedColor: PRIMARY_TEXT_ON_TINT,
    },
    // The active tab's text sits on the page grey (card tabs): the darker blue, the ink bar stays #1890ff.
    Tabs: { itemSelectedColor: PRIMARY_TEXT_ON_TINT },
    // Coloured tags: the palette's 7th shade on its 1st is 3.3:1 for green, cyan, orange, gold,
    // volcano and lime, and the status colours on their tints are lower still; their text takes
    // the next darker shade (5:1 and more), background and border unchanged.
    Tag: {
      green7: '#237804',
      cyan7: '#006d75',
      orange7: '#ad4e00',
      gold7: '#874d00',
      volcano7: '#ad2102',
      lime7: '#3f6600',
      colorSuccess: '#237804',
      colorWarning: '#ad4e00',
      colorInfo: PRIMARY_TEXT_ON_TINT,
    },
    Table: { headerBg: '#fafafa', cellPaddingBlock: 12, cellPaddingInline: 12, cellPaddingBlockMD: 10 },
    Card: { paddingLG: 20 },
  },
};
