import './styles.css';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { useSettings, watchDevice } from './app/settings.ts';
import { appTheme } from './app/theme.ts';
import { configureClient } from './platform/api/client.ts';
import { installErrorLogging } from './platform/error-log.ts';
import { currentPath, navigateTo } from './platform/navigation.ts';
import { queryClient } from './platform/query.ts';
import { clearSession, loginPath, sessionStore } from './platform/session.ts';

dayjs.locale('zh-cn');
installErrorLogging();
watchDevice();

configureClient({
  getToken: () => sessionStore.get().token,
  getIdentity: () => {
    const user = sessionStore.get().user;
    return user ? { userId: user.userId, userName: user.userName, firstName: user.firstName } : null;
  },
  // Toasts load with the first one: the message component stays out of the first load.
  notifyError: (message, seconds) => {
    void import('./platform/feedback.ts').then(({ toast }) => toast.error(message, seconds));
  },
  onSessionExpired: () => {
    // Already signed out (a logout or a password change got there first): nothing to do.
    if (!sessionStore.get().token) return;
    const target = loginPath(currentPath());
    clearSession(target);
    navigateTo(target, { replace: true });
  },
  confirmRelogin: () => import('./app/relogin-dialog.ts').then((m) => m.showReloginDialog()),
});

function Themed({ children }: { children: ReactNode }) {
  const size = useSettings((s) => s.size);
  return (
    <ConfigProvider locale={zhCN} theme={appTheme} componentSize={size}>
      {children}
    </ConfigProvider>
  );
}

// Static message/Modal calls (request layer) render with the same theme and locale.
ConfigProvider.config({ holderRender: (children) => <Themed>{children}</Themed> });

const container = document.getElementById('root');
if (!container) throw new Error('#root missing');
createRoot(container).render(
  <Themed>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </Themed>,
);
