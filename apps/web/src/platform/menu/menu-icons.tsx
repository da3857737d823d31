import {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BuildOutlined,
  ColumnWidthOutlined,
  ContactsOutlined,
  DatabaseOutlined,
  DesktopOutlined,
  ExperimentOutlined,
  ExportOutlined,
  FileSearchOutlined,
  FundProjectionScreenOutlined,
  HomeOutlined,
  ImportOutlined,
  LineChartOutlined,
  NodeIndexOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
  SlidersOutlined,
  TeamOutlined,
  ToolOutlined,
  TruckOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/**
 * Menu icons by the name stored in `menuIco` (Ant Design icon names). Only the icons the menu
 * uses are bundled here; the menu editor offers a wider catalogue in its own chunk.
 */
export const MENU_ICONS: Record<string, ComponentType> = {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BuildOutlined,
  ColumnWidthOutlined,
  ContactsOutlined,
  DatabaseOutlined,
  DesktopOutlined,
  ExperimentOutlined,
  ExportOutlined,
  FileSearchOutlined,
  FundProjectionScreenOutlined,
  HomeOutlined,
  ImportOutlined,
  LineChartOutlined,
  NodeIndexOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
  SlidersOutlined,
  TeamOutlined,
  ToolOutlined,
  TruckOutlined,
};

/** The icon element for a menu icon name; unknown names fall back to a neutral icon. */
export function MenuIcon({ name, fallback = true }: { name?: string | null; fallback?: boolean }) {
  const Icon = (name && MENU_ICONS[name]) || (fallback ? AppstoreOutlined : undefined);
  return Icon ? <Icon /> : null;
}
