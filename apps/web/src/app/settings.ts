import Cookies from 'js-cookie';
import { createStore, useStore } from '../platform/store.ts';

/** Spec section 9: below 992 px the mobile layout applies. */
export const MOBILE_BREAKPOINT = 992;

export type Device = 'desktop' | 'mobile';
export type UiSize = 'large' | 'middle' | 'small';

interface SettingsState {
  /** Sidebar open (cookie `sidebarStatus` '1') or collapsed ('0'). */
  sidebarOpened: boolean;
  /** Cookie `device`. */
  device: Device;
  /** Cookie `size`: the default component size (middle). */
  size: UiSize;
  /** Mobile only: the sidebar drawer. Not persisted. */
  drawerOpen: boolean;
}

const cookieOptions = { sameSite: 'Lax', path: '/', expires: 365 } as const;

function initialDevice(): Device {
  if (typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT) return 'mobile';
  const stored = Cookies.get('device');
  return stored === 'mobile' || stored === 'desktop' ? stored : 'desktop';
}

function initialSize(): UiSize {
  const stored = Cookies.get('size');
  return stored === 'large' || stored === 'small' || stored === 'middle' ? stored : 'middle';
}

export const settingsStore = createStore<SettingsState>({
  sidebarOpened: Cookies.get('sidebarStatus') !== '0',
  device: initialDevice(),
  size: initialSize(),
  drawerOpen: false,
});

export function useSettings<S>(select: (s: SettingsState) => S): S {
  return useStore(settingsStore, select);
}

export function setSidebarOpened(opened: boolean): void {
  Cookies.set('sidebarStatus', opened ? '1' : '0', cookieOptions);
  settingsStore.set({ sidebarOpened: opened });
}

export function toggleSidebar(): void {
  const { device, sidebarOpened, drawerOpen } = settingsStore.get();
  if (device === 'mobile') settingsStore.set({ drawerOpen: !drawerOpen });
  else setSidebarOpened(!sidebarOpened);
}

export function closeDrawer(): void {
  if (settingsStore.get().drawerOpen) settingsStore.set({ drawerOpen: false });
}

/** Switching to mobile closes the sidebar (kept in the cookie, as the original did). */
export function setDevice(device: Device): void {
  Cookies.set('device', device, cookieOptions);
  if (device === 'mobile') {
    Cookies.set('sidebarStatus', '0', cookieOptions);
    settingsStore.set({ device, sidebarOpened: false, drawerOpen: false });
  } else {
    settingsStore.set({ device, drawerOpen: false });
  }
}

export function setUiSize(size: UiSize): void {
  Cookies.set('size', size, cookieOptions);
  settingsStore.set({ size });
}

/** Keeps `device` in step with the window width (and the cookie written on first load). */
export function watchDevice(): () => void {
  const apply = () => {
    const device: Device = window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
    if (device !== settingsStore.get().device || Cookies.get('device') !== device) setDevice(device);
  };
  apply();
  window.addEventListener('resize', apply);
  return () => window.removeEventListener('resize', apply);
}
